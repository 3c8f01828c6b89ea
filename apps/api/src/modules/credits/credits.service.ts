import { addDays, payoffQuote, LendingInputError, type PayoffQuote } from '@portal/lending';
import { percentToFraction } from '@portal/contract';
import type { Tx } from '../../db/client';
import { trimNumeric } from '../../db/numeric';
import { HttpProblem } from '../../http/errors';
import { loadCreditRows } from './credits.queries';
import { toInstallmentState } from './installment-state';
import { chargedThrough } from './late-charges';

/**
 * Payoff at a date (docs/domain.md, "Payoff letter") through packages/lending: the one computation behind the credit
 * view's quote, the settlement letter's quote and the letter's PDF (modules/letters prints this quote, every field of
 * it). Quoted on the business date — the open day, whose own payroll deduction is still esperado — and valued at the
 * validity date: interest, moratory interest and late fees are accrued to it as the day closes up to it will charge
 * them (packages/lending `payoffQuote` with `lateCharges`), the deductions en tránsito are discounted, and those still to be taken by then are netted
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
  // The rows as the closes through the last closed day left them; the library accrues the days from the business date
  // to the validity date as the closes will (late rows not held start running on the business date, as its close starts
  // them; a late fee is charged once), after applying the deductions still to be taken on their dates.
  const closedDay = addDays(businessDate, -1);
  const state = schedule.map((row) => toInstallmentState(chargedThrough(row, credit, closedDay)));
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
      heldInstallments: inTransit.map((d) => d.period),
      quoteDate,
      validUntil,
      lateCharges: {
        moratoryAnnualRate: percentToFraction(trimNumeric(credit.moratoryRatePct)),
        lateFee: credit.lateFee,
        accruedThrough: closedDay,
      },
    });
  } catch (error) {
    if (error instanceof LendingInputError)
      throw new HttpProblem(400, 'Cotización no válida', error.message, [{ field: error.field, message: error.message }]);
    throw error;
  }
}
