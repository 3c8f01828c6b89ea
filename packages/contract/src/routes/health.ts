import { fileAnswer, route } from '../route-table';
import { healthSchema, readinessSchema } from '../health';

/**
 * The operator's routes: liveness and readiness for the balancer and the orchestrator, metrics for the scraper, and the
 * embedded database's copy for `npm run db:backup`.
 */
export const healthRoutes = {
  health: route({
    method: 'GET',
    path: '/health',
    summary: 'El proceso responde (sin consultar la base de datos)',
    tags: ['health'],
    access: { public: true },
    response: { 200: healthSchema },
  }),
  ready: route({
    method: 'GET',
    path: '/ready',
    summary: 'El proceso puede atender: la base de datos responde (503 si no)',
    tags: ['health'],
    access: { public: true },
    response: { 200: readinessSchema, 503: readinessSchema },
  }),
  /**
   * A Prometheus scraper has no OIDC session, so the portal's access hook lets the route through (public) and the
   * handler itself demands the bearer of METRICS_TOKEN; without that variable it answers 404.
   */
  metrics: route({
    method: 'GET',
    path: '/metrics',
    summary:
      'Métricas Prometheus: pública para el control de acceso del portal; el manejador exige el token METRICS_TOKEN (401 sin él o con otro)',
    tags: ['health'],
    access: { public: true },
    response: fileAnswer('text/plain; version=0.0.4; charset=utf-8'),
  }),
  /**
   * The embedded database (PGlite) has one process: a copy taken while the portal runs must come from that process.
   * `npm run db:backup` asks it here with the token the process wrote beside its DATA_DIR (readable only by whoever
   * may read the data itself); public to the access hook, the handler demands that bearer. PostgreSQL: 404.
   */
  embeddedBackup: route({
    method: 'POST',
    path: '/backup',
    summary: 'Copia consistente de la base embebida (PGlite) mientras corre: exige el token del archivo de control (404 con PostgreSQL)',
    tags: ['health'],
    access: { public: true },
    response: fileAnswer('application/gzip'),
  }),
} as const;
