import { LendingInputError } from './errors.ts';
import { formatDay, parseDay, type DayNumber } from './dates.ts';
import { formatCents, parseCanonicalCents, parseNonNegativeCents, parseRate, type Cents, type Ratio } from './money.ts';
import type { Schedule } from './schedule.ts';

/**
 * The state of a credit's installments, shared by allocation, payoff, aging and the day close.
 *
 * Each installment carries what was charged per component, what has been paid and what was waived
 * (future interest forgiven by a prepayment or a payoff). What is still owed is charged − paid − waived.
 */
export type Component = 'moratoryInterest' | 'moratoryIva' | 'fees' | 'feesIva' | 'interest' | 'iva' | 'principal';

/** The default waterfall inside an installment (docs/domain.md, "Payments"): moratory + IVA, fees + IVA, interest + IVA, principal. */
export const DEFAULT_COMPONENT_ORDER: readonly Component[] = [
  'moratoryInterest',
  'moratoryIva',
  'fees',
  'feesIva',
  'interest',
  'iva',
  'principal',
];

export type ComponentAmounts = Partial<Record<Component, string>>;

export interface InstallmentState {
  number: number;
  dueDate: string;
  principal: string;
  interest: string;
  iva: string;
  fees?: string;
  feesIva?: string;
  moratoryInterest?: string;
  moratoryIva?: string;
  /** Paid so far, per component (missing = 0.00). */
  paid?: ComponentAmounts;
  /** Forgiven, per component (missing = 0.00): the current period's interest not yet earned at a payoff. */
  waived?: ComponentAmounts;
  /** Set on a row whose interest was charged by days (an irregular first period), with its length. */
  days?: number;
  /** The row is no longer owed because a prepayment shortened the term (it is not a payment made). */
  clearedByPrepayment?: boolean;
  /**
   * Set on the current row once a prepayment split its period (docs/domain.md, "Payments"): `centDays` is Σ saldo
   * insoluto (centavos) × days of the stretches from the period's start to `through`, the last prepayment's value date;
   * from `through` on the saldo is what is still owed of principal from this row on. The period's interest is that sum
   * times the daily rate, rounded once.
   */
  accrual?: InterestAccrual;
}

export interface InterestAccrual {
  through: string;
  /** A non-negative integer, centavos × days. */
  centDays: string;
}

/** Turns a fresh schedule into installment states with nothing paid. */
export function installmentsFromSchedule(schedule: Schedule): InstallmentState[] {
  return schedule.rows.map((row) => {
    const inst: InstallmentState = {
      number: row.number,
      dueDate: row.dueDate,
      principal: row.principal,
      interest: row.interest,
      iva: row.iva,
    };
    if (row.days !== undefined) inst.days = row.days;
    return inst;
  });
}

// ------------------------------------------------------------------------------- internal representation

export const COMPONENT_COUNT = 7;
export const COMPONENT_INDEX: Readonly<Record<Component, number>> = {
  moratoryInterest: 0,
  moratoryIva: 1,
  fees: 2,
  feesIva: 3,
  interest: 4,
  iva: 5,
  principal: 6,
};
export const INTEREST = COMPONENT_INDEX.interest;
export const IVA = COMPONENT_INDEX.iva;
export const PRINCIPAL = COMPONENT_INDEX.principal;

export interface LedgerInstallment {
  number: number;
  dueDate: string;
  dueDay: DayNumber;
  charged: Cents[];
  paid: Cents[];
  waived: Cents[];
  days: number | undefined;
  cleared: boolean;
  accrual: { throughDay: DayNumber; centDays: bigint } | undefined;
}

function amount(value: string | undefined, field: string, component: Component): Cents {
  if (value === undefined) return 0n;
  // The canonical form cannot be negative; anything else takes the checked path with its field name.
  return parseCanonicalCents(value) ?? parseNonNegativeCents(value, `${field}.${component}`);
}

// Explicit property reads, in COMPONENT_INDEX order: this runs for every installment of every credit in a
// day close or a payment file, and named reads are much faster than a loop over keys.
function amountsFrom(source: ComponentAmounts | undefined, field: string): Cents[] {
  if (source === undefined) return [0n, 0n, 0n, 0n, 0n, 0n, 0n];
  return [
    amount(source.moratoryInterest, field, 'moratoryInterest'),
    amount(source.moratoryIva, field, 'moratoryIva'),
    amount(source.fees, field, 'fees'),
    amount(source.feesIva, field, 'feesIva'),
    amount(source.interest, field, 'interest'),
    amount(source.iva, field, 'iva'),
    amount(source.principal, field, 'principal'),
  ];
}

