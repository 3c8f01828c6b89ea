import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createRouter } from './app/router';
import { followOtherTabs } from './lib/auth/session';
import { removeLeftoverWorkers } from './lib/service-workers';
import { z } from 'zod';
import './app/base.css';

// zod compiles object parsers with `new Function` when it may; the portal's CSP (script-src 'self') refuses eval,
// so it is told not to try, rather than have each first parse report a CSP violation.
z.config({ jitless: true });

void removeLeftoverWorkers();

followOtherTabs();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={createRouter()} />
  </StrictMode>,
);
