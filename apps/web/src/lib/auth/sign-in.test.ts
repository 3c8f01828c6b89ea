import { ErrorResponse } from 'oidc-client-ts';
import { MISSING_EMAIL_CLAIM_TITLE } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import type { SignInError } from './sign-in';
import { SIGN_IN_MESSAGES, buildSession, classifyPopupError } from './sign-in';
import type { OidcUser } from './oidc';

const oidcUser = {
  access_token: 'access',
  id_token: 'id',
  expires_at: 2_000_000_000,
  profile: { sub: 's1', email: 'admin@demo.mx', iss: 'x', aud: 'y', exp: 0, iat: 0 },
} as OidcUser;

const record = (permissions: string) =>
  JSON.stringify({ id: 'u1', email: 'admin@demo.mx', keyuser: 'Ada Admin', profile: 'SA', companyid: 'c1', permissions });

const answer = (status: number, body: unknown = {}) =>
  (async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })) as typeof fetch;

async function reasonOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return (error as SignInError).reason;
  }
  return 'resolved';
}

describe('sign-in checks 3 and 4', () => {
  it('builds the session from the lookup in the seed shape', async () => {
    let asked: [string, RequestInit | undefined] | null = null;
    const fetchImpl = (async (url: string, init?: RequestInit) => {
      asked = [url, init];
      return new Response(JSON.stringify({ data: [record(JSON.stringify([{ path: '/user/user-list' }]))] }), { status: 200 });
    }) as typeof fetch;
    const session = await buildSession(oidcUser, fetchImpl);
    expect(asked![0]).toBe('/api/core/user/by_email/admin%40demo.mx');
    expect(new Headers(asked![1]!.headers).get('authorization')).toBe('Bearer access');
    expect(session).toEqual({
      user: { id: 'u1', avatar: null, email: 'admin@demo.mx', name: 'Ada Admin', role: 'SA', company: 'c1' },
      token: { accessToken: 'access', idToken: 'id', expiresAt: 2_000_000_000 },
      permissions: [{ path: '/user/user-list' }],
    });
  });

  it('uses the e-mail as the name when the user has no name', async () => {
    const noName = JSON.stringify({ ...JSON.parse(record('[{"path":"/home"}]')), keyuser: null });
    const session = await buildSession(oidcUser, answer(200, { data: [noName] }));
    expect(session.user.name).toBe('admin@demo.mx');
  });

  it.each([
    [401, 'lookup-unauthorized'],
    [403, 'lookup-forbidden'],
    [404, 'lookup-not-found'],
    [500, 'lookup-failed'],
  ])('fails the lookup check when it answers %i', async (status, reason) => {
    expect(await reasonOf(buildSession(oidcUser, answer(status)))).toBe(reason);
  });

  it('fails with "El usuario no tiene permisos" for a missing, empty or unparsable list', async () => {
    for (const body of [
      { data: [record('[]')] },
      { data: [record('no es json')] },
      { data: [record('[{"ruta":"/home"}]')] },
      { data: [] },
      {},
    ]) {
      expect(await reasonOf(buildSession(oidcUser, answer(200, body)))).toBe('no-permissions');
    }
    expect(SIGN_IN_MESSAGES['no-permissions']).toBe('El usuario no tiene permisos');
  });

  it('says the provider sent no e-mail: the API refuses the token for it, or the ID token names nobody', async () => {
    const refused = answer(401, { type: 'urn:portal:problem:unauthorized', title: MISSING_EMAIL_CLAIM_TITLE, status: 401 });
    expect(await reasonOf(buildSession(oidcUser, refused))).toBe('lookup-no-email');
    let asked = false;
    const nobody = { ...oidcUser, profile: { ...oidcUser.profile, email: undefined } } as OidcUser;
    const lookup = (async () => {
      asked = true;
      return new Response('{}', { status: 404 });
    }) as typeof fetch;
    expect(await reasonOf(buildSession(nobody, lookup))).toBe('lookup-no-email');
    expect(asked).toBe(false);
    expect(SIGN_IN_MESSAGES['lookup-no-email']).toMatch(/^El proveedor de identidad no envió tu correo electrónico/);
  });

  it('reports a network failure of the lookup on its own', async () => {
    const offline = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    expect(await reasonOf(buildSession(oidcUser, offline))).toBe('lookup-network');
  });
});

describe('sign-in checks 1 and 2 (what the popup threw)', () => {
  it.each([
    [new Error('Popup blocked by user'), 'popup-blocked'],
    [new Error('Popup closed by user'), 'popup-closed'],
    [new ErrorResponse({ error: 'access_denied' }), 'provider'],
    [new ErrorResponse({ error: 'login_required' }), 'provider'],
    [new ErrorResponse({ error: 'invalid_grant' }), 'token'],
    [new TypeError('Failed to fetch'), 'token'],
  ])('%s → %s', (error, reason) => {
    expect(classifyPopupError(error)).toBe(reason);
  });
});
