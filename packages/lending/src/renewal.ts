import { LendingInputError } from './errors.ts';
import { formatCents, maxCents, parseNonNegativeCents, parsePositiveCents, type Cents } from './money.ts';

/**
 * Renewals (renovación, docs/domain.md "Renewals"): a new credit that pays off the client's active ones on its
 * disbursement date. The client receives the difference:
 *
 *   net amount = new amount − opening fee and its IVA (when deducted, not financed) − Σ payoffs of the renewed credits
 *
 * The renewed credits' installments stop being deducted, so the capacity test frees them from the other deductions
 * the payroll receipt shows; and each renewed credit must meet the product's renewal rule (at least N installments paid,
 * no more than D days past due). Pure arithmetic: the payoffs come from `payoffQuote` (the settlement letter's).
 */

export interface RenewalRule {
  /** Installments the renewed credit must have paid, at least. */
  minPaidInstallments: number;
  /** Days past due the renewed credit may have, at most. */
  maxDaysPastDue: number;
}

export interface RenewedCredit {
  /** How the credit is named to the user (its folio). */
  folio: string;
  /** Its payoff at the disbursement date (what the new credit pays to it), pesos. */
  payoff: string;
  /** Its fixed deduction, freed by the renewal. */
  installment: string;
  paidInstallments: number;
  daysPastDue: number;
}

export interface RenewalInput {
  /** The new credit's amount, pesos. */
  amount: string;
  /** The new credit's opening fee and its IVA: deducted from what the client receives unless financed. */
  openingFee: string;
  openingFeeIva: string;
  openingFeeFinanced: boolean;
  renewed: readonly RenewedCredit[];
  rule: RenewalRule;
  /** The company's minimum net amount of a renewal (0.00: only a negative net is refused). */
  minimumNet: string;
}

export type RenewalReasonCode = 'renewal-rule' | 'renewal-net' | 'renewal-minimum';

export interface RenewalResult {
  /** What the new credit disburses before payoffs: the amount, less fee and IVA when deducted. */
  netDisbursement: string;
  /** Σ payoffs. */
  payoffTotal: string;
  /** Net amount the client receives: netDisbursement − payoffTotal (negative when the payoffs exceed it). */
  netAmount: string;
  /** Σ installments freed for the capacity test. */
  freedInstallments: string;
  reasons: { code: RenewalReasonCode; message: string }[];
}

const pesos = (value: string) => {
  const [whole = '0', decimals = '00'] = value.replace('-', '').split('.');
  return `${value.startsWith('-') ? '-' : ''}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${decimals}`;
};

function checkCount(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0)
    throw new LendingInputError('INVALID_AMOUNT', field, `El campo ${field} debe ser un número entero de cero o más.`);
  return value;
}

/** The reasons a credit may not be renewed under `rule`, in Spanish (none: it may). */
export function renewalRuleReasons(credit: Pick<RenewedCredit, 'folio' | 'paidInstallments' | 'daysPastDue'>, rule: RenewalRule): string[] {
  const minPaid = checkCount(rule.minPaidInstallments, 'minPaidInstallments');
  const maxLate = checkCount(rule.maxDaysPastDue, 'maxDaysPastDue');
  const reasons: string[] = [];
  if (checkCount(credit.paidInstallments, 'paidInstallments') < minPaid)
    reasons.push(`El crédito ${credit.folio} lleva ${credit.paidInstallments} pagos; para renovarlo se necesitan al menos ${minPaid}.`);
  if (checkCount(credit.daysPastDue, 'daysPastDue') > maxLate)
    reasons.push(`El crédito ${credit.folio} tiene ${credit.daysPastDue} días de atraso; para renovarlo se admiten hasta ${maxLate}.`);
  return reasons;
}

/**
 * Other deductions for the capacity test once the renewed credits' installments stop: what the receipt shows, less
 * the freed installments, never below zero (a receipt that did not show them frees nothing more than it holds).
 */
export function otherDeductionsAfterRenewal(otherDeductions: string, renewedInstallments: readonly string[]): string {
  let other: Cents = parseNonNegativeCents(otherDeductions, 'otherDeductions');
  for (const [i, installment] of renewedInstallments.entries()) other -= parseNonNegativeCents(installment, `renewedInstallments[${i}]`);
  return formatCents(maxCents(0n, other));
}

/** The renewal's net amount and every reason to refuse it (the rule per credit, a negative net, a net below the minimum). */
export function assessRenewal(input: RenewalInput): RenewalResult {
  const amount = parsePositiveCents(input.amount, 'amount');
  const fee = parseNonNegativeCents(input.openingFee, 'openingFee') + parseNonNegativeCents(input.openingFeeIva, 'openingFeeIva');
  const netDisbursement = input.openingFeeFinanced ? amount : amount - fee;
  const minimum = parseNonNegativeCents(input.minimumNet, 'minimumNet');
  let payoffs = 0n;
  let freed = 0n;
  const reasons: RenewalResult['reasons'] = [];
  for (const [i, credit] of input.renewed.entries()) {
    const payoff = parseNonNegativeCents(credit.payoff, `renewed[${i}].payoff`);
    payoffs += payoff;
    freed += parseNonNegativeCents(credit.installment, `renewed[${i}].installment`);
    for (const message of renewalRuleReasons(credit, input.rule)) reasons.push({ code: 'renewal-rule', message });
    // Everything it owes is already deducted and on its way (en tránsito): there is nothing for a renewal to pay off.
    if (payoff === 0n)
      reasons.push({
        code: 'renewal-rule',
        message: `El crédito ${credit.folio} no tiene saldo por liquidar: lo que debe ya lo descontó la nómina y está en tránsito.`,
      });
  }
  const net = netDisbursement - payoffs;
  if (net < 0n) {
    reasons.push({
      code: 'renewal-net',
      message: `Los finiquitos (${pesos(formatCents(payoffs))}) superan lo que dispersa el nuevo crédito (${pesos(formatCents(netDisbursement))}); el monto neto sería ${pesos(formatCents(net))}.`,
    });
  } else if (net < minimum) {
    reasons.push({
      code: 'renewal-minimum',
      message: `El monto neto a recibir (${pesos(formatCents(net))}) es menor que el mínimo de renovación de la empresa (${pesos(formatCents(minimum))}).`,
    });
  }
  return {
    netDisbursement: formatCents(netDisbursement),
    payoffTotal: formatCents(payoffs),
    netAmount: formatCents(net),
    freedInstallments: formatCents(freed),
    reasons,
  };
}
