import { formatCents, parseCents, type AllocationResult, type Component } from '@portal/lending';
import type { AllocationSplit } from '@portal/contract';
import { payments } from '../../db/schema/payments';

/** A payment's split by component and its waterfall, as the payment file's rows and the credit view show them. */

export const splitColumns = {
  principal: payments.principal,
  interest: payments.interest,
  iva: payments.iva,
  moratoryInterest: payments.moratoryInterest,
  moratoryIva: payments.moratoryIva,
  fees: payments.fees,
  feesIva: payments.feesIva,
  overpayment: payments.overpayment,
};

interface StoredAllocation {
  lines: { installment: number; component: string; amount: string; step: string }[];
}
export const linesOf = (allocation: unknown) => (allocation as StoredAllocation | null)?.lines ?? [];

export const splitOf = (payment: AllocationSplit): AllocationSplit => ({
  principal: payment.principal,
  interest: payment.interest,
  iva: payment.iva,
  moratoryInterest: payment.moratoryInterest,
  moratoryIva: payment.moratoryIva,
  fees: payment.fees,
  feesIva: payment.feesIva,
  overpayment: payment.overpayment,
});

/** How a payment's money was split, by component, plus the sobrepago. */
export function allocationSplit(result: Pick<AllocationResult, 'lines' | 'overpayment'>): Record<Component | 'overpayment', string> {
  const sums: Record<Component, bigint> = {
    principal: 0n,
    interest: 0n,
    iva: 0n,
    moratoryInterest: 0n,
    moratoryIva: 0n,
    fees: 0n,
    feesIva: 0n,
  };
  for (const line of result.lines) sums[line.component] += parseCents(line.amount, 'importe');
  return {
    principal: formatCents(sums.principal),
    interest: formatCents(sums.interest),
    iva: formatCents(sums.iva),
    moratoryInterest: formatCents(sums.moratoryInterest),
    moratoryIva: formatCents(sums.moratoryIva),
    fees: formatCents(sums.fees),
    feesIva: formatCents(sums.feesIva),
    overpayment: result.overpayment,
  };
}
