import { LAST_DAY_OF_MONTH, firstPayday, quoteLoan, type Frequency, type PayrollCalendar } from '@portal/lending';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { insertAsJson } from '../../db/insert-json';
import { credits, expectedDeductions, installments } from '../../db/schema/credits';
import { loanPricing } from '../shared/products';
import { builtRowColumns } from './schedule-rows';

/** A product's pricing and late-charge terms, as the client accepts them. */
export interface ProductTerms {
  name: string;
  annualRatePct: string;
  ivaRatePct: string;
  openingFeePct: string;
  openingFeeFinanced: boolean;
  moratoryRatePct: string;
  lateFee: string;
}

export interface DisbursementTerms {
  requestId: string;
  clientId: string;
  companyId: string;
  agreementId: string;
  productId: string;
  employeeNumber: string;
  amount: string;
  term: number;
  clabe: string;
  frequency: Frequency;
  /** The agreement's payroll calendar: the first discount is derived from it and the disbursement date. */
  calendar: PayrollCalendar;
  /** The terms the client accepted (the request's snapshot at approval), never the product as edited since. */
  product: ProductTerms;
  disbursementDate: string;
  disbursedBy: string | null;
  createdAt: Date;
}

export type CreditRows = {
  credit: typeof credits.$inferInsert & { id: string };
  installments: (typeof installments.$inferInsert)[];
  deductions: (typeof expectedDeductions.$inferInsert)[];
};

/** The terms a client accepted, frozen on the request at approval (docs/domain.md, "Origination"); disbursement prices with these. */
export interface AcceptedTerms {
  productName: string;
  annualRatePct: string;
  ivaRatePct: string;
  openingFeePct: string;
  openingFeeFinanced: boolean;
  /** Late charges, part of the contract too. Absent from snapshots taken before they were kept (the product's then). */
  moratoryRatePct?: string;
  lateFee?: string;
  maxAgeAtEnd: number;
  term: number;
  installment: string;
  openingFee: string;
  openingFeeIva: string;
  firstDueDate: string;
}

/** The snapshot taken at approval from the product as it is then and the verdict the approver saw. */
export function acceptedTermsFor(
  product: ProductTerms & { maxAgeAtEnd: number },
  verdict: { installment: string; openingFee: string; openingFeeIva?: string | undefined; firstDueDate: string },
  term: number,
): AcceptedTerms {
  return {
    productName: product.name,
    annualRatePct: product.annualRatePct,
    ivaRatePct: product.ivaRatePct,
    openingFeePct: product.openingFeePct,
    openingFeeFinanced: product.openingFeeFinanced,
    moratoryRatePct: product.moratoryRatePct,
    lateFee: product.lateFee,
    maxAgeAtEnd: product.maxAgeAtEnd,
    term,
    installment: verdict.installment,
    openingFee: verdict.openingFee,
    openingFeeIva: verdict.openingFeeIva ?? '0.00',
    firstDueDate: verdict.firstDueDate,
  };
}

/**
 * The credit a disbursement creates, computed with packages/lending: the accepted terms (kept on the credit as its
 * snapshot), the opening fee and its IVA financed or deducted, the schedule from the agreement's first payday after the
 * cut-off (an irregular first period charged by days), and one expected payroll deduction per installment.
 */
export function buildCredit(terms: DisbursementTerms, id: string = crypto.randomUUID()): CreditRows {
  const { product } = terms;
  const first = firstPayday(terms.calendar, terms.disbursementDate);
  const firstDueDate = first.dueDate;
  const quote = quoteLoan({
    ...loanPricing(product),
    amount: terms.amount,
    term: terms.term,
    frequency: terms.frequency,
    firstDueDate: first.nominal,
    payDay: terms.calendar.payDay ?? LAST_DAY_OF_MONTH,
    nonWorkingDays: terms.calendar.nonWorkingDays ?? [],
    disbursementDate: terms.disbursementDate,
  });
  const rows = quote.schedule.rows;
  return {
    credit: {
      id,
      requestId: terms.requestId,
      clientId: terms.clientId,
      companyId: terms.companyId,
      agreementId: terms.agreementId,
      productId: terms.productId,
      employeeNumber: terms.employeeNumber,
      productName: product.name,
      annualRatePct: product.annualRatePct,
      ivaRatePct: product.ivaRatePct,
      openingFeePct: product.openingFeePct,
      openingFeeFinanced: product.openingFeeFinanced,
      moratoryRatePct: product.moratoryRatePct,
      lateFee: product.lateFee,
      frequency: terms.frequency,
      term: terms.term,
      amount: quote.amount,
      openingFee: quote.openingFee,
      openingFeeIva: quote.openingFeeIva,
      principal: quote.principal,
      netDisbursed: quote.netDisbursement,
      installment: quote.schedule.installment,
      cat: quote.cat,
      clabe: terms.clabe,
      disbursementDate: terms.disbursementDate,
      firstDueDate,
      lastDueDate: rows[rows.length - 1]!.dueDate,
      disbursedBy: terms.disbursedBy,
      createdAt: terms.createdAt,
    },
    installments: rows.map((row) => ({ creditId: id, companyId: terms.companyId, ...builtRowColumns(row) })),
    deductions: rows.map((row) => ({
      creditId: id,
      companyId: terms.companyId,
      period: row.number,
      discountDate: row.dueDate,
      amount: row.payment,
    })),
  };
}

/** Writes built credits with their schedules and expected deductions, in the caller's transaction. */
export async function insertCredits(tx: Tx, built: CreditRows[]): Promise<{ id: string; number: number }[]> {
  if (built.length === 0) return [];
  const created = await tx
    .insert(credits)
    .values(built.map((entry) => entry.credit))
    .returning({ id: credits.id, number: credits.number });
  // Schedules and expected deductions go in as one JSON parameter each (insertAsJson): far fewer bound parameters
  // than row-by-row values. A fresh disbursement has nothing paid, its rows take the table's defaults; a credit
  // arriving with its history (the demo's seed) brings what was.
  await insertAsJson(
    tx,
    installments,
    built.flatMap((entry) => entry.installments),
  );
  await insertAsJson(
    tx,
    expectedDeductions,
    built.flatMap((entry) => entry.deductions),
  );
  // The list's balance and next discount date start from the fresh schedule; the day close keeps them from then on.
  await tx.execute(sql`
    update ${credits} c set outstanding_balance = s.owed, next_discount_date = s.first_due
    from (select credit_id, sum(outstanding) as owed, min(due_date) as first_due from ${installments}
          where credit_id in (${sql.join(
            created.map((c) => sql`${c.id}::uuid`),
            sql`, `,
          )}) group by credit_id) s
    where c.id = s.credit_id`);
  return created;
}
