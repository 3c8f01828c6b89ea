import { z } from 'zod';

/** RFC 9457 Problem Details, with Spanish text a clerk can act on and per-field errors for forms. */
export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  requestId: z.string().optional(),
  errors: z.array(fieldErrorSchema).optional(),
});
export type Problem = z.infer<typeof problemSchema>;

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
