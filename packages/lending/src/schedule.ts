import { LendingInputError } from './errors.ts';
import { daysInMonth, dayFromCivil, formatCivil, formatDay, parseCivil } from './dates.ts';
import { formatCents, parsePositiveCents, parseRate, ratio, type Cents, type Ratio } from './money.ts';

/**
 * French amortization with a fixed installment and IVA on interest (DOMAIN.md, Algorithms §1).
 *
 * i = annual ÷ k (k = 52, 26, 24, 12); j = i × (1 + IVA); installment = round(P·j / (1 − (1 + j)^−n)).
 * Each row: interest = round(balance × i), iva = round(interest × IVA), principal = installment −
 * interest − iva. The last row takes the remaining balance as principal and its payment absorbs the
 * rounding residue. Everything is exact: the installment is a ratio of big integers rounded once.
 */
export type Frequency = 'semanal' | 'catorcenal' | 'quincenal' | 'mensual';

export const FREQUENCIES: readonly Frequency[] = ['semanal', 'catorcenal', 'quincenal', 'mensual'];

/** Periods per year used to turn the nominal annual rate into the periodic rate (and for the CAT). */
export const PERIODS_PER_YEAR: Readonly<Record<Frequency, number>> = {
  semanal: 52,
  catorcenal: 26,
  quincenal: 24,
  mensual: 12,
};

/** Longest schedule accepted: ten years of weekly deductions fit, typos like 2400 do not. */
export const MAX_TERM = 600;

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
  /** ISO date of the first discount. */
  firstDueDate: string;
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
}

export interface Schedule {
  installment: string;
  rows: ScheduleRow[];
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
}

export interface ScheduleCents {
  installment: Cents;
  rows: ScheduleRowCents[];
}

export function isFrequency(value: unknown): value is Frequency {
  return value === 'semanal' || value === 'catorcenal' || value === 'quincenal' || value === 'mensual';
}

export function assertFrequency(value: unknown, field = 'frequency'): Frequency {
  if (!isFrequency(value)) {
    throw new LendingInputError(
      'INVALID_FREQUENCY',
      field,
      `La periodicidad "${String(value)}" no existe: use semanal, catorcenal, quincenal o mensual.`,
    );
  }
  return value;
}

function assertTerm(term: unknown): number {
  if (typeof term !== 'number' || !Number.isInteger(term) || term < 1 || term > MAX_TERM) {
    throw new LendingInputError(
      'INVALID_TERM',
      'term',
      `El plazo debe ser un número entero de pagos entre 1 y ${MAX_TERM}.`,
    );
  }
  return term;
}

/**
 * Due (discount) dates. Quincenal alternates the 15th and the month's last day (28/29 February
 * included), mensual keeps the first date's day clamped to each month's end, semanal and catorcenal
 * step 7 and 14 days.
 */
export function dueDates(frequency: Frequency, firstDueDate: string, count: number): string[] {
  assertFrequency(frequency);
  const first = parseCivil(firstDueDate, 'firstDueDate');
  const dates: string[] = new Array<string>(count);
  if (frequency === 'semanal' || frequency === 'catorcenal') {
    const step = frequency === 'semanal' ? 7 : 14;
    const start = dayFromCivil(first.year, first.month, first.day);
    for (let r = 0; r < count; r++) dates[r] = formatDay(start + r * step);
    return dates;
  }
  const monthEnd = daysInMonth(first.year, first.month);
  if (frequency === 'quincenal') {
    if (first.day !== 15 && first.day !== monthEnd) {
      throw new LendingInputError(
        'INVALID_QUINCENAL_DATE',
        'firstDueDate',
        `En un crédito quincenal el primer descuento debe caer el día 15 o el último día del mes; ${firstDueDate} no lo es.`,
      );
    }
    // Count half-months: even = the 15th, odd = the month's last day.
    const startHalf = (first.year * 12 + first.month - 1) * 2 + (first.day === 15 ? 0 : 1);
    for (let r = 0; r < count; r++) {
      const half = startHalf + r;
      const monthIndex = Math.floor(half / 2);
      const year = Math.floor(monthIndex / 12);
      const month = (monthIndex % 12) + 1;
      dates[r] = formatCivil(year, month, half % 2 === 0 ? 15 : daysInMonth(year, month));
    }
    return dates;
  }
  const startMonth = first.year * 12 + first.month - 1;
  for (let r = 0; r < count; r++) {
    const monthIndex = startMonth + r;
    const year = Math.floor(monthIndex / 12);
    const month = (monthIndex % 12) + 1;
    dates[r] = formatCivil(year, month, Math.min(first.day, daysInMonth(year, month)));
  }
  return dates;
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
  const dates = dueDates(frequency, input.firstDueDate, term);

  const periodic = ratio(annual.num, annual.den * BigInt(PERIODS_PER_YEAR[frequency]));
  const factor = installmentFactor(
    periodic,
    iva,
    term,
    `${annual.num}/${annual.den}|${iva.num}/${iva.den}|${frequency}|${term}`,
  );
  const installment = roundHalfUpPositive(principal * factor.num, factor.den);

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
    const interest = (balance * iNum2 + iDen) / iDen2;
    const rowIva = (interest * vNum2 + vDen) / vDen2;
    let rowPrincipal = installment - interest - rowIva;
    // The last row clears the balance. Before it, a row never repays more than is owed (possible only for
    // tiny loans where rounding dominates) and never a negative amount (interest above the installment).
    if (r === term - 1 || rowPrincipal > balance) rowPrincipal = balance;
    else if (rowPrincipal < 0n) rowPrincipal = 0n;
    balance -= rowPrincipal;
    rows[r] = {
      number: r + 1,
      dueDate: dates[r] ?? '',
      principal: rowPrincipal,
      interest,
      iva: rowIva,
      payment: rowPrincipal + interest + rowIva,
      balance,
    };
  }
  return { installment, rows };
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
  }
  return { installment: formatCents(s.installment), rows };
}
