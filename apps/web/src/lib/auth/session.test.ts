import { beforeEach, describe, expect, it } from 'vitest';
import { SESSION_KEY, clearSession, getSession, hasPermission, readStoredSession, resetSessionCache, saveSession } from './session';
import { sampleSession } from '../../test-support';

describe('stored session (portfolio-admin)', () => {
  beforeEach(() => resetSessionCache());

  it('restores a valid session from localStorage after a reload', () => {
    window.localStorage.setItem(SESSION_KEY, JSON.stringify(sampleSession()));
    expect(getSession()?.user.email).toBe('cartera@demo.mx');
  });

  it.each([
    ['corrupt JSON', '{no es json'],
    ['a missing token', JSON.stringify({ ...sampleSession(), token: undefined })],
    ['an empty permission list', JSON.stringify(sampleSession({ permissions: [] }))],
    ['an expired token', JSON.stringify(sampleSession({ token: { accessToken: 't', idToken: null, expiresAt: 1 } }))],
  ])('treats %s as signed out and removes it', (_reason, stored) => {
    window.localStorage.setItem(SESSION_KEY, stored);
    expect(readStoredSession()).toBeNull();
    expect(window.localStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it('saves and clears under the one key', () => {
    saveSession(sampleSession());
    expect(JSON.parse(window.localStorage.getItem(SESSION_KEY)!).user.name).toBe('Ana Cartera');
    clearSession();
    expect(window.localStorage.getItem(SESSION_KEY)).toBeNull();
    expect(getSession()).toBeNull();
  });

  it('answers permissions by exact path', () => {
    const session = sampleSession();
    expect(hasPermission(session, '/wallet/credits/credits-list')).toBe(true);
    // A group's path is no permission: the type refuses it, and so does the check at run time.
    // @ts-expect-error '/wallet/credits' is not a PermissionPath
    expect(hasPermission(session, '/wallet/credits')).toBe(false);
    expect(hasPermission(null, '/wallet/credits/credits-list')).toBe(false);
  });
});
