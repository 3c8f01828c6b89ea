import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { createHash, timingSafeEqual } from 'node:crypto';

/** The process's Prometheus registry, as the /api/metrics handler (modules/health) renders it. */
export interface Metrics {
  contentType: string;
  render(): Promise<string>;
  /** Whether the request presents the scraper's bearer token (METRICS_TOKEN), compared in constant time. */
  presentsToken(request: FastifyRequest): boolean;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Prometheus metrics: the process's own (memory, event-loop delay, GC) and a latency histogram per route, labelled by
 * the matched route pattern (`/api/credits/:id`), never the raw URL, so an id does not become a series. Installed only
 * with METRICS_TOKEN; the route that serves them is declared in the route table (health area) and checks the token.
 */
export function installMetrics(app: FastifyInstance, options: { token: string }): Metrics {
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

  const expected = digest(options.token);
  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    presentsToken(request) {
      const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
      return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), expected);
    },
  };
}
