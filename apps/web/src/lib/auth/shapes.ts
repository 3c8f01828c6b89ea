/**
 * The sign-in page's own checks of what it reads (the stored session, the API's auth configuration, the user lookup),
 * written by hand: zod would be the sign-in page's largest library after React (15 kB gzip of its 100 kB budget,
 * decision 0027). They check the same shapes as the contract's schemas (packages/contract/src/session.ts), which the
 * API still uses; a test holds the two to the same answers.
 */
import type { AuthConfig, Permission, UserLookupRecord } from '@portal/contract';

type Check<T> = (value: unknown) => value is T;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export const isString = (value: unknown): value is string => typeof value === 'string';
const isNullableString = (value: unknown): value is string | null => value === null || typeof value === 'string';
const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** An object with at least the given fields, each passing its check; answers a copy with only those fields. */
function objectOf<T>(fields: { [K in keyof T]: Check<T[K]> }): (value: unknown) => T | null {
  return (value) => {
    if (!isRecord(value)) return null;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(fields) as (keyof T & string)[]) {
      if (!(fields[key] as Check<unknown>)(value[key])) return null;
      out[key] = value[key];
    }
    return out as T;
  };
}

/** At least one `{ path }` with a non-empty path (the contract's `permissionListSchema`). */
export function readPermissions(value: unknown): Permission[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const out: Permission[] = [];
  for (const item of value) {
    if (!isRecord(item) || !isNonEmptyString(item.path)) return null;
    out.push({ path: item.path });
  }
  return out;
}

export const readUserLookupRecord = objectOf<UserLookupRecord>({
  id: isString,
  email: isString,
  keyuser: isNullableString,
  profile: isString,
  companyid: isString,
  permissions: isString,
});

export const readAuthConfig = objectOf<AuthConfig>({
  issuer: isString,
  clientId: isString,
  audience: isString,
  scope: isString,
  embedded: (value): value is boolean => typeof value === 'boolean',
  passwordResetUrl: isNullableString,
});

export interface Session {
  user: { id: string; avatar: string | null; email: string; name: string; role: string; company: string };
  token: { accessToken: string; idToken: string | null; /** Seconds since the epoch. */ expiresAt: number };
  permissions: Permission[];
}

const readUser = objectOf<Session['user']>({
  id: isString,
  avatar: isNullableString,
  email: isString,
  name: isString,
  role: isString,
  company: isString,
});
const readToken = objectOf<Session['token']>({
  accessToken: isNonEmptyString,
  idToken: isNullableString,
  expiresAt: (value): value is number => typeof value === 'number' && !Number.isNaN(value),
});

/** The stored session's shape (user, token, permissions), or null. */
export function readSession(value: unknown): Session | null {
  if (!isRecord(value)) return null;
  const user = readUser(value.user);
  const token = readToken(value.token);
  const permissions = readPermissions(value.permissions);
  return user && token && permissions ? { user, token, permissions } : null;
}
