import { sql } from 'drizzle-orm';
import { bigserial, date, index, integer, json, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { PAYMENT_FILE_STATUSES, PAYMENT_STATUSES, ROW_OUTCOMES, RUN_STATUSES } from '@portal/contract';
import { agreements } from './agreements';
import { bytea, instant, money } from './columns';
import { credits } from './credits';
import { companyRef, userRef } from './users';

/**
 * The employers' payment files (DOMAIN.md "Payment file"), every row with its outcome, and the payments they made.
 * A file is kept whole (its bytes, for the download) and so is every row: none disappears, whatever its outcome.
 */
export const paymentFiles = pgTable(
  'payment_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyRef(),
    agreementId: uuid('agreement_id')
      .notNull()
      .references(() => agreements.id),
    discountDate: date('discount_date').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    content: bytea('content').notNull(),
    /** How the text was read: utf-8, windows-1252 (files saved on Windows) or xlsx. */
    encoding: text('encoding').notNull(),
    /** The agreement's layout as it was when the file was read. */
    layout: jsonb('layout').notNull(),
    status: text('status', { enum: PAYMENT_FILE_STATUSES }).notNull().default('cargado'),
    /** Why it was rejected or reverted. */
    statusReason: text('status_reason'),
    rowsTotal: integer('rows_total').notNull().default(0),
    rowsValid: integer('rows_valid').notNull().default(0),
    rowsRejected: integer('rows_rejected').notNull().default(0),
    /** Accepted rows that pay their credit off and leave a saldo a favor (sobrepago). */
    rowsOverpaying: integer('rows_overpaying').notNull().default(0),
    /** Accepted rows for a deduction of the date another applied file of the agreement already received. */
    rowsPaidElsewhere: integer('rows_paid_elsewhere').notNull().default(0),
    amountTotal: money('amount_total').notNull().default('0'),
    amountValid: money('amount_valid').notNull().default('0'),
    amountRejected: money('amount_rejected').notNull().default('0'),
    amountApplied: money('amount_applied').notNull().default('0'),
    overpayment: money('overpayment').notNull().default('0'),
    expectedAmount: money('expected_amount').notNull().default('0'),
    expectedCount: integer('expected_count').notNull().default(0),
    missingCount: integer('missing_count').notNull().default(0),
    uploadedBy: userRef('uploaded_by'),
    uploadedAt: instant('uploaded_at').notNull().defaultNow(),
    appliedBy: userRef('applied_by'),
    appliedAt: instant('applied_at'),
    revertedBy: userRef('reverted_by'),
    revertedAt: instant('reverted_at'),
  },
  (table) => [
    index('payment_files_company_idx').on(table.companyId, table.uploadedAt),
    index('payment_files_agreement_idx').on(table.agreementId, table.discountDate),
    // The same file twice is refused while the first one counts; a rejected or reverted file may be loaded again.
    uniqueIndex('payment_files_live_sha_key')
      .on(table.companyId, table.sha256)
      .where(sql`status not in ('rechazado', 'revertido')`),
  ],
);

/** One row of a file as read, and what became of it. */
export const paymentFileRows = pgTable(
  'payment_file_rows',
  {
    fileId: uuid('file_id')
      .notNull()
      .references(() => paymentFiles.id),
    line: integer('line').notNull(),
    companyId: companyRef(),
    raw: text('raw').notNull(),
    creditRef: text('credit_ref'),
    employeeNumber: text('employee_number'),
    curpRfc: text('curp_rfc'),
    /** The amount as read (pesos), null when it could not be read. */
    amount: money('amount'),
    period: text('period'),
    reference: text('reference'),
    outcome: text('outcome', { enum: ROW_OUTCOMES }).notNull(),
    message: text('message'),
    creditId: uuid('credit_id').references(() => credits.id),
  },
  (table) => [primaryKey({ columns: [table.fileId, table.line] }), index('payment_file_rows_credit_idx').on(table.creditId)],
);

/**
 * "Aplicar": one background application of a file. Its progress lives here, not on the file, because the applying
 * transaction holds the file's row until it commits; a crashed application is seen as 'en curso' with no lock held.
 */
export const paymentApplications = pgTable(
  'payment_applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fileId: uuid('file_id')
      .notNull()
      .references(() => paymentFiles.id),
    companyId: companyRef(),
    status: text('status', { enum: RUN_STATUSES }).notNull().default('en espera'),
    rowsTotal: integer('rows_total').notNull(),
    rowsDone: integer('rows_done').notNull().default(0),
    /** How many times the work was started: more than one after a transient failure was retried (jobs/tracked-job.ts). */
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    jobId: text('job_id'),
    requestedBy: userRef('requested_by'),
    requestedAt: instant('requested_at').notNull().defaultNow(),
    finishedAt: instant('finished_at'),
  },
  (table) => [index('payment_applications_file_idx').on(table.fileId, table.requestedAt)],
);

/**
 * A payment received and where each peso went. `before` keeps exactly what the payment changed (the installments'
 * charges and paid amounts, the credit's installment and status, the deduction's state) so a revert restores it.
 * `sequence` orders a credit's payments: a payment is revertible while no later one on the same credit stands.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sequence: bigserial('sequence', { mode: 'number' }).notNull().unique(),
    companyId: companyRef(),
    creditId: uuid('credit_id')
      .notNull()
      .references(() => credits.id),
    fileId: uuid('file_id').references(() => paymentFiles.id),
    fileLine: integer('file_line'),
    valueDate: date('value_date').notNull(),
    amount: money('amount').notNull(),
    principal: money('principal').notNull(),
    interest: money('interest').notNull(),
    iva: money('iva').notNull(),
    moratoryInterest: money('moratory_interest').notNull(),
    moratoryIva: money('moratory_iva').notNull(),
    fees: money('fees').notNull(),
    feesIva: money('fees_iva').notNull(),
    overpayment: money('overpayment').notNull(),
    /**
     * The waterfall's lines ({installment, component, amount, step}) and the charges waived at a payoff; and what the
     * payment changed, which a revert puts back. Written and read whole, never queried inside: json, kept as the text
     * it arrives, where jsonb converts every document (about twice the insert's time; migration 0025, docs/measurements.md).
     */
    allocation: json('allocation').notNull(),
    before: json('before').notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('aplicado'),
    appliedBy: userRef('applied_by'),
    appliedAt: instant('applied_at').notNull().defaultNow(),
    revertedAt: instant('reverted_at'),
  },
  (table) => [
    index('payments_credit_idx').on(table.creditId, table.sequence),
    index('payments_file_idx').on(table.fileId, table.fileLine),
    index('payments_company_date_idx').on(table.companyId, table.valueDate),
    // The home's month of collections, summed from the index (modules/portfolio/portfolio-figures.ts).
    index('payments_applied_amount_idx')
      .on(table.companyId, table.valueDate, table.amount)
      .where(sql`status = 'aplicado'`),
  ],
);
