import { LendingInputError } from './errors.ts';
import { formatDay, parseCivil, parseDay } from './dates.ts';
import {
  assertNominalPayday,
  checkCalendar,
  isoWeekday,
  nominalPaydayDates,
  movedPayday,
  nominalPaydays,
  previousNominalPayday,
} from './calendar.ts';
import { PERIODS_PER_YEAR, assertFrequency, type Frequency } from './frequency.ts';
import { formatCents, parsePositiveCents, parseRate, ratio, type Cents, type Ratio } from './money.ts';

/**
 * French amortization with a fixed installment and IVA on interest (docs/domain.md, "Schedule").
 *
 * i = annual ÷ k (k = 52, 26, 24, 12); j = i × (1 + IVA); installment = round(P·j / (1 − (1 + j)^−n)).
 * Each row: interest = round(balance × i), iva = round(interest × IVA), principal = installment −
 * interest − iva. The last row takes the remaining balance as principal and its payment absorbs the
 * rounding residue. Everything is exact: the installment is a ratio of big integers rounded once.
 */
export { FREQUENCIES, PERIODS_PER_YEAR, assertFrequency, isFrequency, type Frequency } from './frequency.ts';

/** Longest schedule accepted: ten years of weekly deductions fit, typos like 2400 do not. */
export const MAX_TERM = 600;

/** Day-count base of a broken (irregular) first period: actual days over 360, the convention stated on the contract. */
export const DAY_COUNT_BASE = 360;

export interface ScheduleInput {
  /** Pesos, decimal string, e.g. "10000.00". */
  principal: string;
  /** Nominal annual rate as a fraction, e.g. "0.36". */
  annualRate: string;
  /** IVA on interest as a fraction, e.g. "0.16". */
  ivaRate: string;
  /** Number of installments. */
  term: number;
  frequency: Frequency;
  /** ISO date of the first discount, a nominal payday of the calendar (see `firstPayday`). */
  firstDueDate: string;
  /** Mensual: the agreement's pay day (1–31, 31 = last day); every month is clamped from it. Default: the first date's day. */
  payDay?: number;
  /** Non-working days: a payday on one of them is taken on the previous working day. */
  nonWorkingDays?: readonly string[];
  /**
   * The disbursement date. When given and the first period is longer or shorter than a regular one, its
   * interest is charged by days: balance × annual × days / 360 (docs/domain.md, "Schedule").
   */
  disbursementDate?: string;
}

export interface ScheduleRow {
  number: number;
  dueDate: string;
  principal: string;
  interest: string;
  iva: string;
  payment: string;
  /** Balance after this row's principal. */
  balance: string;
  /** Set only on a row whose interest was charged by days (an irregular first period): its length in days. */
  days?: number;
}

export interface Schedule {
  installment: string;
  rows: ScheduleRow[];
  /** Days from the disbursement to the first due date (only when the disbursement date was given). */
  firstPeriodDays?: number;
  /** True when that first period is irregular and its interest was charged by days. */
  firstPeriodByDays?: boolean;
}

/** The same schedule in centavos, for callers that keep computing (allocation, payoff, reports). */
export interface ScheduleRowCents {
  number: number;
  dueDate: string;
  principal: Cents;
  interest: Cents;
  iva: Cents;
  payment: Cents;
  balance: Cents;
  days?: number;
}

export interface ScheduleCents {
  installment: Cents;
  rows: ScheduleRowCents[];
  firstPeriodDays?: number;
  firstPeriodByDays?: boolean;
}

function assertTerm(term: unknown): number {
  if (typeof term !== 'number' || !Number.isInteger(term) || term < 1 || term > MAX_TERM) {
    throw new LendingInputError('INVALID_TERM', 'term', `El plazo debe ser un número entero de pagos entre 1 y ${MAX_TERM}.`);
  }
  return term;
}

export interface DueDateOptions {
  payDay?: number;
  nonWorkingDays?: readonly string[];
}

function calendarFor(frequency: Frequency, firstDueDate: string, options: DueDateOptions) {
  const first = parseCivil(firstDueDate, 'firstDueDate');
  // Without an explicit pay day a mensual series is anchored on the first date's day; a weekly series
  // runs on the first date's weekday.
  return checkCalendar({
    frequency,
    payDay: options.payDay ?? first.day,
    paydayWeekday: isoWeekday(parseDay(firstDueDate, 'firstDueDate')),
    nonWorkingDays: options.nonWorkingDays ?? [],
  });
}

