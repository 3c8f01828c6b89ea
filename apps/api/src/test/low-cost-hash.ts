import { randomBytes, scryptSync } from 'node:crypto';

/**
 * A password hash in the provider's self-describing format at scrypt's N=2^12, where the portal's is 2^17
 * (src/idp/passwords.ts): what a test counts or signs in with, not what it costs to guess.
 */
export function lowCostHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N: 2 ** 12, r: 8, p: 1 });
  return `scrypt$${2 ** 12}$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
}
