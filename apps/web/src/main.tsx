import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { HOME_PATH, SIGN_IN_PATH } from '@portal/contract';
import { followOtherTabs, getSession } from './lib/auth/session';
import { removeLeftoverWorkers } from './lib/service-workers';
import './app/base.css';

void removeLeftoverWorkers();

followOtherTabs();

const root = createRoot(document.getElementById('root')!);
const show = (element: ReactNode) => root.render(<StrictMode>{element}</StrictMode>);

let app: Promise<void> | null = null;
/** The app proper (React Router, the shell, the screens), started once, at the address the browser now shows. */
const startApp = () => (app ??= import('./app/app').then(({ App }) => show(<App />)));

// The session is decided before anything else loads (decision 0027): a visitor at "/" goes straight to the sign-in
// page, and the sign-in page opened cold is React and oidc-client-ts alone, without React Router, zod or MUI.
if (window.location.pathname === '/') window.history.replaceState(null, '', getSession() ? HOME_PATH : SIGN_IN_PATH);

if (window.location.pathname === SIGN_IN_PATH && !getSession()) {
  void import('./features/session/sign-in-page').then(({ SignInPage }) =>
    show(
      <SignInPage
        redirect={new URLSearchParams(window.location.search).get('redirect')}
        go={(to, { replace }) => {
          window.history[replace ? 'replaceState' : 'pushState'](null, '', to);
          void startApp();
        }}
      />,
    ),
  );
} else {
  void startApp();
}
