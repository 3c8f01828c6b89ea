import { z } from 'zod';
import { ALL_PERMISSION_PATHS, type PermissionPath } from './navigation';
import { auditEntrySchema, listQuery, listResponse, statusBody, versionBody } from './common';

/**
 * The Usuarios area's wire contract: the browser validates its forms with these schemas and the API validates its
 * requests with the same ones, so both show the same Spanish message for the same mistake.
 */

export const USER_SORT_FIELDS = ['email', 'name', 'profile', 'company', 'active', 'lastSignInAt', 'createdAt'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

export const userListQuerySchema = listQuery.extend({
  sort: z
    .string()
    .regex(new RegExp(`^-?(${USER_SORT_FIELDS.join('|')})$`), 'Orden no válido.')
    .optional(),
  profileId: z.uuid('Perfil no válido.').optional(),
  companyId: z.uuid('Empresa no válida.').optional(),
  status: z.enum(['active', 'inactive'], 'Estado no válido.').optional(),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

export const userListItemSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  profileId: z.string(),
  profile: z.string(),
  companyId: z.string(),
  company: z.string(),
  active: z.boolean(),
  lastSignInAt: z.string().nullable(),
  version: z.number().int(),
});
export type UserListItem = z.infer<typeof userListItemSchema>;

export const userListResponseSchema = listResponse(userListItemSchema);

const emailField = z
  .string()
  .trim()
  .min(1, 'Escribe el correo electrónico.')
  .max(254, 'El correo es demasiado largo.')
  .pipe(z.email('Escribe un correo electrónico válido, por ejemplo nombre@empresa.mx.'))
  .transform((value) => value.toLowerCase());

/** New and edited users alike. */
export const userInputSchema = z.object({
  email: emailField,
  name: z.string().trim().min(2, 'Escribe el nombre (al menos 2 letras).').max(120, 'El nombre es demasiado largo.'),
  profileId: z.uuid('Elige un perfil.'),
  companyId: z.uuid('Elige una empresa.'),
  active: z.boolean(),
});
export type UserInput = z.input<typeof userInputSchema>;

/** An edit names the version it was made on: a stale one is refused with 409. */
export const userUpdateSchema = userInputSchema.extend(versionBody.shape);
export type UserUpdate = z.input<typeof userUpdateSchema>;

export const userStatusSchema = statusBody;

export const userDetailSchema = userListItemSchema.extend({
  createdAt: z.string(),
  history: z.array(auditEntrySchema),
});
export type UserDetail = z.infer<typeof userDetailSchema>;

const permissionPathSchema = z.enum(ALL_PERMISSION_PATHS as [PermissionPath, ...PermissionPath[]], 'Permiso desconocido.');

export const profileInputSchema = z.object({
  name: z.string().trim().min(2, 'Escribe el nombre del perfil.').max(80, 'El nombre es demasiado largo.'),
  roleCode: z
    .string()
    .trim()
    .min(2, 'Escribe la clave del rol (2 a 20 letras).')
    .max(20, 'La clave del rol es de 2 a 20 caracteres.')
    .regex(/^[A-Z0-9_]+$/, 'La clave del rol va en mayúsculas, sin espacios (por ejemplo SA, CARTERA).'),
  permissions: z.array(permissionPathSchema),
});
export type ProfileInput = z.input<typeof profileInputSchema>;

export const profileUpdateSchema = profileInputSchema.extend(versionBody.shape);

export const profileSchema = z.object({
  /** The company whose profile it is; null for the portal's common catalogue (only SA changes those). */
  companyId: z.string().nullable(),
  id: z.string(),
  name: z.string(),
  roleCode: z.string(),
  permissions: z.array(z.string()),
  userCount: z.number().int(),
  version: z.number().int(),
});
export type Profile = z.infer<typeof profileSchema>;

export const companySchema = z.object({ id: z.string(), code: z.string(), name: z.string() });
export type Company = z.infer<typeof companySchema>;

/**
 * "Reenviar acceso": a fresh one-time link to set a password, issued by the embedded provider and shown once to
 * the administrator who asked for it (the embedded mode has no mail server to send it).
 */
export const accessLinkSchema = z.object({ email: z.string(), link: z.string(), expiresAt: z.string() });
export type AccessLink = z.infer<typeof accessLinkSchema>;
