import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { count, desc } from 'drizzle-orm';
import { z } from 'zod';
import { outbox } from '../../db/schema';
import type { AppDeps } from '../../app';

const outboxMessageSchema = z.object({
  id: z.string(),
  toEmail: z.string(),
  subject: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  createdAt: z.string(),
});

/**
 * The embedded mode's mail: password-reset and invitation links, newest first, for administrators (who manage
 * users) to pass on when there is no mail server.
 */
export function outboxRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/outbox',
      {
        config: { access: { permission: '/user/user-list' } },
        schema: {
          tags: ['usuarios'],
          summary: 'Correos del modo embebido (enlaces de acceso y de restablecimiento)',
          querystring: z.object({
            page: z.coerce.number().int().min(1).default(1),
            pageSize: z.coerce.number().int().min(1).max(100).default(25),
          }),
          response: { 200: z.object({ items: z.array(outboxMessageSchema), total: z.number().int() }) },
        },
      },
      async (request) => {
        const { page, pageSize } = request.query;
        const [rows, [totals]] = await Promise.all([
          deps.db
            .select()
            .from(outbox)
            .orderBy(desc(outbox.createdAt), desc(outbox.id))
            .limit(pageSize)
            .offset((page - 1) * pageSize),
          deps.db.select({ total: count() }).from(outbox),
        ]);
        return {
          items: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
          total: totals?.total ?? 0,
        };
      },
    );
  };
}
