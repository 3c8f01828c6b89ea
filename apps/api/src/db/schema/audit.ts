import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { companies } from './users';

/** The audit trail and the embedded mode's outbox. */

/** Append-only record of every write: who, when, what, before and after. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    requestId: text('request_id'),
  },
  (table) => [index('audit_events_entity_idx').on(table.entity, table.entityId, table.occurredAt)],
);

/** Messages the embedded mode would e-mail (reset and set-password links), readable by administrators. */
export const outbox = pgTable('outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** The addressee's company: an administrator reads only the links of its own company's users. */
  companyId: uuid('company_id')
    .notNull()
    .references(() => companies.id),
  toEmail: text('to_email').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  link: text('link'),
  createdAt: createdAt(),
});
