import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, numeric, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { companyRef } from './users';

/** Convenios and their products. */

/** Convenios: the agreement with an employer (its frequency, cap, products and payment-file layout). */
export const agreements = pgTable(
  'agreements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyRef(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    employerName: text('employer_name').notNull(),
    employerRfc: text('employer_rfc').notNull(),
    sector: text('sector', { enum: ['federal', 'estatal', 'municipal', 'privado'] }).notNull(),
    frequency: text('frequency', { enum: ['semanal', 'catorcenal', 'quincenal', 'mensual'] }).notNull(),
    maxDeductionPct: numeric('max_deduction_pct', { precision: 7, scale: 4 }).notNull(),
    remittanceLagDays: integer('remittance_lag_days').notNull(),
    /** Payroll calendar (packages/lending PayrollCalendar): mensual pay day 1–31 (31 = last day of the month). */
    payDay: integer('pay_day'),
    /** Semanal / catorcenal payday, ISO weekday 1 (Monday) … 7 (Sunday). */
    paydayWeekday: integer('payday_weekday'),
    /** Days the employer needs between a disbursement and the payroll that first deducts it. */
    cutOffLeadDays: integer('cut_off_lead_days').notNull().default(0),
    /** The employer's non-working days (ISO dates, sorted): a payday on one is paid on the previous working day. */
    nonWorkingDays: jsonb('non_working_days')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /**
     * Renewals in the cédula (docs/domain.md "Cédulas de descuento"): false, the renewed credit's baja and the new
     * credit's alta; true, one cambio line per employee (the new credit in place of the renewed one).
     */
    renewalAsChange: boolean('renewal_as_change').notNull().default(false),
    validFrom: date('valid_from').notNull(),
    validTo: date('valid_to'),
    contacts: jsonb('contacts')
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** The payment-file layout, validated by packages/contract's layoutSchema. */
    layout: jsonb('layout').notNull(),
    active: boolean('active').notNull().default(true),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('agreements_code_key').on(sql`upper(${table.code})`),
    index('agreements_company_idx').on(table.companyId),
    index('agreements_name_trgm_idx').using('gin', sql`${table.name} gin_trgm_ops`),
  ],
);

/** Loan products of an agreement. A credit keeps a snapshot of its terms, so editing a product never rewrites one. */
export const agreementProducts = pgTable(
  'agreement_products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    agreementId: uuid('agreement_id')
      .notNull()
      .references(() => agreements.id),
    companyId: companyRef(),
    name: text('name').notNull(),
    annualRatePct: numeric('annual_rate_pct', { precision: 9, scale: 4 }).notNull(),
    ivaRatePct: numeric('iva_rate_pct', { precision: 7, scale: 4 }).notNull(),
    openingFeePct: numeric('opening_fee_pct', { precision: 7, scale: 4 }).notNull(),
    openingFeeFinanced: boolean('opening_fee_financed').notNull(),
    terms: integer('terms').array().notNull(),
    minAmount: numeric('min_amount', { precision: 14, scale: 2 }).notNull(),
    maxAmount: numeric('max_amount', { precision: 14, scale: 2 }).notNull(),
    maxAgeAtEnd: integer('max_age_at_end').notNull(),
    /** Annual moratory rate on overdue principal, by days (actual/360), plus IVA. */
    moratoryRatePct: numeric('moratory_rate_pct', { precision: 9, scale: 4 }).notNull().default('0'),
    /** Late-payment commission per overdue installment, before IVA. */
    lateFee: numeric('late_fee', { precision: 14, scale: 2 }).notNull().default('0'),
    /**
     * Renewal rule (docs/domain.md, "Renewals"): a credit is renewed into this product only with at least this many
     * installments paid and no more than this many days past due.
     */
    renewalMinPaid: integer('renewal_min_paid').notNull().default(3),
    renewalMaxDaysPastDue: integer('renewal_max_days_past_due').notNull().default(0),
    active: boolean('active').notNull().default(true),
    position: integer('position').notNull().default(0),
  },
  (table) => [index('agreement_products_agreement_idx').on(table.agreementId)],
);
