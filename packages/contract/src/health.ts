import { z } from 'zod';

/** What /api/health answers: the service's and the database's state. */
export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ok: z.boolean(), driver: z.enum(['pglite', 'postgres']), latencyMs: z.number() }),
  version: z.string(),
});
export type Health = z.infer<typeof healthSchema>;
