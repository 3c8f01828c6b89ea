import { MISSING_EMAIL_CLAIM_TITLE } from '@portal/contract';
import { readPermissions, readUserLookupRecord } from './shapes';
import type { OidcUser } from './oidc';
import type { Session } from './session';

/** Each of the seed's four sign-in checks fails with its own reason and Spanish message. */
export type SignInFailure =
  | 'popup-blocked'
  | 'popup-closed'
  | 'provider'
  | 'token'
  | 'lookup-network'
  | 'lookup-unauthorized'
  | 'lookup-no-email'
  | 'lookup-not-found'
  | 'lookup-forbidden'
  | 'lookup-failed'
  | 'no-permissions';

export const SIGN_IN_MESSAGES: Record<SignInFailure, string> = {
  'popup-blocked':
    'El navegador bloqueó la ventana de inicio de sesión. Permite las ventanas emergentes para este sitio e inténtalo de nuevo.',
  'popup-closed': 'Se cerró la ventana de inicio de sesión antes de terminar.',
  provider: 'El proveedor de identidad no confirmó el inicio de sesión.',
  token: 'No se pudo obtener el token de acceso del proveedor de identidad.',
  'lookup-network': 'No se pudo consultar tu usuario en el portal. Revisa tu conexión e inténtalo de nuevo.',
  'lookup-unauthorized': 'El portal no aceptó el token del proveedor de identidad.',
  'lookup-no-email':
    'El proveedor de identidad no envió tu correo electrónico, y el portal reconoce a cada persona por su correo. Pide a quien administra el proveedor de identidad que lo incluya en el token.',
  'lookup-not-found': 'Tu correo no está registrado como usuario del portal.',
  'lookup-forbidden': 'Tu usuario está desactivado en el portal.',
  'lookup-failed': 'El portal no pudo consultar tu usuario. Inténtalo de nuevo en unos minutos.',
  'no-permissions': 'El usuario no tiene permisos',
};

export class SignInError extends Error {
  constructor(readonly reason: SignInFailure) {
    super(SIGN_IN_MESSAGES[reason]);
    this.name = 'SignInError';
  }
}

/** Errors the token endpoint answers (RFC 6749 §5.2), as opposed to the authorization endpoint's. */
const TOKEN_ENDPOINT_ERRORS = new Set(['invalid_grant', 'invalid_client', 'unsupported_grant_type', 'invalid_dpop_proof']);

/** Sorts what `signinPopup` threw into check 1 (the provider confirms) or check 2 (the token request answers 200). */
export function classifyPopupError(error: unknown): SignInFailure {
  const message = error instanceof Error ? error.message : '';
  if (message === 'Popup blocked by user') return 'popup-blocked';
  if (message === 'Popup closed by user' || message === 'Popup aborted') return 'popup-closed';
  // oidc-client-ts's ErrorResponse, known by its name so that this module does not load the library.
  if (error instanceof Error && error.name === 'ErrorResponse') {
    const code = (error as Error & { error?: string | null }).error;
    return TOKEN_ENDPOINT_ERRORS.has(code ?? '') ? 'token' : 'provider';
  }
  return 'token';
}

/** The title of a Problem answer, or null when the body is not one. */
async function problemTitle(response: Response): Promise<string | null> {
  try {
    const body = (await response.json()) as { title?: unknown };
    return typeof body.title === 'string' ? body.title : null;
  } catch {
    return null;
  }
}

/** Checks 3 and 4: the user lookup answers 200 and its permissions parse; answers the session to store. */
export async function buildSession(user: OidcUser, fetchImpl: typeof fetch = fetch): Promise<Session> {
  const email = String(user.profile.email ?? user.profile.preferred_username ?? '');
  // Nobody to look up: the provider said who signed in without an e-mail.
  if (email === '') throw new SignInError('lookup-no-email');
  let response: Response;
  try {
    response = await fetchImpl(`/api/core/user/by_email/${encodeURIComponent(email)}`, {
      headers: { authorization: `Bearer ${user.access_token}`, accept: 'application/json' },
    });
  } catch {
    throw new SignInError('lookup-network');
  }
  if (response.status === 401)
    throw new SignInError((await problemTitle(response)) === MISSING_EMAIL_CLAIM_TITLE ? 'lookup-no-email' : 'lookup-unauthorized');
  if (response.status === 404) throw new SignInError('lookup-not-found');
  if (response.status === 403) throw new SignInError('lookup-forbidden');
  if (response.status !== 200) throw new SignInError('lookup-failed');

  let record;
  let permissions;
  try {
    const body = (await response.json()) as { data?: unknown[] };
    record = readUserLookupRecord(JSON.parse(String(body.data?.[0])));
    permissions = record && readPermissions(JSON.parse(record.permissions));
  } catch {
    throw new SignInError('no-permissions');
  }
  if (!record || !permissions) throw new SignInError('no-permissions');
  return {
    user: {
      id: record.id,
      avatar: typeof user.profile.picture === 'string' ? user.profile.picture : null,
      email: record.email,
      name: record.keyuser?.trim() || record.email,
      role: record.profile,
      company: record.companyid,
    },
    token: {
      accessToken: user.access_token,
      idToken: user.id_token ?? null,
      expiresAt: user.expires_at ?? Math.floor(Date.now() / 1000) + 300,
    },
    permissions: permissions.map(({ path }) => ({ path })),
  };
}
