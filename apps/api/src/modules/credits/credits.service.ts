import { payoffQuote, LendingInputError, type InstallmentState } from '@portal/lending';
import { percentToFraction, type PayoffQuoteView } from '@portal/contract';
import type { Tx } from '../../db/client';
import { trimNumeric } from '../../db/numeric';
import { HttpProblem } from '../../http/errors';
import { loadCreditRows } from './credits.queries';

/**
 * Payoff at a date (docs/domain.md, "Payoff letter") through packages/lending, from the business date unless another is
 * chosen: money en tránsito is discounted from what the borrower must pay.
 */
export async function creditPayoff(
  tx: Tx,
  id: string,
  businessDateOf: (companyId: string) => Promise<string>,
  query: { date?: string | undefined; validUntil?: string | undefined },
): Promise<PayoffQuoteView> {
  const { credit, schedule, deductions } = await loadCreditRows(tx, id);
  const quoteDate = query.date ?? (await businessDateOf(credit.companyId));
  const state: InstallmentState[] = schedule.map((i) => ({
    number: i.number,
    dueDate: i.dueDate,
    principal: i.principal,
    interest: i.interest,
    iva: i.iva,
    fees: i.fees,
    feesIva: i.feesIva,
    moratoryInterest: i.moratoryInterest,
    moratoryIva: i.moratoryIva,
    paid: { principal: i.paidPrincipal, interest: i.paidInterest, iva: i.paidIva, fees: i.paidFees, feesIva: i.paidFeesIva, moratoryInterest: i.paidMoratoryInterest, moratoryIva: i.paidMoratoryIva },
  }));
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
    if (error instanceof LendingInputError) throw new HttpProblem(400, 'Cotización no válida', error.message, [{ field: error.field, message: error.message }]);
    throw error;
  }
}
