import { sql } from 'drizzle-orm';
import { bigserial, date, index, integer, jsonb, numeric, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { agreementProducts, agreements } from './agreements';
import { bytea, createdAt, instant, money, updatedAt } from './columns';
import { companyRef, userRef } from './users';
import { personSearchText, SEARCH_INDEX_STORAGE } from '../like';

/** Clients, pre-requests, requests and their documents. */

/**
 * A client's or a request's full name (their first_names, last_name_1 and last_name_2) as the searches read it
 * (db/like.ts, personSearchText), kept by the database: a search compares this text instead of computing it per row
 * (decisions 0036, 0038).
 */
const personSearchTextColumn = () =>
  text('search_text')
    .notNull()
    .generatedAlwaysAs(
      personSearchText({
        firstNames: sql`${sql.identifier('first_names')}`,
        lastName1: sql`${sql.identifier('last_name_1')}`,
        lastName2: sql`${sql.identifier('last_name_2')}`,
      }),
    );

/**
 * Acreditados: one row per CURP and company (each company keeps its own client data, isolated like the rest of its
 * portfolio); what a request adds (address, contact) comes with the request.
 */
export const clients = pgTable(
  'clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyRef(),
    curp: text('curp').notNull(),
    rfc: text('rfc'),
    firstNames: text('first_names').notNull(),
    lastName1: text('last_name_1').notNull(),
    lastName2: text('last_name_2'),
    birthDate: date('birth_date').notNull(),
    sex: text('sex', { enum: ['H', 'M'] }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    searchText: personSearchTextColumn(),
  },
  (table) => [
    uniqueIndex('clients_company_curp_key').on(table.companyId, table.curp),
    // Searches by CURP or RFC name one person: the SA searches every company, which the company-first keys cannot
    // serve (a scan of every client); a company's search filters the few it finds.
    index('clients_curp_idx').on(table.curp),
    index('clients_rfc_idx').on(table.rfc),
    // Search by any part of the full name, read without case or accents (db/like.ts, decision 0031), through trigrams.
    index('clients_search_trgm_idx')
      .using('gin', sql`${table.searchText} gin_trgm_ops`)
      .with(SEARCH_INDEX_STORAGE),
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
    companyId: companyRef(),
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
    reasons: jsonb('reasons')
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** The client's active credits it renews (renovación); converting it into a request carries them. */
    renews: uuid('renews')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    status: text('status', { enum: ['borrador', 'enviada', 'convertida', 'vencida'] })
      .notNull()
      .default('borrador'),
    /** When it was sent: a sent pre-request not converted within PRE_REQUEST_VALID_DAYS becomes vencida. */
    sentAt: instant('sent_at'),
    createdBy: userRef('created_by'),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('pre_requests_client_idx').on(table.clientId),
    index('pre_requests_company_idx').on(table.companyId, table.createdAt),
    index('pre_requests_created_by_idx').on(table.createdBy, table.createdAt),
    index('pre_requests_sent_idx')
      .on(table.sentAt)
      .where(sql`status = 'enviada'`),
  ],
);

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
    companyId: companyRef(),
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
    /** The client's active credits this request renews (renovación): the new credit pays each off at disbursement. */
    renews: uuid('renews')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    status: text('status', { enum: ['capturada', 'en validación', 'aprobada', 'rechazada', 'dispersada', 'cancelada'] })
      .notNull()
      .default('capturada'),
    rejectionReason: text('rejection_reason'),
    cancellationReason: text('cancellation_reason'),
    decidedBy: userRef('decided_by'),
    decidedAt: instant('decided_at'),
    createdBy: userRef('created_by'),
    /**
     * Everyone who captured the request or changed its capture (its data or its documents), the capturer first: none
     * of them may approve, reject or disburse it — the two-person rule binds whoever touched what the checker checks.
     */
    capturedBy: uuid('captured_by')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    searchText: personSearchTextColumn(),
  },
  (table) => [
    index('requests_status_idx').on(table.status, table.createdAt),
    // The list's default order (newest first) with its tie-breaker, the folio: requests loaded together (an import,
    // a migrated portfolio) share their creation time, and a page then sorted every request of that instant.
    index('requests_created_idx').on(table.createdAt, table.number),
    index('requests_agreement_idx').on(table.agreementId, table.createdAt),
    index('requests_client_idx').on(table.clientId),
    index('requests_company_idx').on(table.companyId, table.createdAt, table.number),
    // Capturas' search by any part of the applicant's name, read without case or accents (decision 0031).
    index('requests_search_trgm_idx')
      .using('gin', sql`${table.searchText} gin_trgm_ops`)
      .with(SEARCH_INDEX_STORAGE),
  ],
);

/** INE, comprobante de domicilio, recibo de nómina: one current file per kind; replacing one is audited. */
export const requestDocuments = pgTable(
  'request_documents',
  {
    requestId: uuid('request_id')
      .notNull()
      .references(() => requests.id),
    companyId: companyRef(),
    kind: text('kind', { enum: ['ine', 'comprobante', 'recibo'] }).notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    content: bytea('content').notNull(),
    uploadedBy: userRef('uploaded_by'),
    uploadedAt: instant('uploaded_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.requestId, table.kind] })],
);