/** Parses and checks installments; returns them ordered by due date (then number), oldest first. */
export function toLedger(installments: readonly InstallmentState[], field = 'installments'): LedgerInstallment[] {
  if (!Array.isArray(installments) || installments.length === 0) {
    throw new LendingInputError('INVALID_INSTALLMENTS', field, 'El crédito no tiene amortizaciones.');
  }
  const seen = new Set<number>();
  const ledger = installments.map((inst, idx): LedgerInstallment => {
    const f = `${field}[${idx}]`;
    if (!Number.isInteger(inst.number) || inst.number < 1 || seen.has(inst.number)) {
      throw new LendingInputError('INVALID_INSTALLMENTS', `${f}.number`, 'Cada amortización necesita un número entero positivo y único.');
    }
    seen.add(inst.number);
    const charged = amountsFrom(inst, f);
    const paid = amountsFrom(inst.paid, `${f}.paid`);
    const waived = amountsFrom(inst.waived, `${f}.waived`);
    for (let c = 0; c < COMPONENT_COUNT; c++) {
      // Most rows waived nothing: their paid is compared alone, without a sum (a bigint each) per component.
      const w = waived[c] ?? 0n;
      if ((w === 0n ? (paid[c] ?? 0n) : (paid[c] ?? 0n) + w) > (charged[c] ?? 0n)) {
        throw new LendingInputError(
          'INVALID_INSTALLMENTS',
          f,
          `La amortización ${inst.number} tiene pagado o condonado más de lo cargado en ${DEFAULT_COMPONENT_ORDER[c] ?? ''}.`,
        );
      }
    }
    return {
      number: inst.number,
      dueDate: inst.dueDate,
      dueDay: parseDay(inst.dueDate, `${f}.dueDate`),
      charged,
      paid,
      waived,
      days: inst.days,
      cleared: inst.clearedByPrepayment === true,
      accrual: inst.accrual === undefined ? undefined : parseAccrual(inst.accrual, `${f}.accrual`),
    };
  });
  ledger.sort((a, b) => a.dueDay - b.dueDay || a.number - b.number);
  return ledger;
}

function parseAccrual(accrual: InterestAccrual, field: string): { throughDay: DayNumber; centDays: bigint } {
  if (typeof accrual.centDays !== 'string' || !/^\d{1,30}$/.test(accrual.centDays)) {
    throw new LendingInputError(
      'INVALID_INSTALLMENTS',
      `${field}.centDays`,
      'El saldo por días del periodo debe ser un entero de cero o más.',
    );
  }
  return { throughDay: parseDay(accrual.through, `${field}.through`), centDays: BigInt(accrual.centDays) };
}

export function outstanding(inst: LedgerInstallment, c: number): Cents {
  return (inst.charged[c] ?? 0n) - (inst.paid[c] ?? 0n) - (inst.waived[c] ?? 0n);
}

export function outstandingTotal(inst: LedgerInstallment): Cents {
  let total = 0n;
  for (let c = 0; c < COMPONENT_COUNT; c++) total += outstanding(inst, c);
  return total;
}

export function chargedTotal(inst: LedgerInstallment): Cents {
  let total = 0n;
  for (let c = 0; c < COMPONENT_COUNT; c++) total += inst.charged[c] ?? 0n;
  return total;
}

// Explicit, in DEFAULT_COMPONENT_ORDER (the keys' order in the object written): a row of every schedule paid goes through.
function amountsOut(values: readonly Cents[]): ComponentAmounts | undefined {
  const [moratoryInterest = 0n, moratoryIva = 0n, fees = 0n, feesIva = 0n, interest = 0n, iva = 0n, principal = 0n] = values;
  if (moratoryInterest === 0n && moratoryIva === 0n && fees === 0n && feesIva === 0n && interest === 0n && iva === 0n && principal === 0n)
    return undefined;
  const out: ComponentAmounts = {};
  if (moratoryInterest !== 0n) out.moratoryInterest = formatCents(moratoryInterest);
  if (moratoryIva !== 0n) out.moratoryIva = formatCents(moratoryIva);
  if (fees !== 0n) out.fees = formatCents(fees);
  if (feesIva !== 0n) out.feesIva = formatCents(feesIva);
  if (interest !== 0n) out.interest = formatCents(interest);
  if (iva !== 0n) out.iva = formatCents(iva);
  if (principal !== 0n) out.principal = formatCents(principal);
  return out;
}

/** Back to the public shape, in the caller's original order (charges included: a prepayment rebuilds them). */
export function fromLedger(original: readonly InstallmentState[], ledger: readonly LedgerInstallment[]): InstallmentState[] {
  const byNumber = new Map(ledger.map((l) => [l.number, l]));
  return original.map((inst) => {
    const l = byNumber.get(inst.number);
    if (l === undefined) return inst;
    const next: InstallmentState = { ...inst };
    delete next.paid;
    delete next.waived;
    for (const c of DEFAULT_COMPONENT_ORDER) {
      const v = l.charged[COMPONENT_INDEX[c]] ?? 0n;
      if (c === 'principal' || c === 'interest' || c === 'iva') next[c] = formatCents(v);
      else if (v !== 0n || next[c] !== undefined) next[c] = formatCents(v);
    }
    if (l.cleared) next.clearedByPrepayment = true;
    else delete next.clearedByPrepayment;
    if (l.accrual !== undefined) next.accrual = { through: formatDay(l.accrual.throughDay), centDays: l.accrual.centDays.toString() };
    else delete next.accrual;
    const paid = amountsOut(l.paid);
    const waived = amountsOut(l.waived);
    if (paid !== undefined) next.paid = paid;
    if (waived !== undefined) next.waived = waived;
    return next;
  });
}

