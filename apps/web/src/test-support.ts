import type { Session } from './lib/auth/session';

/** A signed-in Cartera user; tests override what they need. */
export function sampleSession(overrides: Partial<Session> = {}): Session {
  return {
    user: { id: 'u1', avatar: null, email: 'cartera@demo.mx', name: 'Ana Cartera', role: 'CARTERA', company: 'c1' },
    token: { accessToken: 'token', idToken: null, expiresAt: Math.floor(Date.now() / 1000) + 600 },
    permissions: [{ path: '/wallet/credits/credits-list' }],
    ...overrides,
  };
}
