import { date, index, integer, jsonb, pgTable, real, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { LetterLayout, LetterPayoff, LetterTexts } from '@portal/contract';
import { bytea, instant, money } from './columns';
import { credits } from './credits';
import { companyRef, userRef } from './users';

/**
 * Settlement letters (issue 17): each brand's versioned templates (a PDF background and the layout that places each
 * field) and every letter issued, with what it printed, the amounts, the template version it used and its PDF.
 */
export const letterTemplates = pgTable(
  'letter_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyRef(),
    version: integer('version').notNull(),
    fileName: text('file_name').notNull(),
    /** The file as uploaded, kept as evidence (its size and SHA-256 below); letters are never drawn on it. */
    background: bytea('background').notNull(),
    /**
     * The background's first page alone, re-saved by pdf-lib in a worker under a time and size budget (issue 44): what
     * letters are drawn on, in milliseconds. Null for a template stored before it, until the start-up normalizes it.
     */
    canvas: bytea('canvas'),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    /** The background's first page, in PDF points: the layout is checked against it. */
    pageWidth: real('page_width').notNull(),
    pageHeight: real('page_height').notNull(),
    layout: jsonb('layout').$type<LetterLayout>().notNull(),
    uploadedBy: userRef('uploaded_by'),
    uploadedByEmail: text('uploaded_by_email'),
    uploadedAt: instant('uploaded_at').notNull(),
  },
  (table) => [uniqueIndex('letter_templates_company_version_key').on(table.companyId, table.version)],
);

export const settlementLetters = pgTable(
  'settlement_letters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyRef(),
    creditId: uuid('credit_id')
      .notNull()
      .references(() => credits.id),
    /** The letter's sequence for its credit (1, 2, …): part of the reference. */
    number: integer('number').notNull(),
    reference: text('reference').notNull(),
    templateId: uuid('template_id')
      .notNull()
      .references(() => letterTemplates.id),
    templateVersion: integer('template_version').notNull(),
    /** The brand as printed (the company's name when issued). */
    brand: text('brand').notNull(),
    quoteDate: date('quote_date').notNull(),
    validUntil: date('valid_until').notNull(),
    discountDate: date('discount_date'),
    creditAmount: money('credit_amount').notNull(),
    term: integer('term').notNull(),
    paymentsMade: integer('payments_made').notNull(),
    installment: money('installment').notNull(),
    inTransit: money('in_transit').notNull(),
    finalBalance: money('final_balance').notNull(),
    pendingDeduction: money('pending_deduction').notNull(),
    totalAmount: money('total_amount').notNull(),
    /** Every component of the payoff it was computed from. */
    payoff: jsonb('payoff').$type<LetterPayoff>().notNull(),
    /** Every field as printed on the PDF. */
    texts: jsonb('texts').$type<LetterTexts>().notNull(),
    pdf: bytea('pdf').notNull(),
    pdfSize: integer('pdf_size').notNull(),
    pdfSha256: text('pdf_sha256').notNull(),
    issuedBy: userRef('issued_by'),
    issuedByEmail: text('issued_by_email'),
    issuedAt: instant('issued_at').notNull(),
  },
  (table) => [
    uniqueIndex('settlement_letters_credit_number_key').on(table.creditId, table.number),
    uniqueIndex('settlement_letters_company_reference_key').on(table.companyId, table.reference),
    index('settlement_letters_credit_idx').on(table.companyId, table.creditId, table.issuedAt),
  ],
);
