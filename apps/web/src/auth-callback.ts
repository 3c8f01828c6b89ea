import { UserManager } from 'oidc-client-ts';
import { CALLBACK_PATH } from './lib/auth/oidc';

/**
 * Where the provider sends the popup (sign-in) and the hidden frame (silent renew). The waiting window holds the
 * real settings; this page only hands the answer back to it, so it needs none of them.
 */
const origin = window.location.origin;
const manager = new UserManager({ authority: origin, client_id: 'portal', redirect_uri: `${origin}${CALLBACK_PATH}` });
manager.signinCallback().catch((error: unknown) => {
  document.body.textContent = `No se pudo completar el inicio de sesión: ${error instanceof Error ? error.message : String(error)}. Cierra esta ventana e inténtalo de nuevo.`;
});
