import { sql } from 'drizzle-orm';
import { bigserial, date, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  PAYMENT_BATCH_STATUSES,
  PAYMENT_LINE_RESULTS,
  PAYMENT_ORDER_KINDS,
  PAYMENT_ORDER_STATUSES,
  REFUND_CLABE_SOURCES,
  REFUND_STATUSES,
} from '@portal/contract';
import { instant, money } from './columns';
import { credits } from './credits';
import { companyRef, userRef } from './users';

/**
 * Tesorería (issue 47): money leaving the company by transfer. A payment order is one transfer to make (a credit's
 * disbursement, a refund); a batch groups the pending ones into one bank file; a batch line is one attempt to pay an
 * order (a rejected one sends the order back to por enviar, and the next batch makes a new attempt).
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: bigserial('number', { mode: 'number' }).notNull().unique(),
    companyId: companyRef(),
    creditId: uuid('credit_id')
      .notNull()
      .references(() => credits.id),
    amount: money('amount').notNull(),
    clabe: text('clabe').notNull(),
    clabeSource: text('clabe_source', { enum: REFUND_CLABE_SOURCES }).notNull(),
    evidence: text('evidence'),
    status: text('status', { enum: REFUND_STATUSES }).notNull().default('solicitada'),
    declineReason: text('decline_reason'),
    requestedBy: userRef('requested_by'),
    requestedAt: instant('requested_at').notNull(),
    decidedBy: userRef('decided_by'),
    decidedAt: instant('decided_at'),
  },
  (table) => [index('refunds_company_credit_idx').on(table.companyId, table.creditId)],
);

export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: bigserial('number', { mode: 'number' }).notNull().unique(),
    companyId: companyRef(),
    kind: text('kind', { enum: PAYMENT_ORDER_KINDS }).notNull(),
    status: text('status', { enum: PAYMENT_ORDER_STATUSES }).notNull().default('por enviar'),
    creditId: uuid('credit_id')
      .notNull()
      .references(() => credits.id),
    refundId: uuid('refund_id').references(() => refunds.id),
    beneficiary: text('beneficiary').notNull(),
    /** RFC or CURP of the beneficiary when known (the file carries it). */
    beneficiaryId: text('beneficiary_id'),
    clabe: text('clabe').notNull(),
    amount: money('amount').notNull(),
    concept: text('concept').notNull(),
    reference: text('reference').notNull(),
    /** The batch the order is in now (en lote, enviada, liquidada); null while por enviar. */
    batchId: uuid('batch_id'),
    lastRejectionReason: text('last_rejection_reason'),
    rejections: integer('rejections').notNull().default(0),
    settledOn: date('settled_on'),
    createdBy: userRef('created_by'),
    createdAt: instant('created_at').notNull(),
  },
  (table) => [
    index('payment_orders_company_status_idx').on(table.companyId, table.status, table.number),
    // A credit is disbursed once: one disbursement order per credit; a refund has one order.
    uniqueIndex('payment_orders_disbursement_key')
      .on(table.creditId)
      .where(sql`kind = 'dispersión'`),
    uniqueIndex('payment_orders_refund_key').on(table.refundId),
  ],
);

export const paymentBatches = pgTable(
  'payment_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: bigserial('number', { mode: 'number' }).notNull().unique(),
    companyId: companyRef(),
    status: text('status', { enum: PAYMENT_BATCH_STATUSES }).notNull().default('por autorizar'),
    sourceAccount: text('source_account').notNull(),
    orderCount: integer('order_count').notNull(),
    total: money('total').notNull(),
    generatedBy: userRef('generated_by'),
    generatedAt: instant('generated_at').notNull(),
    authorizedBy: userRef('authorized_by'),
    authorizedAt: instant('authorized_at'),
  },
  (table) => [index('payment_batches_company_idx').on(table.companyId, table.number)],
);

export const paymentBatchLines = pgTable(
  'payment_batch_lines',
  {
    batchId: uuid('batch_id')
      .notNull()
      .references(() => paymentBatches.id),
    orderId: uuid('order_id')
      .notNull()
      .references(() => paymentOrders.id),
    companyId: companyRef(),
    line: integer('line').notNull(),
    trackingKey: text('tracking_key').notNull(),
    beneficiary: text('beneficiary').notNull(),
    beneficiaryId: text('beneficiary_id'),
    clabe: text('clabe').notNull(),
    amount: money('amount').notNull(),
    concept: text('concept').notNull(),
    reference: text('reference').notNull(),
    result: text('result', { enum: PAYMENT_LINE_RESULTS }).notNull().default('pendiente'),
    reason: text('reason'),
    settledOn: date('settled_on'),
    resolvedBy: userRef('resolved_by'),
    resolvedAt: instant('resolved_at'),
  },
  (table) => [
    primaryKey({ columns: [table.batchId, table.orderId] }),
    uniqueIndex('payment_batch_lines_line_key').on(table.batchId, table.line),
    uniqueIndex('payment_batch_lines_tracking_key').on(table.trackingKey),
    // An order is in one open attempt at most: two batches generated at once cannot both hold it.
    uniqueIndex('payment_batch_lines_open_key')
      .on(table.orderId)
      .where(sql`result = 'pendiente'`),
  ],
);
