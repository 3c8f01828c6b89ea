import { otherDeductionsAfterRenewal } from '@portal/lending';
import { parseMoney, type RenewableCredits } from '@portal/contract';

/**
 * What the capacity test sees once the renewed credits stop being deducted: the captured other deductions less their
 * installments (packages/lending, as the API computes it).
 */
export function freedOtherDeductions(otherDeductions: string, renews: readonly string[], renewable: RenewableCredits | undefined): string {
  const money = parseMoney(otherDeductions || '0');
  if (!money || renews.length === 0 || !renewable) return otherDeductions;
  const installments = renewable.credits.filter((credit) => renews.includes(credit.creditId)).map((credit) => credit.installment);
  return otherDeductionsAfterRenewal(money, installments);
}
