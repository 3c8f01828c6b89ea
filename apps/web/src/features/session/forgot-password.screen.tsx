import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { SIGN_IN_PATH, type AuthConfig } from '@portal/contract';
import { loadAuthConfig } from '../../lib/auth-config';
import { SessionAlert, SessionCard } from './session-card';

/** Where a reset happens: the embedded provider's own page, or the external provider's, by configuration. */
export function passwordResetTarget(config: AuthConfig): string | null {
  return config.embedded ? `${config.issuer}/forgot-password` : config.passwordResetUrl;
}

export default function ForgotPasswordScreen() {
  const [target, setTarget] = useState<string | null | undefined>(undefined);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    loadAuthConfig().then(
      (config) => setTarget(passwordResetTarget(config)),
      () => setFailed(true),
    );
  }, []);

  return (
    <SessionCard title="¿Olvidaste tu contraseña?">
      {failed && <SessionAlert kind="error">No se pudo contactar al portal. Recarga la página en unos momentos.</SessionAlert>}
      {target === null ? (
        <SessionAlert kind="info">
          Tu contraseña la administra el proveedor de identidad de la empresa. Pide a un administrador que la restablezca.
        </SessionAlert>
      ) : (
        <>
          <p>
            Te enviaremos un enlace de un solo uso para elegir una contraseña nueva. Se abre la página segura del proveedor de identidad.
          </p>
          <button type="button" className="session-button" disabled={!target} onClick={() => target && window.location.assign(target)}>
            Restablecer contraseña
          </button>
        </>
      )}
      <div className="session-links">
        <Link to={SIGN_IN_PATH}>Volver a iniciar sesión</Link>
      </div>
    </SessionCard>
  );
}
