import { z } from 'zod';

/** Liveness (/api/health): the process answers; the database is not consulted, so a database outage does not restart it. */
export const healthSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
});
export type Health = z.infer<typeof healthSchema>;

/** Readiness (/api/ready): the database answers, so this process can serve; 503 otherwise. */
export const readinessSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ok: z.boolean(), driver: z.enum(['pglite', 'postgres']), latencyMs: z.number() }),
  version: z.string(),
});
export type Readiness = z.infer<typeof readinessSchema>;
