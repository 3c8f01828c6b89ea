import { describe, expect, it } from 'vitest';
import { DETAIL_ROUTE_PERMISSIONS, SCREEN_PATHS } from '@portal/contract';
import { SCREEN_ROUTES, canAccess } from './routes';
import { sampleSession } from '../test-support';

describe('product routes', () => {
  it('has every route of the seed: /home, the 18 sidebar screens and the 5 detail screens', () => {
    const paths = SCREEN_ROUTES.map((route) => route.path);
    expect(paths).toContain('/home');
    for (const path of [...SCREEN_PATHS, ...Object.keys(DETAIL_ROUTE_PERMISSIONS)]) expect(paths).toContain(path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('guards a detail screen with its area list permission', () => {
    const edit = SCREEN_ROUTES.find((route) => route.path === '/user/user-edit/:id')!;
    expect(edit.access).toEqual({ permission: '/user/user-list' });
  });
});

describe('canAccess', () => {
  const cartera = sampleSession();
  it('opens a flagged route only with its path', () => {
    expect(canAccess(cartera, { permission: '/wallet/credits/credits-list' })).toBe(true);
    expect(canAccess(cartera, { permission: '/user/user-list' })).toBe(false);
  });
  it('opens an unflagged route to any signed-in user and nothing to a signed-out one', () => {
    expect(canAccess(cartera, undefined)).toBe(true);
    expect(canAccess(null, undefined)).toBe(false);
  });
  it('restricts a role-list route to its roles (dashboard/default: SA)', () => {
    expect(canAccess(cartera, { roles: ['SA'] })).toBe(false);
    expect(canAccess(sampleSession({ user: { ...cartera.user, role: 'SA' } }), { roles: ['SA'] })).toBe(true);
  });
});
