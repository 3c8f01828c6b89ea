import { describe, expect, it } from 'vitest';
import { authConfigSchema, permissionListSchema, userLookupRecordSchema } from '@portal/contract';
import { readAuthConfig, readPermissions, readSession, readUserLookupRecord } from './shapes';
import { sampleSession } from '../../test-support';

/** The hand-written checks answer what the contract's zod schemas answer: accepted or not, and the same data. */
function agree(read: (value: unknown) => unknown, schema: { safeParse: (value: unknown) => { success: boolean; data?: unknown } }) {
  return (value: unknown) => {
    const expected = schema.safeParse(value);
    expect(read(value)).toEqual(expected.success ? expected.data : null);
  };
}

const config = {
  issuer: 'http://localhost:3000/oidc',
  clientId: 'portal-web',
  audience: 'http://localhost:3000/api',
  scope: 'openid email',
  embedded: true,
  passwordResetUrl: null,
};
const record = { id: 'u1', email: 'a@b.mx', keyuser: 'Ana', profile: 'SA', companyid: 'c1', permissions: '[]' };

describe('sign-in checks without zod', () => {
  it.each([
    config,
    { ...config, passwordResetUrl: 'https://x/reset', extra: 1 },
    { ...config, embedded: 'true' },
    { ...config, passwordResetUrl: undefined },
    { ...config, issuer: 3 },
    null,
    [],
    'x',
  ])('auth configuration %#', (value) => agree(readAuthConfig, authConfigSchema)(value));

  it.each([
    record,
    { ...record, keyuser: null },
    { ...record, keyuser: undefined },
    { ...record, companyid: 7 },
    { ...record, permissions: [] },
    {},
  ])('user lookup record %#', (value) => agree(readUserLookupRecord, userLookupRecordSchema)(value));

  it.each([[{ path: '/home' }], [{ path: '/home', extra: true }, { path: '/x' }], [], [{ path: '' }], [{}], [{ path: 1 }], {}, null])(
    'permission list %#',
    (value) => agree(readPermissions, permissionListSchema)(value),
  );

  it('reads a stored session and refuses a broken one', () => {
    const session = sampleSession();
    expect(readSession(JSON.parse(JSON.stringify(session)))).toEqual(session);
    expect(readSession({ ...session, token: { ...session.token, accessToken: '' } })).toBeNull();
    expect(readSession({ ...session, permissions: [] })).toBeNull();
    expect(readSession({ ...session, user: { ...session.user, avatar: undefined } })).toBeNull();
    expect(readSession({ ...session, token: { ...session.token, expiresAt: '9999999999' } })).toBeNull();
  });
});
