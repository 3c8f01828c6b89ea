import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes as routes } from '@portal/contract';
import { pingDatabase } from '../../db/client';
import type { AppDeps } from '../../deps';
import { sendProblem } from '../../http/errors';
import type { Metrics } from '../../http/metrics';
import { register } from '../../http/register';

export const APP_VERSION = '0.1.0';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** `metrics`: the process's registry when METRICS_TOKEN is set (http/metrics.ts); null, and /api/metrics answers 404. */
export function healthRoutes(deps: AppDeps, metrics: Metrics | null): FastifyPluginAsync {
  return async (app) => {
    // Liveness: the process answers. No database here, so an outage of the database does not get every replica killed.
    register(app, routes.health, async () => ({ status: 'ok' as const, version: APP_VERSION }));

    // Readiness: the database answers, so a balancer may send this process requests.
    register(app, routes.ready, async (request, reply) => {
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

    // Public to the portal's access hook (a scraper has no OIDC session): the token is this handler's own check.
    register(app, routes.metrics, async (request, reply) => {
      if (!metrics) {
        return sendProblem(request, reply, 404, 'Recurso no encontrado', 'Las métricas no están habilitadas: falta METRICS_TOKEN.');
      }
      if (!metrics.presentsToken(request)) {
        return sendProblem(request, reply, 401, 'Sesión no válida', 'Las métricas requieren el token de METRICS_TOKEN.');
      }
      reply.header('content-type', metrics.contentType);
      return metrics.render();
    });

    // Public to the access hook (the command line has no OIDC session): the bearer of the control file's token only.
    register(app, routes.embeddedBackup, async (request, reply) => {
      const backup = deps.embeddedBackup;
      if (!backup) {
        return sendProblem(
          request,
          reply,
          404,
          'Recurso no encontrado',
          'Con PostgreSQL la copia se hace con pg_dump (npm run db:backup).',
        );
      }
      const given = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (given === undefined || !timingSafeEqual(digest(given), digest(backup.token))) {
        return sendProblem(request, reply, 401, 'Sesión no válida', 'La copia requiere el token del archivo de control del portal.');
      }
      const copy = Buffer.from(await (await backup.dump()).arrayBuffer());
      request.log.info({ bytes: copy.length }, 'embedded database copied');
      reply.header('content-type', 'application/gzip').header('cache-control', 'no-store');
      return copy;
    });
  };
}