/**
 * Due (discount) dates from the payroll calendar (docs/domain.md, "Schedule"): quincenal alternates the 15th and the
 * month's last day; mensual falls on the pay day, each month clamped from that anchor (never carried
 * forward from the previous clamped date); semanal and catorcenal step 7 and 14 days. A payday on a
 * non-working day moves to the previous working day; the series itself never moves.
 */
export function dueDates(frequency: Frequency, firstDueDate: string, count: number, options: DueDateOptions = {}): string[] {
  assertFrequency(frequency);
  const calendar = calendarFor(frequency, firstDueDate, options);
  const first = assertNominalPayday(calendar, firstDueDate, 'firstDueDate');
  return nominalPaydays(calendar, first, count).map((d) => formatDay(movedPayday(calendar, d)));
}

interface InstallmentFactor {
  /** installment = round(P × num / den). */
  num: bigint;
  den: bigint;
}

// The annuity factor depends only on (rate, IVA, frequency, term): a portfolio rebuild hits the same few
// products again and again, so the big powers are computed once per product. Bounded to stay small.
const factorCache = new Map<string, InstallmentFactor>();
const FACTOR_CACHE_LIMIT = 512;

function installmentFactor(periodic: Ratio, iva: Ratio, term: number, key: string): InstallmentFactor {
  const cached = factorCache.get(key);
  if (cached !== undefined) return cached;
  let factor: InstallmentFactor;
  if (periodic.num === 0n) {
    factor = { num: 1n, den: BigInt(term) };
  } else {
    // j = i × (1 + IVA) = jn / jd; P·j / (1 − (1 + j)^−n) = P · jn·(jd + jn)^n / (jd · ((jd + jn)^n − jd^n)).
    const j = ratio(periodic.num * (iva.den + iva.num), periodic.den * iva.den);
    const n = BigInt(term);
    const grown = (j.den + j.num) ** n;
    factor = { num: j.num * grown, den: j.den * (grown - j.den ** n) };
  }
  if (factorCache.size >= FACTOR_CACHE_LIMIT) factorCache.clear();
  factorCache.set(key, factor);
  return factor;
}

