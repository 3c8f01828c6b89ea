import { LendingInputError } from './errors.ts';
import { formatCents, parseNonNegativeCents, parsePositiveCents } from './money.ts';
import { parseDay } from './dates.ts';
import { PERIODS_PER_YEAR, type Frequency } from './frequency.ts';
import type { Schedule } from './schedule.ts';

/**
 * CAT, costo anual total (Banxico, Circular 21/2009): the annual rate that equates the net
 * disbursement with the stream of payments (principal + interest + fees, without IVA), one payment per
 * period, times in years. CAT = (1 + periodic IRR)^periodsPerYear − 1, shown as a percentage with one
 * decimal rounded half up.
 *
 * This is the one place where binary floating point is used: the IRR is irrational in general, so it
 * is found by bisection on 1 + the periodic rate until the bracket is narrower than 1e-12 (the net
 * present value is strictly decreasing in the rate, so the root is unique and bisection cannot miss it). The
 * amounts that go in are exact centavos; only the rate is approximate, to far below the 0.05 points
 * that the one-decimal display can show.
 */
export interface CatInput {
  /** What the borrower actually receives (principal minus fees deducted at disbursement). */
  netDisbursement: string;
  /** One amount per period, without IVA. */
  payments: string[];
  periodsPerYear: number;
}

const TOLERANCE = 1e-12;
const MAX_GROWTH = 1e6;
const MIN_GROWTH = 1e-300;

/**
 * Periodic internal rate of return r such that Σ payments[t] / (1 + r)^(t+1) = netDisbursement.
 *
 * Bisection on the growth factor g = 1 + r, which the net present value decreases in strictly, until
 * the bracket is narrower than 1e-12 relative to g (so 1e-12 on r for ordinary rates, and still exact
 * enough when payments are far below the disbursement and g is close to 0). NaN when there is no root.
 */
export function periodicIrr(netDisbursement: number, payments: readonly number[]): number {
  // Σ p_t v^t by Horner's rule with v = 1 / g.
  const npv = (g: number): number => {
    const v = 1 / g;
    let acc = 0;
    for (let t = payments.length - 1; t >= 0; t--) acc = (acc + (payments[t] ?? 0)) * v;
    return acc - netDisbursement;
  };
  const atZero = npv(1);
  if (Number.isNaN(atZero)) return Number.NaN;
  if (atZero === 0) return 0;
  let lo: number;
  let hi: number;
  if (atZero > 0) {
    // Positive rate: double the upper end until the value turns negative.
    lo = 1;
    hi = 2;
    while (npv(hi) > 0) {
      lo = hi;
      hi *= 2;
      if (hi > MAX_GROWTH) return Number.NaN;
    }
  } else {
    // Negative rate (payments add up to less than the disbursement): halve the lower end.
    hi = 1;
    lo = 0.5;
    while (!(npv(lo) > 0)) {
      hi = lo;
      lo /= 2;
      if (lo < MIN_GROWTH) return Number.NaN;
    }
  }
  while (hi - lo > TOLERANCE * lo) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (npv(mid) > 0) lo = mid;
    else hi = mid;
  }
  return lo + (hi - lo) / 2 - 1;
}

/**
 * A CAT that is exactly halfway between two tenths (1000.50 back on 1000.00 is 0.05 %) comes out of the
 * solver a hair to either side of the tie. The solver is good to about 1e-8 tenths of a point for any
 * k ≤ 366 at CATs in the hundreds of percent, so values within 1e-6 tenths of a tie are taken as the tie
 * and rounded up, as the rule says; nothing measurable is misrounded by it.
 */
const TIE_SLACK_TENTHS = 1e-6;

/** Formats a percentage rounded half up (away from zero) to one decimal: 42.95 → "43.0". */
function formatPercentOneDecimal(percent: number): string {
  const tenths = Math.floor(Math.abs(percent) * 10 + 0.5 + TIE_SLACK_TENTHS);
  if (tenths === 0) return '0.0';
  const sign = percent < 0 ? '-' : '';
  return `${sign}${Math.floor(tenths / 10)}.${tenths % 10}`;
}

