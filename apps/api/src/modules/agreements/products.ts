import type { AgreementDetail } from '@portal/contract';
import { trimNumeric } from '../../db/numeric';
import type { agreementProducts } from '../../db/schema';

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
    active: product.active,
  };
}
