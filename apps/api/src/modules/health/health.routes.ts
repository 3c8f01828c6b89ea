import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema, readinessSchema } from '@portal/contract';
import { pingDatabase } from '../../db/client';
import type { AppDeps } from '../../app';

export const APP_VERSION = '0.1.0';

export function healthRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // Liveness: the process answers. No database here, so an outage of the database does not get every replica killed.
    app.get(
      '/health',
      {
        config: { access: { public: true } },
        schema: { tags: ['health'], summary: 'El proceso responde (sin consultar la base de datos)', response: { 200: healthSchema } },
      },
      async () => ({ status: 'ok' as const, version: APP_VERSION }),
    );

    // Readiness: the database answers, so a balancer may send this process requests.
    app.get(
      '/ready',
      {
        config: { access: { public: true } },
        schema: {
          tags: ['health'],
          summary: 'El proceso puede atender: la base de datos responde',
          response: { 200: readinessSchema, 503: readinessSchema },
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
