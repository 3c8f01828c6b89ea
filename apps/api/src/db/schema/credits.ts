import { sql } from 'drizzle-orm';
import { bigserial, boolean, date, index, integer, numeric, pgTable, primaryKey, text, type AnyPgColumn, uuid } from 'drizzle-orm/pg-core';
import { agreementProducts, agreements } from './agreements';
import { createdAt, money } from './columns';
import { clients, requests } from './origination';
import { companyRef, userRef } from './users';

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
    companyId: companyRef(),
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
    /** Late charges as the contract set them (the product's at disbursement): annual moratory rate, actual/360, and the late fee, each plus IVA. */
    moratoryRatePct: numeric('moratory_rate_pct', { precision: 9, scale: 4 }).notNull().default('0'),
    lateFee: money('late_fee').notNull().default('0'),
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
    status: text('status', { enum: ['vigente', 'vencido', 'liquidado'] })
      .notNull()
      .default('vigente'),
    /** Days past due and aging bucket at the company's business date, as the last day close left them. */
    daysPastDue: integer('days_past_due').notNull().default(0),
    agingBucket: text('aging_bucket', { enum: ['current', '1-30', '31-60', '61-89', '90+'] })
      .notNull()
      .default('current'),
    /** Etiquetas (Jubilado, Defunción…): filled in by the labels feature; kept here so the list filters by them. */
    labels: text('labels')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Everything still owed, what of it is already due, and the next discount date: kept by the day close (and by
     * whatever changes the schedule) so the list sorts and totals on columns instead of summing schedules. */
    outstandingBalance: money('outstanding_balance').notNull().default('0'),
    overdueBalance: money('overdue_balance').notNull().default('0'),
    nextDiscountDate: date('next_discount_date'),
    /** Saldo a favor: sobrepagos received beyond what paid the credit off, kept and reported (never swallowed). */
    creditBalance: money('credit_balance').notNull().default('0'),
    disbursedBy: userRef('disbursed_by'),
    /**
     * Why a credit was liquidated, where something other than its payments did it: 'renovacion' (a renewal paid it
     * off). A liquidado credit without one was paid off by its payments (the list's `pago`).
     */
    liquidationReason: text('liquidation_reason', { enum: ['renovacion'] }),
    /** The credit whose disbursement renewed (paid off) this one. */
    renewedByCreditId: uuid('renewed_by_credit_id').references((): AnyPgColumn => credits.id),
    createdAt: createdAt(),
  },
  (table) => [
    index('credits_client_idx').on(table.clientId),
    index('credits_agreement_idx').on(table.agreementId, table.employeeNumber),
    // The totals bar (count, balance, overdue balance) of a status or a bucket, or of the whole portfolio: read from
    // the index alone, without visiting the credits (an index-only scan, once autovacuum has passed after a close).
    index('credits_company_totals_idx').on(
      table.companyId,
      table.status,
      table.agingBucket,
      table.outstandingBalance,
      table.overdueBalance,
    ),
    // The credits list: each sort order with the folio as tie-breaker, within the company (row-level security).
    index('credits_company_number_idx').on(table.companyId, table.number),
    index('credits_company_bucket_idx').on(table.companyId, table.agingBucket, table.number),
    index('credits_company_dpd_idx').on(table.companyId, table.daysPastDue, table.number),
    // A bucket's page sorted by days past due (the collectors' usual view) reads the index in order instead of sorting.
    index('credits_company_bucket_dpd_idx').on(table.companyId, table.agingBucket, table.daysPastDue, table.number),
    index('credits_company_disbursement_idx').on(table.companyId, table.disbursementDate, table.number),
    index('credits_company_balance_idx').on(table.companyId, table.outstandingBalance, table.number),
    // A search by employee number (alone or beside a folio): without the company first, so the SA's search, across
    // companies, finds it by the index too; a company's search filters the one or two it finds.
    index('credits_employee_idx').on(table.employeeNumber),
    index('credits_labels_idx').using('gin', table.labels),
    // The credits a renewal paid off, and the one that renewed them (the credit view's "renueva a").
    index('credits_company_liquidation_idx')
      .on(table.companyId, table.liquidationReason, table.number)
      .where(sql`liquidation_reason is not null`),
    index('credits_renewed_by_idx')
      .on(table.renewedByCreditId)
      .where(sql`renewed_by_credit_id is not null`),
  ],
);

