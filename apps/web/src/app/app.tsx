import { RouterProvider } from 'react-router/dom';
import { config as zodConfig } from 'zod/mini';
import { createRouter } from './router';

// zod compiles object parsers with `new Function` when it may; the portal's CSP (script-src 'self') refuses eval,
// so it is told not to try, rather than have each first parse report a CSP violation.
zodConfig({ jitless: true });

// Created when the app starts (main.tsx imports this module then), so it reads the address main.tsx has settled.
const router = createRouter();

/** The signed-in app: React Router and every screen behind it, loaded apart from the cold sign-in page. */
export function App() {
  return <RouterProvider router={router} />;
}
