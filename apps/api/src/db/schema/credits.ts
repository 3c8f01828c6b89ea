import { bigserial, boolean, date, index, integer, numeric, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { agreementProducts, agreements } from './agreements';
import { createdAt, money } from './columns';
import { clients, requests } from './origination';
import { companies, users } from './users';

/** Credits, their schedules and expected payroll deductions. */

/** A disbursed loan. Its product terms are a snapshot: editing the product never rewrites a credit. */
export const credits = pgTable(
  'credits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: bigserial('number', { mode: 'number' }).notNull().unique(),
    /** Unique: a request disburses once, whatever the clicks or tabs. */
    requestId: uuid('request_id')
      .notNull()
      .unique()
      .references(() => requests.id),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
    agreementId: uuid('agreement_id')
      .notNull()
      .references(() => agreements.id),
    productId: uuid('product_id')
      .notNull()
      .references(() => agreementProducts.id),
    employeeNumber: text('employee_number').notNull(),
    productName: text('product_name').notNull(),
    annualRatePct: numeric('annual_rate_pct', { precision: 9, scale: 4 }).notNull(),
    ivaRatePct: numeric('iva_rate_pct', { precision: 7, scale: 4 }).notNull(),
    openingFeePct: numeric('opening_fee_pct', { precision: 7, scale: 4 }).notNull(),
    openingFeeFinanced: boolean('opening_fee_financed').notNull(),
    frequency: text('frequency', { enum: ['semanal', 'catorcenal', 'quincenal', 'mensual'] }).notNull(),
    term: integer('term').notNull(),
    amount: money('amount').notNull(),
    openingFee: money('opening_fee').notNull(),
    openingFeeIva: money('opening_fee_iva').notNull().default('0'),
    principal: money('principal').notNull(),
    netDisbursed: money('net_disbursed').notNull(),
    installment: money('installment').notNull(),
    cat: text('cat').notNull(),
    clabe: text('clabe').notNull(),
    disbursementDate: date('disbursement_date').notNull(),
    firstDueDate: date('first_due_date').notNull(),
    lastDueDate: date('last_due_date').notNull(),
    status: text('status', { enum: ['vigente', 'vencido', 'liquidado'] }).notNull().default('vigente'),
    daysPastDue: integer('days_past_due').notNull().default(0),
    disbursedBy: uuid('disbursed_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (table) => [
    index('credits_client_idx').on(table.clientId),
    index('credits_agreement_idx').on(table.agreementId, table.employeeNumber),
    index('credits_company_idx').on(table.companyId, table.status),
  ],
);

/** The schedule: one row per installment (buildSchedule), with what has been paid of each component. */
export const installments = pgTable(
  'installments',
  {
    creditId: uuid('credit_id')
      .notNull()
      .references(() => credits.id),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
    number: integer('number').notNull(),
    dueDate: date('due_date').notNull(),
    principal: money('principal').notNull(),
    interest: money('interest').notNull(),
    iva: money('iva').notNull(),
    payment: money('payment').notNull(),
    balance: money('balance').notNull(),
    paidPrincipal: money('paid_principal').notNull().default('0'),
    paidInterest: money('paid_interest').notNull().default('0'),
    paidIva: money('paid_iva').notNull().default('0'),
    status: text('status', { enum: ['pendiente', 'vencida', 'pagada'] }).notNull().default('pendiente'),
  },
  (table) => [primaryKey({ columns: [table.creditId, table.number] }), index('installments_due_idx').on(table.dueDate)],
);

/** One payroll deduction expected per installment and discount date: where tránsito will live. */
export const expectedDeductions = pgTable(
  'expected_deductions',
  {
    creditId: uuid('credit_id')
      .notNull()
      .references(() => credits.id),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
    period: integer('period').notNull(),
    discountDate: date('discount_date').notNull(),
    amount: money('amount').notNull(),
    state: text('state', { enum: ['esperado', 'en tránsito', 'recibido', 'no aplicado'] }).notNull().default('esperado'),
  },
  (table) => [primaryKey({ columns: [table.creditId, table.period] }), index('expected_deductions_date_idx').on(table.discountDate, table.state)],
);
