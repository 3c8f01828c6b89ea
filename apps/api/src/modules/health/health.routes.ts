import type { FastifyPluginAsync } from 'fastify';
import { sessionRoutes } from '@portal/contract';
import { pingDatabase } from '../../db/client';
import type { AppDeps } from '../../deps';
import { register } from '../../http/register';

export const APP_VERSION = '0.1.0';

export function healthRoutes(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    register(app, sessionRoutes.health, async (request, reply) => {
      const started = performance.now();
      let ok = true;
      try {
        await request.inScope((tx) => pingDatabase(tx));
      } catch (error) {
        ok = false;
        request.log.error({ err: error }, 'database ping failed');
      }
      const latencyMs = Math.round((performance.now() - started) * 10) / 10;
      reply.code(ok ? 200 : 503);
      return {
        status: ok ? ('ok' as const) : ('degraded' as const),
        database: { ok, driver: deps.driver, latencyMs },
        version: APP_VERSION,
      };
    });
  };
}
