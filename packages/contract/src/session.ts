// zod/mini: these schemas run on the sign-in page, whose JavaScript has a budget (the API reads them the same way).
import * as z from 'zod/mini';

/**
 * The core user lookup keeps the seed's answer shape (seed section 7): `data` is a list whose first element is a
 * JSON string with `email, keyuser, profile, companyid, permissions`; `permissions` is itself a JSON string of
 * `{ path }` items, so the browser's "the permissions parse" check stays a real check.
 */
export const permissionSchema = z.object({ path: z.string().check(z.minLength(1)) });
export type Permission = z.infer<typeof permissionSchema>;

export const userLookupRecordSchema = z.object({
  id: z.string(),
  email: z.string(),
  keyuser: z.nullable(z.string()),
  /** The profile's role code, e.g. `SA`: the session's role comes from it. */
  profile: z.string(),
  companyid: z.string(),
  permissions: z.string(),
});
export type UserLookupRecord = z.infer<typeof userLookupRecordSchema>;

export const userLookupResponseSchema = z.object({ data: z.array(z.string()) });
export type UserLookupResponse = z.infer<typeof userLookupResponseSchema>;

export const permissionListSchema = z.array(permissionSchema).check(z.minLength(1));

/** Public facts the web app needs before anyone signs in (where the identity provider is). */
export const authConfigSchema = z.object({
  issuer: z.string(),
  clientId: z.string(),
  audience: z.string(),
  scope: z.string(),
  embedded: z.boolean(),
  /** Where "¿Olvidaste tu contraseña?" leads when the provider is external. */
  passwordResetUrl: z.nullable(z.string()),
});
export type AuthConfig = z.infer<typeof authConfigSchema>;

// Apart from the schemas, so the sign-in page reads it without loading zod (decision 0027).
export { MISSING_EMAIL_CLAIM_TITLE } from './session-constants';
