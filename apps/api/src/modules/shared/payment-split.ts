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
