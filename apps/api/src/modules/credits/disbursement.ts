import { nextDiscountDate, quoteLoan, type Frequency } from '@portal/lending';
import { percentToFraction } from '@portal/contract';
import type { Tx } from '../../db/client';
import { credits, expectedDeductions, installments } from '../../db/schema';
import { trimNumeric } from '../../db/numeric';

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
  product: { name: string; annualRatePct: string; ivaRatePct: string; openingFeePct: string; openingFeeFinanced: boolean };
  disbursementDate: string;
  disbursedBy: string | null;
  createdAt: Date;
}

export type CreditRows = {
  credit: typeof credits.$inferInsert & { id: string };
  installments: (typeof installments.$inferInsert)[];
  deductions: (typeof expectedDeductions.$inferInsert)[];
};

/**
 * The credit a disbursement creates, computed with packages/lending: the product's terms as they are now (kept as a
 * snapshot), the opening fee financed or deducted, the schedule from the first payroll discount date after the
 * disbursement, and one expected payroll deduction per installment.
 */
export function buildCredit(terms: DisbursementTerms, id: string = crypto.randomUUID()): CreditRows {
  const { product } = terms;
  const firstDueDate = nextDiscountDate(terms.frequency, terms.disbursementDate);
  const quote = quoteLoan({
    amount: terms.amount,
    annualRate: percentToFraction(trimNumeric(product.annualRatePct)),
    ivaRate: percentToFraction(trimNumeric(product.ivaRatePct)),
    openingFeeRate: percentToFraction(trimNumeric(product.openingFeePct)),
    openingFeeFinanced: product.openingFeeFinanced,
    term: terms.term,
    frequency: terms.frequency,
    firstDueDate,
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
      frequency: terms.frequency,
      term: terms.term,
      amount: quote.amount,
      openingFee: quote.openingFee,
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
    installments: rows.map((row) => ({
      creditId: id,
      number: row.number,
      dueDate: row.dueDate,
      principal: row.principal,
      interest: row.interest,
      iva: row.iva,
      payment: row.payment,
      balance: row.balance,
    })),
    deductions: rows.map((row) => ({ creditId: id, period: row.number, discountDate: row.dueDate, amount: row.payment })),
  };
}

/** Writes built credits with their schedules and expected deductions, in the caller's transaction. */
export async function insertCredits(tx: Tx, built: CreditRows[]): Promise<{ id: string; number: number }[]> {
  if (built.length === 0) return [];
  const created = await tx
    .insert(credits)
    .values(built.map((entry) => entry.credit))
    .returning({ id: credits.id, number: credits.number });
  // Parameters per statement stay well under PostgreSQL's 65,535.
  const rows = built.flatMap((entry) => entry.installments);
  for (let start = 0; start < rows.length; start += 5_000) await tx.insert(installments).values(rows.slice(start, start + 5_000));
  const deductions = built.flatMap((entry) => entry.deductions);
  for (let start = 0; start < deductions.length; start += 10_000) await tx.insert(expectedDeductions).values(deductions.slice(start, start + 10_000));
  return created;
}
