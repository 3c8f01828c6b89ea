import { sql } from 'drizzle-orm';
import { bigserial, foreignKey, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { LABEL_ACTIONS, LABEL_SOURCES } from '@portal/contract';
import { credits } from './credits';
import { companyRef, userRef } from './users';
import { instant } from './columns';

/**
 * Credit labels (issue 17): each company's catalogue, the bulk updates (jobs) and every change they made. The credit's
 * current labels stay in credits.labels (the list filters on it through its GIN index); this is where they came from.
 */
export const labels = pgTable(
  'labels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyRef(),
    name: text('name').notNull(),
    /** The chip's colour, #rrggbb. */
    color: text('color').notNull(),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (table) => [uniqueIndex('labels_company_name_key').on(table.companyId, sql`lower(${table.name})`)],
);

/**
 * One applied update. An administrator's update may touch several companies: each company keeps its own record of
 * it under the same id, so a company's users see their part and nothing of the others'.
 */
export const labelJobs = pgTable(
  'label_jobs',
  {
    companyId: companyRef(),
    id: uuid('id').notNull(),
    source: text('source', { enum: LABEL_SOURCES }).notNull(),
    fileName: text('file_name'),
    /** Rows the update was given (all companies), and the changes it made in this company. */
    rowsTotal: integer('rows_total').notNull(),
    applied: integer('applied').notNull(),
    createdBy: userRef('created_by'),
    createdByEmail: text('created_by_email'),
    createdAt: instant('created_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.companyId, table.id] }),
    index('label_jobs_company_created_idx').on(table.companyId, table.createdAt),
  ],
);

/** A label added to or removed from a credit: append-only, who, when and the job (and its line) it came from. */
export const creditLabelEvents = pgTable(
  'credit_label_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: companyRef(),
    creditId: uuid('credit_id')
      .notNull()
      .references(() => credits.id),
    label: text('label').notNull(),
    action: text('action', { enum: LABEL_ACTIONS }).notNull(),
    jobId: uuid('job_id').notNull(),
    line: integer('line').notNull(),
    actorId: userRef('actor_id'),
    actorEmail: text('actor_email'),
    occurredAt: instant('occurred_at').notNull(),
  },
  (table) => [
    foreignKey({ columns: [table.companyId, table.jobId], foreignColumns: [labelJobs.companyId, labelJobs.id] }),
    index('credit_label_events_credit_idx').on(table.companyId, table.creditId, table.occurredAt),
  ],
);
