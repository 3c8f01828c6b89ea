import { sql } from 'drizzle-orm';
import { bigserial, date, index, integer, jsonb, numeric, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { RUN_STATUSES, type PortfolioFigures } from '@portal/contract';
import { companies, companyRef, userRef } from './users';
import { instant } from './columns';

/**
 * The fecha flujo (DOMAIN.md, "Business date"): one current business date per company. It is the day the next
 * close will close; every portfolio figure (days past due, payoff, reports) is computed at it, never at the clock.
 */
export const businessDates = pgTable('business_dates', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id),
  businessDate: date('business_date').notNull(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});

/**
 * One "Cerrar día" request: the days it closes (missed days replay in order) and its progress, which the screen
 * reads back after a reload. The work itself runs as a pg-boss job (jobId).
 */
export const dayCloseRuns = pgTable(
  'day_close_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyRef(),
    fromDate: date('from_date').notNull(),
    throughDate: date('through_date').notNull(),
    daysTotal: integer('days_total').notNull(),
    daysDone: integer('days_done').notNull().default(0),
    /** How many times the work was started: more than one after a transient failure was retried (jobs/tracked-job.ts). */
    attempts: integer('attempts').notNull().default(0),
    status: text('status', { enum: RUN_STATUSES }).notNull().default('en espera'),
    jobId: text('job_id'),
    error: text('error'),
    requestedBy: userRef('requested_by'),
    requestedAt: instant('requested_at').notNull().defaultNow(),
    finishedAt: instant('finished_at'),
  },
  (table) => [
    index('day_close_runs_company_idx').on(table.companyId, table.requestedAt),
    // One close at a time per company: a second request while one waits or runs is refused.
    uniqueIndex('day_close_runs_active_key')
      .on(table.companyId)
      .where(sql`status in ('en espera', 'en curso')`),
  ],
);

/** One closed business day and what the close did (Admin Fecha Flujo's history). */
export const dayCloses = pgTable(
  'day_closes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: companyRef(),
    runId: uuid('run_id').references(() => dayCloseRuns.id),
    businessDate: date('business_date').notNull(),
    creditsProcessed: integer('credits_processed').notNull(),
    newVencidos: integer('new_vencidos').notNull(),
    newlyDueInstallments: integer('newly_due_installments').notNull(),
    toTransit: integer('to_transit').notNull(),
    toNotApplied: integer('to_not_applied').notNull(),
    moratoryAccrued: numeric('moratory_accrued', { precision: 14, scale: 2 }).notNull(),
    moratoryIvaAccrued: numeric('moratory_iva_accrued', { precision: 14, scale: 2 }).notNull(),
    feesAccrued: numeric('fees_accrued', { precision: 14, scale: 2 }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    closedBy: userRef('closed_by'),
    closedAt: instant('closed_at').notNull().defaultNow(),
  },
  // A day closes once per company: the database refuses a second row even if two closes raced.
  (table) => [uniqueIndex('day_closes_company_date_key').on(table.companyId, table.businessDate)],
);

/**
 * Each company's portfolio figures for the home (balances by status and bucket, collections of the month, money en
 * tránsito), computed where they change in bulk: at each day close and each payment file applied or reverted.
 */
export const portfolioFigures = pgTable('portfolio_figures', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id),
  businessDate: date('business_date').notNull(),
  figures: jsonb('figures').$type<PortfolioFigures>().notNull(),
  computedAt: instant('computed_at').notNull(),
});
