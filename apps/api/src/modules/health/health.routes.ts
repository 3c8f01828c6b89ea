import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema } from '@portal/contract';
import { pingDatabase } from '../../db/client';
import type { AppDeps } from '../../deps';

export const APP_VERSION = '0.1.0';

export function healthRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      {
        config: { access: { public: true } },
        schema: {
          tags: ['health'],
          summary: 'Estado del servicio y de la base de datos',
          response: { 200: healthSchema, 503: healthSchema },
        },
      },
      async (request, reply) => {
        const started = performance.now();
        let ok = true;
        try {
          await request.inScope((tx) => pingDatabase(tx));
        } catch (error) {
          ok = false;
          request.log.error({ err: error }, 'database ping failed');
        }
        const latencyMs = Math.round((performance.now() - started) * 10) / 10;
        return reply.code(ok ? 200 : 503).send({
          status: ok ? 'ok' : 'degraded',
          database: { ok, driver: deps.driver, latencyMs },
          version: APP_VERSION,
        });
      },
    );
  };
}
