import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
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

export default function SignInScreen() {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'));
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

  if (session && state.phase !== 'signing-in') return <Navigate to={target} replace />;

  const start = () => {
    const manager = readyUserManager();
    if (!manager) return;
    setState({ phase: 'signing-in' });
    // signinPopup opens the window synchronously inside this click, so the browser allows it.
    signIn(manager).then(
      () => navigate(target, { replace: true }),
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
        <Link to={FORGOT_PASSWORD_PATH}>¿Olvidaste tu contraseña?</Link>
      </div>
    </SessionCard>
  );
}
