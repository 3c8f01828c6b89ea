import { describe, expect, it } from 'vitest';
import { lowCostHash } from '../test/low-cost-hash';
import { hashPassword, verifyPassword } from './passwords';

describe('password hashes', () => {
  it('hashes at OWASP’s scrypt minimum (N=2^17, r=8, p=1), a 16-byte salt and a 32-byte key, named in the hash', async () => {
    const stored = await hashPassword('Administrador2026');
    const [scheme, n, r, p, salt, key] = stored.split('$');
    expect([scheme, n, r, p]).toEqual(['scrypt', '131072', '8', '1']);
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(key!, 'base64url')).toHaveLength(32);
    expect(await verifyPassword('Administrador2026', stored)).toBe(true);
    expect(await verifyPassword('Administrador2027', stored)).toBe(false);
    expect(await hashPassword('Administrador2026')).not.toBe(stored);
  });

  it('verifies a hash at the cost it names, as the API tests’ demo users store theirs', async () => {
    const stored = await lowCostHash('Cartera2026');
    expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', '4096', '8', '1']);
    expect(await verifyPassword('Cartera2026', stored)).toBe(true);
    expect(await verifyPassword('cartera2026', stored)).toBe(false);
  });
});
