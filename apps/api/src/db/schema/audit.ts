import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, createdAt, instant } from './columns';
import { companyRef } from './users';

/** The audit trail and the embedded mode's outbox. */

/** Append-only record of every write: who, when, what, before and after. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    occurredAt: instant('occurred_at').notNull().defaultNow(),
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

/**
 * Every message the portal mails (invitations, password resets, e-mail-change notices; later other kinds): written in
 * the transaction of what caused it, readable by administrators, and delivered from here by SMTP when SMTP_URL is set
 * (modules/outbox/mail-delivery.ts), with each message's outcome kept on its row.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The addressee's company: an administrator reads only the links of its own company's users. */
    companyId: companyRef(),
    /** What the message is (mail-templates.ts, MAIL_KINDS): its template, and how the list names it. */
    kind: text('kind').notNull().default('notice'),
    toEmail: text('to_email').notNull(),
    subject: text('subject').notNull(),
    /** The plain-text part, as the console and the list show it. */
    body: text('body').notNull(),
    /** The HTML part (none for messages written before mail delivery existed). */
    html: text('html'),
    link: text('link'),
    /**
     * unsent: no mail server configured (the embedded mode: the console and this list); pending: waiting for its next
     * attempt (next_attempt_at); sending: claimed by a process until claimed_until; sent; failed: refused for good or
     * out of attempts (last_error keeps the server's answer).
     */
    status: text('status').notNull().default('unsent'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at'),
    claimedUntil: instant('claimed_until'),
    lastAttemptAt: instant('last_attempt_at'),
    sentAt: instant('sent_at'),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (table) => [
    // The senders' claim reads only the messages still to deliver, by when they are due.
    index('outbox_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} in ('pending', 'sending')`),
    index('outbox_created_idx').on(table.createdAt, table.id),
  ],
);

/** Files a message carries (a kind that mails documents); the message's company owns them. */
export const outboxAttachments = pgTable(
  'outbox_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyRef(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => outbox.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    content: bytea('content').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('outbox_attachments_message_idx').on(table.companyId, table.messageId)],
);