/** The schedule: one row per installment (buildSchedule), with what has been paid of each component. */
export const installments = pgTable(
  'installments',
  {
    creditId: uuid('credit_id')
      .notNull()
      .references(() => credits.id),
    companyId: companyRef(),
    number: integer('number').notNull(),
    dueDate: date('due_date').notNull(),
    principal: money('principal').notNull(),
    interest: money('interest').notNull(),
    iva: money('iva').notNull(),
    payment: money('payment').notNull(),
    balance: money('balance').notNull(),
    /** Set on a row whose interest is charged by days (an irregular first period): its length; allocation prorates by it. */
    days: integer('days'),
    paidPrincipal: money('paid_principal').notNull().default('0'),
    paidInterest: money('paid_interest').notNull().default('0'),
    paidIva: money('paid_iva').notNull().default('0'),
    /** Late charges the day close accrues (packages/lending accrueLateCharges): moratory interest by days and the late fee, each with IVA. */
    moratoryInterest: money('moratory_interest').notNull().default('0'),
    moratoryIva: money('moratory_iva').notNull().default('0'),
    fees: money('fees').notNull().default('0'),
    feesIva: money('fees_iva').notNull().default('0'),
    paidMoratoryInterest: money('paid_moratory_interest').notNull().default('0'),
    paidMoratoryIva: money('paid_moratory_iva').notNull().default('0'),
    paidFees: money('paid_fees').notNull().default('0'),
    paidFeesIva: money('paid_fees_iva').notNull().default('0'),
    /** Still owed on the row, every component: kept by the database so the day close reads only rows with money owed. */
    outstanding: numeric('outstanding', { precision: 14, scale: 2 })
      .notNull()
      .generatedAlwaysAs(
        sql`principal + interest + iva + moratory_interest + moratory_iva + fees + fees_iva - paid_principal - paid_interest - paid_iva - paid_moratory_interest - paid_moratory_iva - paid_fees - paid_fees_iva`,
      ),
    /**
     * Late charges run on this row from this day on (null: they do not run): moratory interest for each day from it
     * through the last closed day, at the credit's rate on the principal the row still owes, is owed on top of
     * `moratory_interest` and `moratory_iva`, which hold what accrued before it (modules/portfolio/late-charges.ts). A close writes it once,
     * when the row falls late and is not held; a payment or a revert writes what ran into the amounts and moves it on.
     */
    accruesFrom: date('accrues_from'),
    /**
     * Set on the current row once a prepayment split its period (packages/lending `accrual`): Σ saldo insoluto (centavos)
     * × days of the stretches before `accrual_through`, the last prepayment's value date. The period's interest is that
     * plus the rest of the period on the saldo left, times the daily rate, rounded once (docs/domain.md, "Payments").
     */
    accrualThrough: date('accrual_through'),
    accrualCentDays: numeric('accrual_cent_days', { precision: 30, scale: 0 }),
  },
  (table) => [
    primaryKey({ columns: [table.creditId, table.number] }),
    // The rows falling due or late on a day. No index may involve the amounts a payment changes: they are updated in
    // place (HOT, no index entries to add).
    index('installments_company_due_idx').on(table.companyId, table.dueDate),
  ],
);

/** One payroll deduction expected per installment and discount date: where tránsito will live. */
export const expectedDeductions = pgTable(
  'expected_deductions',
  {
    creditId: uuid('credit_id')
      .notNull()
      .references(() => credits.id),
    companyId: companyRef(),
    period: integer('period').notNull(),
    discountDate: date('discount_date').notNull(),
    amount: money('amount').notNull(),
    state: text('state', { enum: ['esperado', 'en tránsito', 'recibido', 'no aplicado', 'cancelado'] })
      .notNull()
      .default('esperado'),
    /**
     * Still to be settled (esperado or en tránsito), kept by the database: what the indexes know of the state. The
     * state itself is in no index, so a payday's 600,000 moves from esperado to en tránsito are updates in place (HOT,
     * no index entries; the table keeps room on its pages for them: migration 0026's fill factor); only a deduction
     * settled (recibido, no aplicado) or reopened by a revert changes this column and its index entries.
     */
    open: boolean('open')
      .notNull()
      .generatedAlwaysAs(sql`state in ('esperado', 'en tránsito')`),
  },
  (table) => [
    primaryKey({ columns: [table.creditId, table.period] }),
    // A company's deductions of a date, read from the index alone: a payment file's expected ones with their credit,
    // the home's month of amounts.
    index('expected_deductions_company_date_idx').on(table.companyId, table.discountDate, table.creditId, table.amount),
    // The open ones by date: a close's (esperado due by D, en tránsito past the lag: the open ones dated by D, one
    // range), the home's money en tránsito. The settled past of the portfolio is not in it.
    index('expected_deductions_open_idx')
      .on(table.companyId, table.discountDate)
      .where(sql`open`),
  ],
);
