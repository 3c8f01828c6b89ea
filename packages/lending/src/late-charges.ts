import { LendingInputError } from './errors.ts';
import { formatCents, parseNonNegativeCents, parseRate, type Cents, type Ratio } from './money.ts';
import { parseDay } from './dates.ts';
import { COMPONENT_INDEX, PRINCIPAL, fromLedger, outstanding, outstandingTotal, toLedger, type InstallmentState } from './ledger.ts';
import { DAY_COUNT_BASE } from './schedule.ts';

/**
 * Late charges (docs/domain.md, "Late charges"): moratory interest by days on the
 * overdue principal at the product's moratory rate (annual, actual/360) plus its IVA, and a late-payment
 * commission plus its IVA, charged once on an installment still owed `lateFeeGraceDays` after its due
 * date. Both go on the installment, where the waterfall takes them first (moratory, then fees).
 *
 * Accrual is incremental: from the day after `accruedThrough` to `asOf` inclusive, rounded half up once per
 * call — the day close calls it once per closed day range, the payoff letter to its validity date.
 * Installments whose deduction is en tránsito accrue nothing: the employer holds the money, not the borrower.
 */
export interface LateChargesInput {
  installments: InstallmentState[];
  /** Last day already accrued; moratory interest runs from the day after it. */
  accruedThrough: string;
  asOf: string;
  /** Annual moratory rate as a fraction, e.g. "0.72". */
  moratoryAnnualRate: string;
  ivaRate: string;
  /** Late-payment commission per overdue installment, pesos, without IVA. */
  lateFee?: string;
  /** Days after the due date before the late fee applies. Default 0. */
  lateFeeGraceDays?: number;
  /** Installment numbers whose payroll deduction is en tránsito. */
  inTransit?: readonly number[];
}

export interface LateChargesResult {
  installments: InstallmentState[];
  moratoryInterest: string;
  moratoryIva: string;
  fees: string;
  feesIva: string;
}

const roundHalfUp = (num: bigint, den: bigint): bigint => (2n * num + den) / (2n * den);

/** Moratory interest on `principal` for `days` days at the annual `rate` (actual/360), rounded half up once, and its IVA. */
function moratoryFor(principal: Cents, rate: Ratio, iva: Ratio, days: bigint): { moratory: Cents; moratoryIva: Cents } {
  const moratory = roundHalfUp(principal * rate.num * days, rate.den * BigInt(DAY_COUNT_BASE));
  return { moratory, moratoryIva: roundHalfUp(moratory * iva.num, iva.den) };
}

export function accrueLateCharges(input: LateChargesInput): LateChargesResult {
  const from = parseDay(input.accruedThrough, 'accruedThrough');
  const asOf = parseDay(input.asOf, 'asOf');
  if (asOf < from) {
    throw new LendingInputError(
      'INVALID_DATE_ORDER',
      'asOf',
      'La fecha de cálculo de moratorios no puede ser anterior a la última ya calculada.',
    );
  }
  const rate = parseRate(input.moratoryAnnualRate, 'moratoryAnnualRate');
  const iva = parseRate(input.ivaRate, 'ivaRate');
  const lateFee: Cents = input.lateFee === undefined ? 0n : parseNonNegativeCents(input.lateFee, 'lateFee');
  const grace = input.lateFeeGraceDays ?? 0;
  if (!Number.isInteger(grace) || grace < 0) {
    throw new LendingInputError('INVALID_DATE_ORDER', 'lateFeeGraceDays', 'Los días de gracia deben ser un entero de cero o más.');
  }
  const held = new Set(input.inTransit ?? []);
  const ledger = toLedger(input.installments);
  const totals = { moratoryInterest: 0n, moratoryIva: 0n, fees: 0n, feesIva: 0n };
  const M = COMPONENT_INDEX.moratoryInterest;
  const MI = COMPONENT_INDEX.moratoryIva;
  const F = COMPONENT_INDEX.fees;
  const FI = COMPONENT_INDEX.feesIva;
  for (const inst of ledger) {
    if (inst.dueDay >= asOf || held.has(inst.number) || outstandingTotal(inst) === 0n) continue;
    // Days late in this call: after the due date and after what earlier calls already accrued.
    const days = BigInt(asOf - Math.max(from, inst.dueDay));
    const overduePrincipal = outstanding(inst, PRINCIPAL);
    if (days > 0n && overduePrincipal > 0n && rate.num > 0n) {
      const { moratory, moratoryIva } = moratoryFor(overduePrincipal, rate, iva, days);
      inst.charged[M] = (inst.charged[M] ?? 0n) + moratory;
      inst.charged[MI] = (inst.charged[MI] ?? 0n) + moratoryIva;
      totals.moratoryInterest += moratory;
      totals.moratoryIva += moratoryIva;
    }
    if (lateFee > 0n && asOf - inst.dueDay > grace && (inst.charged[F] ?? 0n) === 0n) {
      const feeIva = roundHalfUp(lateFee * iva.num, iva.den);
      inst.charged[F] = lateFee;
      inst.charged[FI] = (inst.charged[FI] ?? 0n) + feeIva;
      totals.fees += lateFee;
      totals.feesIva += feeIva;
    }
  }
  return {
    installments: fromLedger(input.installments, ledger),
    moratoryInterest: formatCents(totals.moratoryInterest),
    moratoryIva: formatCents(totals.moratoryIva),
    fees: formatCents(totals.fees),
    feesIva: formatCents(totals.feesIva),
  };
}

export interface LateChargesForDaysInput {
  /** Principal the installment still owes, pesos: unchanged over the days counted. */
  principalOwed: string;
  /** Annual moratory rate as a fraction, e.g. "0.72". */
  moratoryAnnualRate: string;
  ivaRate: string;
  /** Closed days counted, 0 or more. */
  days: number;
}

/**
 * The moratory interest and its IVA that `days` day closes charge on an installment late and not held whose principal
 * owed does not change meanwhile: each close charges one day, rounded on its own (`accrueLateCharges` from the day
 * before to the day), so the total is `days` times one day's charge — not the `days`-day charge rounded once. What an
 * installment whose late charges run by days owes beyond what is written on it.
 */
export function lateChargesForDays(input: LateChargesForDaysInput): { moratoryInterest: string; moratoryIva: string } {
  const principal = parseNonNegativeCents(input.principalOwed, 'principalOwed');
  const rate = parseRate(input.moratoryAnnualRate, 'moratoryAnnualRate');
  const iva = parseRate(input.ivaRate, 'ivaRate');
  if (!Number.isInteger(input.days) || input.days < 0) {
    throw new LendingInputError('INVALID_DATE_ORDER', 'days', 'Los días de moratorios deben ser un entero de cero o más.');
  }
  const days = BigInt(input.days);
  const daily = moratoryFor(principal, rate, iva, 1n);
  return { moratoryInterest: formatCents(daily.moratory * days), moratoryIva: formatCents(daily.moratoryIva * days) };
}
