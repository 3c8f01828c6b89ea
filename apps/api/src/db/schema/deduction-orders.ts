import { sql } from 'drizzle-orm';
import { date, foreignKey, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { DEDUCTION_MOVEMENTS, DEDUCTION_ORDER_STATUSES, DEDUCTION_REASON_CODES } from '@portal/contract';
import { agreements } from './agreements';
import { instant, money } from './columns';
import { credits } from './credits';
import { companyRef, userRef } from './users';

/**
 * Cédulas de descuento (DOMAIN.md "Deduction order"): per agreement and payday, what the employer is told to deduct.
 * A borrador is recomputed in place by each Generar; an emitted one is frozen, and the payday's expected deductions
 * are what it instructs. A substitution is a new row (supersedes_id) and the old one becomes sustituida.
 */
export const deductionOrders = pgTable(
  'deduction_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyRef(),
    agreementId: uuid('agreement_id')
      .notNull()
      .references(() => agreements.id),
    payday: date('payday').notNull(),
    cutOffDate: date('cut_off_date').notNull(),
    /** The fecha flujo whose portfolio the lines were computed from. */
    businessDate: date('business_date').notNull(),
    status: text('status', { enum: DEDUCTION_ORDER_STATUSES }).notNull().default('borrador'),
    /** The emitted cédula of an earlier payday the lines were compared with (null: the deductions of the previous payday). */
    baselineId: uuid('baseline_id'),
    supersedesId: uuid('supersedes_id'),
    altasCount: integer('altas_count').notNull().default(0),
    altasAmount: money('altas_amount').notNull().default('0'),
    bajasCount: integer('bajas_count').notNull().default(0),
    bajasAmount: money('bajas_amount').notNull().default('0'),
    cambiosCount: integer('cambios_count').notNull().default(0),
    cambiosAmount: money('cambios_amount').notNull().default('0'),
    continuingCount: integer('continuing_count').notNull().default(0),
    continuingAmount: money('continuing_amount').notNull().default('0'),
    generatedBy: userRef('generated_by'),
    generatedAt: instant('generated_at').notNull(),
    issuedBy: userRef('issued_by'),
    issuedAt: instant('issued_at'),
    sentOn: date('sent_on'),
    sentChannel: text('sent_channel'),
    sentNote: text('sent_note'),
    sentBy: userRef('sent_by'),
    sentAt: instant('sent_at'),
  },
  (table) => [
    index('deduction_orders_company_payday_idx').on(table.companyId, table.payday, table.agreementId),
    // One draft per agreement and payday (Generar again recomputes it), and one standing instruction (emitida or
    // enviada): the database refuses a second even if two clicks raced.
    uniqueIndex('deduction_orders_draft_key')
      .on(table.companyId, table.agreementId, table.payday)
      .where(sql`status = 'borrador'`),
    uniqueIndex('deduction_orders_standing_key')
      .on(table.companyId, table.agreementId, table.payday)
      .where(sql`status in ('emitida', 'enviada')`),
    foreignKey({ columns: [table.baselineId], foreignColumns: [table.id] }),
    foreignKey({ columns: [table.supersedesId], foreignColumns: [table.id] }),
  ],
);

/** One credit's instruction in a cédula; the employee's identity is kept as printed on it. */
export const deductionOrderLines = pgTable(
  'deduction_order_lines',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => deductionOrders.id),
    creditId: uuid('credit_id')
      .notNull()
      .references(() => credits.id),
    companyId: companyRef(),
    /** The line's place in the cédula (by employee number, then folio), as the download writes it. */
    line: integer('line').notNull(),
    creditNumber: integer('credit_number').notNull(),
    employeeNumber: text('employee_number').notNull(),
    curp: text('curp').notNull(),
    name: text('name').notNull(),
    movement: text('movement', { enum: DEDUCTION_MOVEMENTS }).notNull(),
    amountBefore: money('amount_before').notNull(),
    amountAfter: money('amount_after').notNull(),
    reason: text('reason', { enum: DEDUCTION_REASON_CODES }),
    /**
     * A renewal's cambio (agreements.renewal_as_change): the renewed credit this line's new credit replaces, which has
     * no line of its own in the cédula; amount_before is its installment. Its folio number is kept as printed.
     */
    replacesCreditId: uuid('replaces_credit_id').references(() => credits.id),
    replacesCreditNumber: integer('replaces_credit_number'),
  },
  (table) => [
    primaryKey({ columns: [table.orderId, table.creditId] }),
    uniqueIndex('deduction_order_lines_line_key').on(table.orderId, table.line),
    // A payment file's row naming the renewed credit finds the cambio that replaced it (payday-instruction.ts).
    index('deduction_order_lines_replaces_idx')
      .on(table.orderId, table.replacesCreditId)
      .where(sql`replaces_credit_id is not null`),
  ],
);
