import { sql } from 'drizzle-orm';
import {
  bigserial,
  customType,
  boolean,
  date,
  numeric,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** The lending company (brand). Portfolio data belongs to one; role SA users see all. */
export const companies = pgTable('companies', {
  id: uuid('id').primaryKey().defaultRandom(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  legalName: text('legal_name').notNull(),
  rfc: text('rfc').notNull(),
  /** Maker-checker on money leaving: who disburses may be neither the capturer nor the approver (on unless turned off). */
  separateDisbursement: boolean('separate_disbursement').notNull().default(true),
  createdAt: createdAt(),
});

/** A profile grants a role code and a list of permission paths (screen paths and action paths). */
export const profiles = pgTable('profiles', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  roleCode: text('role_code').notNull(),
  permissions: text('permissions').array().notNull().default(sql`'{}'::text[]`),
  version: integer('version').notNull().default(1),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Staff users. The embedded identity provider signs them in with `password_hash` (scrypt); with an external
 * provider the hash stays empty and the e-mail in the access token finds the row.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name'),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
    active: boolean('active').notNull().default(true),
    passwordHash: text('password_hash'),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${table.email})`),
    index('users_profile_idx').on(table.profileId),
    index('users_company_idx').on(table.companyId),
    // The list's sort orders, each with the id tie-breaker, so a page is an index range, not a sort of the table.
    index('users_email_sort_idx').on(table.email, table.id),
    index('users_name_sort_idx').on(table.name, table.id),
    index('users_last_sign_in_sort_idx').on(table.lastSignInAt, table.id),
    index('users_profile_email_idx').on(table.profileId, table.email),
    // Search by any part of the e-mail or the name (ILIKE '%…%') through trigrams (pg_trgm).
    index('users_email_trgm_idx').using('gin', sql`${table.email} gin_trgm_ops`),
    index('users_name_trgm_idx').using('gin', sql`${table.name} gin_trgm_ops`),
  ],
);

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

/** One-time links: only the SHA-256 of the token is kept, so a database read does not leak a usable link. */
export const passwordTokens = pgTable('password_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id),
  tokenHash: text('token_hash').notNull().unique(),
  purpose: text('purpose', { enum: ['reset', 'invite'] }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** oidc-provider's models (sessions, grants, codes, refresh tokens...) so a restart signs nobody out. */
export const oidcModels = pgTable(
  'oidc_models',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.model, table.id] }),
    index('oidc_models_grant_idx').on(table.grantId),
    index('oidc_models_uid_idx').on(table.uid),
  ],
);

/** Generated secrets kept across restarts (the provider's signing keys and cookie keys). */
export const appSecrets = pgTable('app_secrets', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: createdAt(),
});

/**
 * Fixed-window request counters (sign-in and forgot-password, per account and per address), kept in the database so
 * that every API process behind a load balancer counts against the same limit. One row per key; a new window
 * restarts its count. Rows of windows long gone are pruned by the code that counts.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
  },
  (table) => [index('rate_limits_window_idx').on(table.windowStart)],
);

/** Convenios: the agreement with an employer (its frequency, cap, products and payment-file layout). */
export const agreements = pgTable(
  'agreements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
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
    nonWorkingDays: jsonb('non_working_days').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    validFrom: date('valid_from').notNull(),
    validTo: date('valid_to'),
    contacts: jsonb('contacts').notNull().default(sql`'[]'::jsonb`),
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
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
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
    active: boolean('active').notNull().default(true),
    position: integer('position').notNull().default(0),
  },
  (table) => [index('agreement_products_agreement_idx').on(table.agreementId)],
);

/**
 * Acreditados: one row per CURP and company (each company keeps its own client data, isolated like the rest of its
 * portfolio); what a request adds (address, contact) comes with the request.
 */
export const clients = pgTable(
  'clients',
  {
  id: uuid('id').primaryKey().defaultRandom(),
  companyId: uuid('company_id')
    .notNull()
    .references(() => companies.id),
  curp: text('curp').notNull(),
  rfc: text('rfc'),
  firstNames: text('first_names').notNull(),
  lastName1: text('last_name_1').notNull(),
  lastName2: text('last_name_2'),
  birthDate: date('birth_date').notNull(),
  sex: text('sex', { enum: ['H', 'M'] }).notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('clients_company_curp_key').on(table.companyId, table.curp),
    index('clients_company_rfc_idx').on(table.companyId, table.rfc),
    // Search by any part of the full name (ILIKE '%…%') through trigrams.
    index('clients_name_trgm_idx').using('gin', sql`(${table.firstNames} || ' ' || ${table.lastName1} || ' ' || coalesce(${table.lastName2}, '')) gin_trgm_ops`),
  ],
);

/** Pre-solicitudes: a quote with its verdict, computed by packages/lending and kept as it was shown. */
export const preRequests = pgTable(
  'pre_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: bigserial('number', { mode: 'number' }).notNull().unique(),
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
    netSalary: numeric('net_salary', { precision: 14, scale: 2 }).notNull(),
    otherDeductions: numeric('other_deductions', { precision: 14, scale: 2 }).notNull(),
    amount: numeric('amount', { precision: 14, scale: 2 }).notNull(),
    term: integer('term').notNull(),
    capacity: numeric('capacity', { precision: 14, scale: 2 }).notNull(),
    installment: numeric('installment', { precision: 14, scale: 2 }).notNull(),
    cat: text('cat').notNull(),
    result: text('result', { enum: ['pre-aprobada', 'rechazada'] }).notNull(),
    reasons: jsonb('reasons').notNull().default(sql`'[]'::jsonb`),
    status: text('status', { enum: ['borrador', 'enviada', 'convertida', 'vencida'] }).notNull().default('borrador'),
    /** When it was sent: a sent pre-request not converted within PRE_REQUEST_VALID_DAYS becomes vencida. */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('pre_requests_client_idx').on(table.clientId),
    index('pre_requests_company_idx').on(table.companyId, table.createdAt),
    index('pre_requests_created_by_idx').on(table.createdBy, table.createdAt),
    index('pre_requests_sent_idx').on(table.sentAt).where(sql`status = 'enviada'`),
  ],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const money = (name: string) => numeric(name, { precision: 14, scale: 2 });

/** Solicitudes: the full application. Client, address and contact data are kept as captured; the status machine is in packages/contract. */
export const requests = pgTable(
  'requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: bigserial('number', { mode: 'number' }).notNull().unique(),
    /** The sent pre-request it converted, if any: one request per pre-request. */
    preRequestId: uuid('pre_request_id')
      .unique()
      .references(() => preRequests.id),
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
    rfc: text('rfc'),
    firstNames: text('first_names').notNull(),
    lastName1: text('last_name_1').notNull(),
    lastName2: text('last_name_2'),
    employeeNumber: text('employee_number').notNull(),
    netSalary: money('net_salary').notNull(),
    otherDeductions: money('other_deductions').notNull(),
    amount: money('amount').notNull(),
    term: integer('term').notNull(),
    street: text('street').notNull(),
    exteriorNumber: text('exterior_number').notNull(),
    interiorNumber: text('interior_number').notNull().default(''),
    neighborhood: text('neighborhood').notNull(),
    municipality: text('municipality').notNull(),
    state: text('state').notNull(),
    postalCode: text('postal_code').notNull(),
    phone: text('phone').notNull(),
    email: text('email').notNull(),
    references: jsonb('references').notNull(),
    clabe: text('clabe').notNull(),
    /** The verdict and schedule as shown when captured (packages/lending), kept as they were. */
    simulation: jsonb('simulation').notNull(),
    installment: money('installment').notNull(),
    /** The terms the client accepted, frozen at approval; disbursement prices the credit with these (AcceptedTerms). */
    acceptedTerms: jsonb('accepted_terms'),
    status: text('status', { enum: ['capturada', 'en validación', 'aprobada', 'rechazada', 'dispersada', 'cancelada'] })
      .notNull()
      .default('capturada'),
    rejectionReason: text('rejection_reason'),
    cancellationReason: text('cancellation_reason'),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('requests_status_idx').on(table.status, table.createdAt),
    index('requests_created_idx').on(table.createdAt),
    index('requests_agreement_idx').on(table.agreementId, table.createdAt),
    index('requests_client_idx').on(table.clientId),
    index('requests_company_idx').on(table.companyId, table.createdAt),
  ],
);

/** INE, comprobante de domicilio, recibo de nómina: one current file per kind; replacing one is audited. */
export const requestDocuments = pgTable(
  'request_documents',
  {
    requestId: uuid('request_id')
      .notNull()
      .references(() => requests.id),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
    kind: text('kind', { enum: ['ine', 'comprobante', 'recibo'] }).notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    content: bytea('content').notNull(),
    uploadedBy: uuid('uploaded_by').references(() => users.id),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.requestId, table.kind] })],
);

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
    /** Days past due and aging bucket at the company's business date, as the last day close left them. */
    daysPastDue: integer('days_past_due').notNull().default(0),
    agingBucket: text('aging_bucket', { enum: ['current', '1-30', '31-60', '61-89', '90+'] }).notNull().default('current'),
    /** Etiquetas (Jubilado, Defunción…): filled in by the labels feature; kept here so the list filters by them. */
    labels: text('labels').array().notNull().default(sql`'{}'::text[]`),
    /** Everything still owed, what of it is already due, and the next discount date: kept by the day close (and by
     * whatever changes the schedule) so the list sorts and totals on columns instead of summing schedules. */
    outstandingBalance: money('outstanding_balance').notNull().default('0'),
    overdueBalance: money('overdue_balance').notNull().default('0'),
    nextDiscountDate: date('next_discount_date'),
    disbursedBy: uuid('disbursed_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (table) => [
    index('credits_client_idx').on(table.clientId),
    index('credits_agreement_idx').on(table.agreementId, table.employeeNumber),
    index('credits_company_idx').on(table.companyId, table.status),
    // The credits list: each sort order with the folio as tie-breaker, within the company (row-level security).
    index('credits_company_number_idx').on(table.companyId, table.number),
    index('credits_company_bucket_idx').on(table.companyId, table.agingBucket, table.number),
    index('credits_company_dpd_idx').on(table.companyId, table.daysPastDue, table.number),
    index('credits_company_disbursement_idx').on(table.companyId, table.disbursementDate, table.number),
    index('credits_company_balance_idx').on(table.companyId, table.outstandingBalance, table.number),
    index('credits_company_employee_idx').on(table.companyId, table.employeeNumber),
    index('credits_labels_idx').using('gin', table.labels),
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
    status: text('status', { enum: ['pendiente', 'vencida', 'pagada'] }).notNull().default('pendiente'),
  },
  (table) => [
    primaryKey({ columns: [table.creditId, table.number] }),
    index('installments_due_idx').on(table.dueDate),
    // The day close's reads: rows still owed per credit (days past due, accrual) and rows falling due.
    index('installments_owed_idx').on(table.companyId, table.creditId, table.dueDate).where(sql`outstanding > 0`),
    index('installments_pending_due_idx').on(table.companyId, table.dueDate).where(sql`status = 'pendiente'`),
  ],
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
  (table) => [
    primaryKey({ columns: [table.creditId, table.period] }),
    index('expected_deductions_date_idx').on(table.discountDate, table.state),
    // The day close moves only deductions not yet settled: esperado and en tránsito, by discount date.
    index('expected_deductions_open_idx').on(table.companyId, table.discountDate).where(sql`state in ('esperado', 'en tránsito')`),
  ],
);

export * from './schema/portfolio';
