import { quoteLoan, type LoanQuote } from '@portal/lending';
import { percentToFraction, type PayFrequency } from '@portal/contract';

/** A sample loan of a product as the agreement form shows it: its percentages turned into packages/lending's fractions. */
export function sampleLoan(input: {
  amount: string;
  annualRatePct: string;
  ivaRatePct: string;
  openingFeePct: string;
  openingFeeFinanced: boolean;
  term: number;
  frequency: PayFrequency;
  firstDueDate: string;
  payDay?: number;
  /** The agreement's non-working days: a payday on one is taken on the previous working day. */
  nonWorkingDays?: readonly string[];
  /** The sample's contracting date: an irregular first period is then charged by days. */
  disbursementDate?: string;
}): LoanQuote {
  return quoteLoan({
    amount: input.amount,
    annualRate: percentToFraction(input.annualRatePct),
    ivaRate: percentToFraction(input.ivaRatePct),
    openingFeeRate: percentToFraction(input.openingFeePct),
    openingFeeFinanced: input.openingFeeFinanced,
    term: input.term,
    frequency: input.frequency,
    firstDueDate: input.firstDueDate,
    ...(input.payDay !== undefined ? { payDay: input.payDay } : {}),
    ...(input.nonWorkingDays !== undefined ? { nonWorkingDays: input.nonWorkingDays } : {}),
    ...(input.disbursementDate !== undefined ? { disbursementDate: input.disbursementDate } : {}),
  });
}
