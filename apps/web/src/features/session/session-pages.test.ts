import { describe, expect, it } from 'vitest';
import { passwordResetTarget } from './forgot-password.screen';
import { safeRedirect } from './signin.screen';

describe('sign-in redirect', () => {
  it.each([
    ['/catalog/contract-list?page=2', '/catalog/contract-list?page=2'],
    [null, '/home'],
    ['https://evil.example/robar', '/home'],
    ['//evil.example', '/home'],
    ['/session/signin', '/home'],
  ])('%s → %s', (wanted, target) => {
    expect(safeRedirect(wanted)).toBe(target);
  });
});

describe('forgot password target', () => {
  const base = { clientId: 'portal-web', audience: 'http://localhost:3000/api', scope: 'openid' };
  it('uses the embedded provider’s own page', () => {
    expect(passwordResetTarget({ ...base, issuer: 'http://localhost:3000/oidc', embedded: true, passwordResetUrl: null })).toBe(
      'http://localhost:3000/oidc/forgot-password',
    );
  });
  it('sends to the external provider’s reset, or to nobody when none is configured', () => {
    const external = { ...base, issuer: 'https://login.example.com', embedded: false };
    expect(passwordResetTarget({ ...external, passwordResetUrl: 'https://login.example.com/reset' })).toBe(
      'https://login.example.com/reset',
    );
    expect(passwordResetTarget({ ...external, passwordResetUrl: null })).toBeNull();
  });
});
