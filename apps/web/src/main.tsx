import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createRouter } from './app/router';
import { followOtherTabs } from './lib/auth/session';
import { z } from 'zod';
import './app/base.css';

// zod compiles object parsers with `new Function` when it may; the portal's CSP (script-src 'self') refuses eval,
// so it is told not to try, rather than have each first parse report a CSP violation.
z.config({ jitless: true });

// Seed section 9: a background worker left registered by an earlier version is removed at start-up.
if ('serviceWorker' in navigator) {
  void navigator.serviceWorker
    .getRegistrations()
    .then((registrations) => Promise.all(registrations.map((registration) => registration.unregister())))
    .catch(() => undefined);
}

followOtherTabs();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={createRouter()} />
  </StrictMode>,
);
