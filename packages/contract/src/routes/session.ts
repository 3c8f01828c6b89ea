import { z } from 'zod';
import { route } from '../route-table';
import { authConfigSchema, userLookupResponseSchema } from '../session';

/** What anyone needs before and at sign-in: where the provider is, and who one is. */
export const sessionRoutes = {
  authConfig: route({
    method: 'GET',
    path: '/auth/config',
    summary: 'Configuración pública del proveedor de identidad',
    tags: ['session'],
    access: { public: true },
    response: { 200: authConfigSchema },
  }),
  /**
   * The core service's user lookup, kept in the seed's shape (seed section 7) so the sign-in checks stay the same:
   * `data[0]` is a JSON string whose `permissions` is a JSON string of `{ path }` items.
   */
  userByEmail: route({
    method: 'GET',
    path: '/core/user/by_email/:email',
    summary: 'Usuario del portal por correo (forma del servicio core)',
    tags: ['core'],
    access: { signedIn: true },
    params: z.object({ email: z.string().min(3).max(254) }),
    response: { 200: userLookupResponseSchema },
  }),
} as const;