/** Builds the schedule in centavos. Throws `LendingInputError` on invalid input. */
export function buildScheduleCents(input: ScheduleInput): ScheduleCents {
  if (input === null || typeof input !== 'object') {
    throw new LendingInputError('INVALID_AMOUNT', 'principal', 'Faltan los datos del crédito.');
  }
  const principal = parsePositiveCents(input.principal, 'principal');
  const annual = parseRate(input.annualRate, 'annualRate');
  const iva = parseRate(input.ivaRate, 'ivaRate');
  const term = assertTerm(input.term);
  const frequency = assertFrequency(input.frequency);
  const calendar = calendarFor(frequency, input.firstDueDate, input);
  const nominalFirst = assertNominalPayday(calendar, input.firstDueDate, 'firstDueDate');
  const dates =
    calendar.nonWorking.size === 0
      ? nominalPaydayDates(calendar, nominalFirst, term)
      : nominalPaydays(calendar, nominalFirst, term).map((d) => formatDay(movedPayday(calendar, d)));

  const periodic = ratio(annual.num, annual.den * BigInt(PERIODS_PER_YEAR[frequency]));
  const factor = installmentFactor(periodic, iva, term, `${annual.num}/${annual.den}|${iva.num}/${iva.den}|${frequency}|${term}`);
  const installment = roundHalfUpPositive(principal * factor.num, factor.den);

  // An irregular first period (disbursed on another day than the payday before the first due date) is
  // charged by days, actual/360 (docs/domain.md, "Schedule"). A regular one is charged the periodic rate like every row.
  let firstPeriodDays: number | undefined;
  let firstPeriodByDays = false;
  if (input.disbursementDate !== undefined) {
    const disbursementDay = parseDay(input.disbursementDate, 'disbursementDate');
    const firstDue = movedPayday(calendar, nominalFirst);
    if (disbursementDay >= firstDue) {
      throw new LendingInputError(
        'INVALID_DATE_ORDER',
        'firstDueDate',
        'El primer descuento debe ser posterior a la fecha de disposición.',
      );
    }
    const regularStart = previousNominalPayday(calendar, nominalFirst);
    firstPeriodDays = firstDue - disbursementDay;
    firstPeriodByDays = disbursementDay !== regularStart && disbursementDay !== movedPayday(calendar, regularStart);
  }

  // Half-up rounding of x·a/b for x ≥ 0 is (2·x·a + b) / (2·b); the doubled denominators are constant.
  const iNum2 = 2n * periodic.num;
  const iDen = periodic.den;
  const iDen2 = 2n * iDen;
  const vNum2 = 2n * iva.num;
  const vDen = iva.den;
  const vDen2 = 2n * vDen;

  const rows: ScheduleRowCents[] = new Array<ScheduleRowCents>(term);
  let balance = principal;
  for (let r = 0; r < term; r++) {
    const byDays = r === 0 && firstPeriodByDays;
    const interest = byDays
      ? roundHalfUpPositive(balance * annual.num * BigInt(firstPeriodDays ?? 0), annual.den * BigInt(DAY_COUNT_BASE))
      : (balance * iNum2 + iDen) / iDen2;
    const rowIva = (interest * vNum2 + vDen) / vDen2;
    let rowPrincipal = installment - interest - rowIva;
    // The last row clears the balance. Before it, a row never repays more than is owed (possible only for
    // tiny loans where rounding dominates) and never a negative amount (interest above the installment).
    if (r === term - 1 || rowPrincipal > balance) rowPrincipal = balance;
    else if (rowPrincipal < 0n) rowPrincipal = 0n;
    balance -= rowPrincipal;
    const row: ScheduleRowCents = {
      number: r + 1,
      dueDate: dates[r] ?? '',
      principal: rowPrincipal,
      interest,
      iva: rowIva,
      payment: rowPrincipal + interest + rowIva,
      balance,
    };
    if (byDays) row.days = firstPeriodDays;
    rows[r] = row;
  }
  const schedule: ScheduleCents = { installment, rows };
  if (firstPeriodDays !== undefined) {
    schedule.firstPeriodDays = firstPeriodDays;
    schedule.firstPeriodByDays = firstPeriodByDays;
  }
  return schedule;
}

/**
 * The level installment of `principal` over `term` rows at this pricing, rounded half up (the formula of
 * §1). Used again when a prepayment rebuilds the remaining schedule with a lower installment.
 */
export function levelInstallment(principal: Cents, annualRate: string, ivaRate: string, frequency: Frequency, term: number): Cents {
  const annual = parseRate(annualRate, 'annualRate');
  const iva = parseRate(ivaRate, 'ivaRate');
  const periodic = ratio(annual.num, annual.den * BigInt(PERIODS_PER_YEAR[frequency]));
  const factor = installmentFactor(periodic, iva, term, `${annual.num}/${annual.den}|${iva.num}/${iva.den}|${frequency}|${term}`);
  return roundHalfUpPositive(principal * factor.num, factor.den);
}

function roundHalfUpPositive(num: bigint, den: bigint): bigint {
  return (2n * num + den) / (2n * den);
}

/** Builds the amortization schedule; every amount is a string with exactly two decimals. */
export function buildSchedule(input: ScheduleInput): Schedule {
  const s = buildScheduleCents(input);
  const rows: ScheduleRow[] = new Array<ScheduleRow>(s.rows.length);
  for (let r = 0; r < s.rows.length; r++) {
    const row = s.rows[r];
    if (row === undefined) continue;
    rows[r] = {
      number: row.number,
      dueDate: row.dueDate,
      principal: formatCents(row.principal),
      interest: formatCents(row.interest),
      iva: formatCents(row.iva),
      payment: formatCents(row.payment),
      balance: formatCents(row.balance),
    };
    if (row.days !== undefined) rows[r]!.days = row.days;
  }
  const schedule: Schedule = { installment: formatCents(s.installment), rows };
  if (s.firstPeriodDays !== undefined) {
    schedule.firstPeriodDays = s.firstPeriodDays;
    schedule.firstPeriodByDays = s.firstPeriodByDays ?? false;
  }
  return schedule;
}
