import { addDays, payoffQuote, LendingInputError, type PayoffQuote } from '@portal/lending';
import { percentToFraction } from '@portal/contract';
import type { Tx } from '../../db/client';
import { trimNumeric } from '../../db/numeric';
import { HttpProblem } from '../../http/errors';
import { loadCreditRows } from './stored-credit';
import { toInstallmentState } from './schedule-rows';
import { chargedThrough } from './late-charges';

/**
 * Payoff at a date (docs/domain.md, "Payoff letter") through packages/lending, from the business date unless another is
 * chosen: money en tránsito is discounted from what the borrower must pay. The settlement letter (modules/letters)
 * prints this quote, every field of it.
 */
export async function creditPayoff(
  tx: Tx,
  id: string,
  businessDateOf: (companyId: string) => Promise<string>,
  query: { date?: string | undefined; validUntil?: string | undefined },
): Promise<PayoffQuote> {
  const { credit, schedule, deductions } = await loadCreditRows(tx, id);
  const businessDate = await businessDateOf(credit.companyId);
  const quoteDate = query.date ?? businessDate;
  // Late charges as they ran through the last closed day.
  const state = schedule.map((row) => toInstallmentState(chargedThrough(row, credit, addDays(businessDate, -1))));
  try {
    return payoffQuote({
      creditAmount: credit.principal,
      installment: credit.installment,
      disbursementDate: credit.disbursementDate,
      ivaRate: percentToFraction(trimNumeric(credit.ivaRatePct)),
      installments: state,
      inTransit: deductions.filter((d) => d.state === 'en tránsito').map((d) => d.amount),
      quoteDate,
      ...(query.validUntil ? { validUntil: query.validUntil } : {}),
    });
  } catch (error) {
    if (error instanceof LendingInputError)
      throw new HttpProblem(400, 'Cotización no válida', error.message, [{ field: error.field, message: error.message }]);
    throw error;
  }
}
