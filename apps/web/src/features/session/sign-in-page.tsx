import { useEffect, useState } from 'react';
import { FORGOT_PASSWORD_PATH, HOME_PATH } from '@portal/contract';
import { prepareAuth, readyUserManager, signIn, takeNotice } from '../../lib/auth/auth-service';
import { SignInError, type SignInFailure } from '../../lib/auth/sign-in';
import { useSession } from '../../lib/auth/use-session';
import { SessionAlert, SessionCard } from './session-card';

/** Only same-site paths: `?redirect=https://elsewhere` must not send a signed-in user away. */
export function safeRedirect(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/session/') ? value : HOME_PATH;
}

type State =
  | { phase: 'preparing' }
  | { phase: 'ready' }
  | { phase: 'config-error' }
  | { phase: 'signing-in' }
  | { phase: 'failed'; reason: SignInFailure | 'unexpected'; message: string };

/** Where the page goes next: the router's navigate inside the app, the app's first start on a cold sign-in page. */
export type Go = (to: string, options: { replace: boolean }) => void;

/**
 * The sign-in page, without React Router: opened cold (main.tsx) it loads only React, oidc-client-ts and itself
 * (decision 0027); inside the app the route in signin.route.tsx hands it the router's navigate.
 */
export function SignInPage({ redirect, go }: { redirect: string | null; go: Go }) {
  const session = useSession();
  const target = safeRedirect(redirect);
  const [notice] = useState(takeNotice);
  const [state, setState] = useState<State>(() => (readyUserManager() ? { phase: 'ready' } : { phase: 'preparing' }));

  useEffect(() => {
    let active = true;
    prepareAuth().then(
      () =>
        active && setState((current) => (current.phase === 'preparing' || current.phase === 'config-error' ? { phase: 'ready' } : current)),
      () => active && setState({ phase: 'config-error' }),
    );
    return () => {
      active = false;
    };
  }, []);

  const signedIn = !!session && state.phase !== 'signing-in';
  useEffect(() => {
    if (signedIn) go(target, { replace: true });
  }, [signedIn, go, target]);
  if (signedIn) return null;

  const start = () => {
    const manager = readyUserManager();
    if (!manager) return;
    setState({ phase: 'signing-in' });
    // signinPopup opens the window synchronously inside this click, so the browser allows it.
    signIn(manager).then(
      () => go(target, { replace: true }),
      (error: unknown) =>
        setState(
          error instanceof SignInError
            ? { phase: 'failed', reason: error.reason, message: error.message }
            : { phase: 'failed', reason: 'unexpected', message: 'No se pudo iniciar sesión. Inténtalo de nuevo.' },
        ),
    );
  };

  const busy = state.phase === 'preparing' || state.phase === 'signing-in';

  return (
    <SessionCard title="Iniciar sesión">
      <p>Entra con tu cuenta del portal. Se abrirá una ventana del proveedor de identidad.</p>
      {notice && <SessionAlert kind="warning">{notice}</SessionAlert>}
      {state.phase === 'config-error' && (
        <SessionAlert kind="error">
          No se pudo contactar al portal para preparar el inicio de sesión. Recarga la página en unos momentos.
        </SessionAlert>
      )}
      {state.phase === 'failed' && (
        <SessionAlert kind="error">
          {state.message}
          {state.reason === 'popup-blocked' && (
            <button type="button" className="session-button secondary" onClick={start}>
              Reintentar
            </button>
          )}
        </SessionAlert>
      )}
      <button type="button" className="session-button" onClick={start} disabled={busy || state.phase === 'config-error'}>
        {state.phase === 'signing-in' ? 'Esperando la ventana de inicio de sesión…' : 'Iniciar sesión'}
      </button>
      <div className="session-links">
        <a
          href={FORGOT_PASSWORD_PATH}
          onClick={(event) => {
            if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
            event.preventDefault();
            go(FORGOT_PASSWORD_PATH, { replace: false });
          }}
        >
          ¿Olvidaste tu contraseña?
        </a>
      </div>
    </SessionCard>
  );
}
