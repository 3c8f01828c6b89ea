import { payoffQuote, LendingInputError, type PayoffQuote } from '@portal/lending';
import { percentToFraction } from '@portal/contract';
import type { Tx } from '../../db/client';
import { trimNumeric } from '../../db/numeric';
import { HttpProblem } from '../../http/errors';
import { loadCreditRows } from './credits.queries';
import { toInstallmentState } from './installment-state';
import { chargedToValidity } from './late-charges';

/**
 * Payoff at a date (docs/domain.md, "Payoff letter") through packages/lending: the one computation behind the credit
 * view's quote, the settlement letter's quote and the letter's PDF (modules/letters prints this quote, every field of
 * it). Quoted on the business date — the open day, whose own payroll deduction is still esperado — and valued at the
 * validity date: interest, moratory interest and late fees are accrued to it as the day closes up to it will charge
 * them (chargedToValidity), the deductions en tránsito are discounted, and those still to be taken by then are netted
 * and shown. A payoff at a later `date` without `validUntil` is the letter valid to that date; an earlier `date` is
 * quoted at it, with the charges the closes have written.
 */
export async function creditPayoff(
  tx: Tx,
  id: string,
  businessDateOf: (companyId: string) => Promise<string>,
  query: { date?: string | undefined; validUntil?: string | undefined },
): Promise<PayoffQuote> {
  const { credit, schedule, deductions } = await loadCreditRows(tx, id);
  const businessDate = await businessDateOf(credit.companyId);
  const asked = query.date ?? businessDate;
  const quoteDate = query.validUntil === undefined && asked > businessDate ? businessDate : asked;
  const validUntil = query.validUntil ?? asked;
  const inTransit = deductions.filter((d) => d.state === 'en tránsito');
  const held = new Set(inTransit.map((d) => d.period));
  // Rows that accrue no late charges by the validity date: held by the employer, or their deduction still to be taken.
  const notLate = new Set(held);
  for (const row of schedule) if (row.dueDate >= quoteDate && row.dueDate <= validUntil) notLate.add(row.number);
  const state = schedule.map((row) => toInstallmentState(chargedToValidity(row, credit, businessDate, validUntil, notLate)));
  try {
    return payoffQuote({
      creditAmount: credit.principal,
      installment: credit.installment,
      disbursementDate: credit.disbursementDate,
      ivaRate: percentToFraction(trimNumeric(credit.ivaRatePct)),
      annualRate: percentToFraction(trimNumeric(credit.annualRatePct)),
      frequency: credit.frequency,
      installments: state,
      inTransit: inTransit.map((d) => d.amount),
      heldInstallments: [...held],
      quoteDate,
      validUntil,
    });
  } catch (error) {
    if (error instanceof LendingInputError)
      throw new HttpProblem(400, 'Cotización no válida', error.message, [{ field: error.field, message: error.message }]);
    throw error;
  }
}
