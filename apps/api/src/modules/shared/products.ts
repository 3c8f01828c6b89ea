import type { PayrollCalendar } from '@portal/lending';
import { percentToFraction, type AgreementDetail, type AgreementValues } from '@portal/contract';
import { trimNumeric } from '../../db/numeric';
import type { agreementProducts } from '../../db/schema/agreements';

/** A product row as the wire carries it: percentages as typed ("36", not "36.0000"). */
export function toProduct(product: typeof agreementProducts.$inferSelect): AgreementDetail['products'][number] {
  return {
    id: product.id,
    name: product.name,
    annualRatePct: trimNumeric(product.annualRatePct),
    ivaRatePct: trimNumeric(product.ivaRatePct),
    openingFeePct: trimNumeric(product.openingFeePct),
    openingFeeFinanced: product.openingFeeFinanced,
    terms: product.terms,
    minAmount: product.minAmount,
    maxAmount: product.maxAmount,
    maxAgeAtEnd: product.maxAgeAtEnd,
    moratoryRatePct: trimNumeric(product.moratoryRatePct),
    lateFee: product.lateFee,
    renewalMinPaid: product.renewalMinPaid,
    renewalMaxDaysPastDue: product.renewalMaxDaysPastDue,
    active: product.active,
  };
}

/**
 * A product's stored percentages as the fractions packages/lending prices a loan with. Works on a product row and
 * on a credit's snapshot of one, so a quote and a disbursement read the same terms the same way.
 */
export function loanPricing(product: { annualRatePct: string; ivaRatePct: string; openingFeePct: string; openingFeeFinanced: boolean }) {
  return {
    annualRate: percentToFraction(trimNumeric(product.annualRatePct)),
    ivaRate: percentToFraction(trimNumeric(product.ivaRatePct)),
    openingFeeRate: percentToFraction(trimNumeric(product.openingFeePct)),
    openingFeeFinanced: product.openingFeeFinanced,
  };
}

/** The agreement's payroll calendar as packages/lending reads it (pay day, payday weekday, cut-off lead days, non-working days). */
export function payrollCalendarOf(agreement: {
  frequency: PayrollCalendar['frequency'];
  payDay: number | null;
  paydayWeekday: number | null;
  cutOffLeadDays: number;
  nonWorkingDays: readonly string[];
}): PayrollCalendar {
  return {
    frequency: agreement.frequency,
    ...(agreement.payDay !== null ? { payDay: agreement.payDay } : {}),
    ...(agreement.paydayWeekday !== null ? { paydayWeekday: agreement.paydayWeekday } : {}),
    cutOffLeadDays: agreement.cutOffLeadDays,
    nonWorkingDays: agreement.nonWorkingDays,
  };
}

/** Inserts an agreement's products in the given order; ids are kept for products that have one. */
export function productRows(agreement: { id: string; companyId: string }, products: AgreementValues['products']) {
  return products.map((product, position) => ({
    ...(product.id ? { id: product.id } : {}),
    agreementId: agreement.id,
    companyId: agreement.companyId,
    name: product.name,
    annualRatePct: product.annualRatePct,
    ivaRatePct: product.ivaRatePct,
    openingFeePct: product.openingFeePct,
    openingFeeFinanced: product.openingFeeFinanced,
    terms: product.terms,
    minAmount: product.minAmount,
    maxAmount: product.maxAmount,
    maxAgeAtEnd: product.maxAgeAtEnd,
    moratoryRatePct: product.moratoryRatePct,
    lateFee: product.lateFee,
    renewalMinPaid: product.renewalMinPaid,
    renewalMaxDaysPastDue: product.renewalMaxDaysPastDue,
    active: product.active,
    position,
  }));
}