/** The nominal annual rate and the periods a year: what a row's daily rate is made of. */
export interface PeriodRate {
  annual: Ratio;
  periodsPerYear: number;
}

/** The day the period of row `index` starts: the previous due date, or the disbursement for the first row. */
export function periodStart(ledger: readonly LedgerInstallment[], index: number, disbursementDay: DayNumber): DayNumber {
  return index === 0 ? disbursementDay : (ledger[index - 1]?.dueDay ?? disbursementDay);
}

/** What is still owed of principal from row `index` on: the saldo insoluto the row's period runs on. */
export function saldoFrom(ledger: readonly LedgerInstallment[], index: number): Cents {
  let balance = 0n;
  for (let k = index; k < ledger.length; k++) balance += outstanding(ledger[k]!, PRINCIPAL);
  return balance;
}

/**
 * The daily rate of row `index` as a fraction num / den of a centavo-day: a row charged by days (an irregular first
 * period) runs at annual / 360, the contract's convention; a regular one at its period's rate i = annual / k spread over
 * the period's days, so that a period no prepayment splits is charged exactly round(balance × i), as the schedule says.
 */
export function dailyRate(
  ledger: readonly LedgerInstallment[],
  index: number,
  disbursementDay: DayNumber,
  rate: PeriodRate,
): { num: bigint; den: bigint } | null {
  const inst = ledger[index];
  if (inst === undefined) return null;
  const periodDays = inst.dueDay - periodStart(ledger, index, disbursementDay);
  if (periodDays <= 0) return null;
  if (inst.days !== undefined) return { num: rate.annual.num, den: rate.annual.den * 360n };
  return { num: rate.annual.num, den: rate.annual.den * BigInt(rate.periodsPerYear) * BigInt(periodDays) };
}

/**
 * Σ saldo insoluto × days of row `index`'s period from its start to `day` (clamped to the period), given that the saldo
 * since the last split (or the start) is `balance`: the stretches before the last prepayment come from the row's
 * `accrual`, the stretch since then runs on `balance`.
 */
export function centDaysTo(
  ledger: readonly LedgerInstallment[],
  index: number,
  disbursementDay: DayNumber,
  day: DayNumber,
  balance: Cents,
): bigint {
  const inst = ledger[index]!;
  const from = inst.accrual?.throughDay ?? periodStart(ledger, index, disbursementDay);
  const until = Math.min(Math.max(day, from), inst.dueDay);
  return (inst.accrual?.centDays ?? 0n) + balance * BigInt(until - from);
}

const halfUp = (num: bigint, den: bigint): bigint => (2n * num + den) / (2n * den);

/**
 * Interest of the current period accrued to `day` (docs/domain.md, "Payoff letter" and "Payments").
 *
 * A period a prepayment split (the row has an `accrual`): Σ saldo of each stretch × daily rate × days up to `day`,
 * rounded half up once, never more than the row's charged interest. Otherwise the installment's charged interest ×
 * elapsed days ÷ days in its period, rounded half up. IVA is round(interest × IVA) either way.
 * The period runs from the previous due date (or the disbursement date for the first installment) to
 * this installment's due date; elapsed days are clamped to the period, so the accrual never exceeds the
 * charged interest.
 */
export function accruedInterest(
  ledger: readonly LedgerInstallment[],
  index: number,
  disbursementDay: DayNumber,
  day: DayNumber,
  ivaRate: Ratio,
  rate?: PeriodRate,
): { interest: Cents; iva: Cents } {
  const inst = ledger[index];
  if (inst === undefined) return { interest: 0n, iva: 0n };
  const start = periodStart(ledger, index, disbursementDay);
  const periodDays = inst.dueDay - start;
  const elapsed = Math.min(Math.max(day - start, 0), periodDays);
  if (periodDays <= 0 || elapsed === 0) return { interest: 0n, iva: 0n };
  const charged = inst.charged[INTEREST] ?? 0n;
  let interest: Cents;
  const daily = inst.accrual !== undefined && rate !== undefined ? dailyRate(ledger, index, disbursementDay, rate) : null;
  if (daily !== null) {
    const accrued = halfUp(daily.num * centDaysTo(ledger, index, disbursementDay, day, saldoFrom(ledger, index)), daily.den);
    interest = accrued < charged ? accrued : charged;
  } else {
    interest = halfUp(charged * BigInt(elapsed), BigInt(periodDays));
  }
  const iva = halfUp(interest * ivaRate.num, ivaRate.den);
  return { interest, iva };
}

export function parseIvaRate(value: string): Ratio {
  return parseRate(value, 'ivaRate');
}
