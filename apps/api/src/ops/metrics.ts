import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { createHash, timingSafeEqual } from 'node:crypto';
import { sendProblem } from '../plugins/errors';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request presents the scraper's bearer token (compared in constant time). */
function presentsToken(request: FastifyRequest, token: string): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token));
}

/**
 * Prometheus metrics at /metrics: the process's own (memory, event-loop delay, GC) and a latency histogram per route,
 * labelled by the matched route pattern (`/api/credits/:id`), never the raw URL, so an id does not become a series.
 * The route is public to the portal's users' rules (a scraper has no OIDC session) and answers only the bearer of
 * METRICS_TOKEN; without that variable neither the route nor the timing hook exists.
 */
export function installMetrics(app: FastifyInstance, options: { token: string }): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Tiempo de respuesta por ruta, en segundos',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.is404 ? 'no encontrada' : (request.routeOptions.url ?? 'no encontrada');
    duration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { config: { access: { public: true } }, schema: { hide: true } }, async (request, reply) => {
    if (!presentsToken(request, options.token)) {
      return sendProblem(request, reply, 401, 'Sesión no válida', 'Las métricas requieren el token de METRICS_TOKEN.');
    }
    return reply.header('content-type', registry.contentType).send(await registry.metrics());
  });
}
