import { desc, eq, sql, type SQL } from 'drizzle-orm';
import type { OutboxMessage } from '@portal/contract';
import type { Db } from '../../db/client';
import { fixedSelect } from '../../db/fixed-select';
import { outbox } from '../../db/schema/audit';
import { profiles, users } from '../../db/schema/users';
import type { Principal } from '../../http/auth';
import { ALL_COMPANIES_ROLE } from '../../http/company-scope';
import { fixedCount, type Paged, pagedList } from '../../http/pagination';

/**
 * A set-password link is the account it opens: a reader sees (besides row-level security's company) only messages to
 * users whose profile grants nothing the reader lacks (privileges.ts), never a more privileged colleague's link.
 */
function withinReach(reader: Principal): SQL {
  const held = sql`array[${sql.join(
    [...reader.permissions].map((path) => sql`${path}`),
    sql`, `,
  )}]::text[]`;
  const roleOk = reader.role === ALL_COMPANIES_ROLE ? sql`true` : sql`${profiles.roleCode} <> ${ALL_COMPANIES_ROLE}`;
  return sql`(${profiles.id} is null or (${profiles.permissions} <@ ${held} and ${roleOk}))`;
}

const outboxList = fixedSelect(
  {
    id: outbox.id,
    toEmail: outbox.toEmail,
    subject: outbox.subject,
    body: outbox.body,
    // A link to an address that is no longer a user's opens nothing it should: it is not shown.
    link: sql<string | null>`case when ${profiles.id} is null then null else ${outbox.link} end`,
    createdAt: outbox.createdAt,
  },
  (select) =>
    select
      .from(outbox)
      .leftJoin(users, sql`lower(${users.email}) = lower(${outbox.toEmail})`)
      .leftJoin(profiles, eq(profiles.id, users.profileId)),
);
const outboxCount = fixedCount((select) =>
  select
    .from(outbox)
    .leftJoin(users, sql`lower(${users.email}) = lower(${outbox.toEmail})`)
    .leftJoin(profiles, eq(profiles.id, users.profileId)),
);

/** The embedded mode's mail the reader may see, newest first. */
export function listOutbox(db: Db, reader: Principal, page: { page: number; pageSize: number }): Promise<Paged<OutboxMessage>> {
  const where = withinReach(reader);
  const rows = outboxList.in(db).where(where).orderBy(desc(outbox.createdAt), desc(outbox.id));
  const total = outboxCount.in(db).where(where);
  return pagedList(page, rows, total, (row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
