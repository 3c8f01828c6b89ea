import { hashPassword } from '../idp/passwords';

/**
 * A password hash in the provider's self-describing format at scrypt's N=2^12, where the portal's is 2^17
 * (src/idp/passwords.ts): what a test counts or signs in with, not what it costs to guess.
 */
export const lowCostHash = (password: string): Promise<string> => hashPassword(password, { N: 2 ** 12, r: 8, p: 1, keyLength: 32 });
