import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { OutboxListQuery, OutboxMessage } from '@portal/contract';
import type { Db } from '../../db/client';
import { fixedSelect } from '../../db/fixed-select';
import { containsPattern } from '../../db/like';
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
    kind: outbox.kind,
    toEmail: outbox.toEmail,
    subject: outbox.subject,
    body: outbox.body,
    // A link to an address that is no longer a user's opens nothing it should, and one the mail server took is its
    // addressee's alone: neither is shown.
    link: sql<string | null>`case when ${profiles.id} is null or ${outbox.status} = 'sent' then null else ${outbox.link} end`,
    createdAt: outbox.createdAt,
    status: outbox.status,
    attempts: outbox.attempts,
    nextAttemptAt: outbox.nextAttemptAt,
    lastAttemptAt: outbox.lastAttemptAt,
    sentAt: outbox.sentAt,
    lastError: outbox.lastError,
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

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The portal's mail the reader may see, newest first, with each message's delivery; by status, by addressee or subject. */
export function listOutbox(db: Db, reader: Principal, query: OutboxListQuery): Promise<Paged<OutboxMessage>> {
  const search = query.q ? containsPattern(query.q) : null;
  const where = and(
    withinReach(reader),
    query.status ? eq(outbox.status, query.status) : undefined,
    search ? or(ilike(outbox.toEmail, search), ilike(outbox.subject, search)) : undefined,
  );
  const rows = outboxList.in(db).where(where).orderBy(desc(outbox.createdAt), desc(outbox.id));
  const total = outboxCount.in(db).where(where);
  return pagedList(query, rows, total, (row) => ({
    ...row,
    status: row.status as OutboxMessage['status'],
    createdAt: row.createdAt.toISOString(),
    nextAttemptAt: iso(row.nextAttemptAt),
    lastAttemptAt: iso(row.lastAttemptAt),
    sentAt: iso(row.sentAt),
  }));
}
