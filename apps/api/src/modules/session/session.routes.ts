import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authConfigSchema } from '@portal/contract';
import type { AppDeps } from '../../deps';

/** Where the browser finds the identity provider: public, since it is needed before anyone signs in. */
export function sessionRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/auth/config',
      {
        config: { access: { public: true } },
        schema: {
          tags: ['session'],
          summary: 'Configuración pública del proveedor de identidad',
          response: { 200: authConfigSchema },
        },
      },
      async () => deps.authConfig,
    );
  };
}