export function computeCat(input: CatInput): string {
  if (input === null || typeof input !== 'object') {
    throw new LendingInputError('INVALID_PAYMENTS', 'payments', 'Faltan los datos para calcular el CAT.');
  }
  const net = parsePositiveCents(input.netDisbursement, 'netDisbursement');
  const k = input.periodsPerYear;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1 || k > 366) {
    throw new LendingInputError(
      'INVALID_PERIODS_PER_YEAR',
      'periodsPerYear',
      'El número de periodos por año debe ser un entero entre 1 y 366 (52 semanal, 26 catorcenal, 24 quincenal, 12 mensual).',
    );
  }
  if (!Array.isArray(input.payments) || input.payments.length === 0) {
    throw new LendingInputError('INVALID_PAYMENTS', 'payments', 'Para calcular el CAT se necesita al menos un pago.');
  }
  const payments = input.payments.map((p, t) => Number(parseNonNegativeCents(p, `payments[${t}]`)));
  if (!payments.some((p) => p > 0)) {
    throw new LendingInputError('INVALID_PAYMENTS', 'payments', 'Para calcular el CAT al menos un pago debe ser mayor que cero.');
  }
  const r = periodicIrr(Number(net), payments);
  if (!Number.isFinite(r)) {
    throw new LendingInputError('CAT_NOT_SOLVABLE', 'payments', 'No fue posible calcular el CAT con esos pagos.');
  }
  const annual = Math.pow(1 + r, k) - 1;
  if (!Number.isFinite(annual)) {
    throw new LendingInputError('CAT_NOT_SOLVABLE', 'payments', 'El CAT resultante es demasiado grande para expresarse.');
  }
  return formatPercentOneDecimal(annual * 100);
}

export interface DatedCatInput {
  netDisbursement: string;
  disbursementDate: string;
  /** Each payment without IVA, on its actual date. */
  payments: Array<{ date: string; amount: string }>;
}

const DAYS_PER_YEAR = 365;

/**
 * CAT on the payments' actual times (Banxico 21/2009: times in years, here days ÷ 365), used when the first
 * period is irregular (docs/domain.md, "Schedule" and "CAT"): the annual rate c with Σ A_t / (1 + c)^(days_t / 365) = net.
 * Bisection on g = 1 + c, as in `periodicIrr`; the value is strictly decreasing in g.
 */
export function computeCatByDates(input: DatedCatInput): string {
  const net = Number(parsePositiveCents(input.netDisbursement, 'netDisbursement'));
  const start = parseDay(input.disbursementDate, 'disbursementDate');
  if (!Array.isArray(input.payments) || input.payments.length === 0) {
    throw new LendingInputError('INVALID_PAYMENTS', 'payments', 'Para calcular el CAT se necesita al menos un pago.');
  }
  const flows = input.payments.map((p, t) => ({
    years: (parseDay(p.date, `payments[${t}].date`) - start) / DAYS_PER_YEAR,
    amount: Number(parseNonNegativeCents(p.amount, `payments[${t}].amount`)),
  }));
  if (flows.some((f) => f.years <= 0) || !flows.some((f) => f.amount > 0)) {
    throw new LendingInputError(
      'INVALID_PAYMENTS',
      'payments',
      'Los pagos del CAT deben ser posteriores a la disposición y al menos uno mayor que cero.',
    );
  }
  const value = (g: number): number => flows.reduce((acc, f) => acc + f.amount * Math.pow(g, -f.years), 0) - net;
  let lo = 1;
  let hi = 1;
  if (value(1) > 0) {
    hi = 2;
    while (value(hi) > 0) {
      lo = hi;
      hi *= 2;
      if (hi > MAX_GROWTH) throw new LendingInputError('CAT_NOT_SOLVABLE', 'payments', 'No fue posible calcular el CAT con esos pagos.');
    }
  } else {
    lo = 0.5;
    while (!(value(lo) > 0)) {
      hi = lo;
      lo /= 2;
      if (lo < 1e-12) throw new LendingInputError('CAT_NOT_SOLVABLE', 'payments', 'No fue posible calcular el CAT con esos pagos.');
    }
  }
  while (hi - lo > TOLERANCE * lo) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (value(mid) > 0) lo = mid;
    else hi = mid;
  }
  return formatPercentOneDecimal((lo + (hi - lo) / 2 - 1) * 100);
}

/**
 * CAT of a schedule: payments are principal + interest of each row (IVA excluded, as the circular
 * requires). Fees charged per period are not part of the schedule; pass them to `computeCat` directly.
 * When the schedule's first period was charged by days, the CAT uses the payments' actual dates
 * (`computeCatByDates`); otherwise one payment per period.
 */
export function scheduleCat(schedule: Schedule, netDisbursement: string, frequency: Frequency, disbursementDate?: string): string {
  const payments = schedule.rows.map((row) => {
    return formatCents(parseNonNegativeCents(row.principal, 'principal') + parseNonNegativeCents(row.interest, 'interest'));
  });
  if (schedule.firstPeriodByDays === true && disbursementDate !== undefined) {
    return computeCatByDates({
      netDisbursement,
      disbursementDate,
      payments: schedule.rows.map((row, t) => ({ date: row.dueDate, amount: payments[t] ?? '0.00' })),
    });
  }
  return computeCat({ netDisbursement, payments, periodsPerYear: PERIODS_PER_YEAR[frequency] });
}
