import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import type { AuthConfig } from '@portal/contract';

export const CALLBACK_PATH = '/auth-callback.html';

/**
 * The portal is a public client: authorization code + PKCE in a popup, no secret in the browser
 * (docs/decisions/0001). Tokens and in-flight state live in localStorage so a reload and the silent renew
 * (an iframe to the same callback page) keep working.
 */
export function createUserManager(config: AuthConfig, origin = window.location.origin): UserManager {
  const callback = `${origin}${CALLBACK_PATH}`;
  return new UserManager({
    authority: config.issuer,
    client_id: config.clientId,
    redirect_uri: callback,
    popup_redirect_uri: callback,
    silent_redirect_uri: callback,
    post_logout_redirect_uri: `${origin}/session/signin`,
    response_type: 'code',
    scope: config.scope,
    // The embedded provider names its API with a resource indicator (RFC 8707); Auth0-style providers with `audience`.
    extraQueryParams: config.embedded ? { resource: config.audience } : { audience: config.audience },
    userStore: new WebStorageStateStore({ store: window.localStorage }),
    automaticSilentRenew: true,
    // A renewal starts a minute before the token expires; one that fails is tried again while the token lasts
    // (auth-service.ts). The provider may answer slowly while the server finishes a long write (a day close, a payment
    // file), so each try waits up to 30 s (default 10 s).
    silentRequestTimeoutInSeconds: 30,
    loadUserInfo: false,
    popupWindowFeatures: { width: 480, height: 640 },
  });
}

export type OidcUser = Pick<User, 'access_token' | 'id_token' | 'expires_at' | 'profile'>;
