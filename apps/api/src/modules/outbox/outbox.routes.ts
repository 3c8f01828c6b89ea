import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { outbox, profiles, users } from '../../db/schema';
import type { Principal } from '../../http/auth';
import { ALL_COMPANIES_ROLE } from '../../http/company-scope';
import type { AppDeps } from '../../deps';

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
/**
 * A set-password link is the account it opens: a reader sees (besides row-level security's company) only messages to
 * users whose profile grants nothing the reader lacks (privileges.ts), never a more privileged colleague's link.
 */
function withinReach(reader: Principal): SQL {
  const held = sql`array[${sql.join([...reader.permissions].map((path) => sql`${path}`), sql`, `)}]::text[]`;
  const roleOk = reader.role === ALL_COMPANIES_ROLE ? sql`true` : sql`${profiles.roleCode} <> ${ALL_COMPANIES_ROLE}`;
  return sql`(${profiles.id} is null or (${profiles.permissions} <@ ${held} and ${roleOk}))`;
}

export function outboxRoutes(_deps: AppDeps): FastifyPluginAsyncZod {
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
        const where = withinReach(request.principal!);
        const [rows, [totals]] = await Promise.all([
          request.db
            .select({
              id: outbox.id,
              toEmail: outbox.toEmail,
              subject: outbox.subject,
              body: outbox.body,
              // A link to an address that is no longer a user's opens nothing it should: it is not shown.
              link: sql<string | null>`case when ${profiles.id} is null then null else ${outbox.link} end`,
              createdAt: outbox.createdAt,
            })
            .from(outbox)
            .leftJoin(users, sql`lower(${users.email}) = lower(${outbox.toEmail})`)
            .leftJoin(profiles, eq(profiles.id, users.profileId))
            .where(where)
            .orderBy(desc(outbox.createdAt), desc(outbox.id))
            .limit(pageSize)
            .offset((page - 1) * pageSize),
          request.db
            .select({ total: count() })
            .from(outbox)
            .leftJoin(users, sql`lower(${users.email}) = lower(${outbox.toEmail})`)
            .leftJoin(profiles, eq(profiles.id, users.profileId))
            .where(where),
        ]);
        return {
          items: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
          total: totals?.total ?? 0,
        };
      },
    );
  };
}
