import { LendingInputError } from './errors.ts';
import { parseDay } from './dates.ts';
import { PERIODS_PER_YEAR, assertFrequency, type Frequency } from './frequency.ts';
import { formatCents, minCents, parseNonNegativeCents, parsePositiveCents, parseRate, type Cents, type Ratio } from './money.ts';
import {
  COMPONENT_COUNT,
  COMPONENT_INDEX,
  DEFAULT_COMPONENT_ORDER,
  INTEREST,
  IVA,
  PRINCIPAL,
  accruedInterest,
  centDaysTo,
  dailyRate,
  fromLedger,
  outstanding,
  outstandingTotal as outstandingTotalOf,
  parseIvaRate,
  toLedger,
  type Component,
  type InstallmentState,
  type LedgerInstallment,
} from './ledger.ts';
import { levelInstallment } from './schedule.ts';

/**
 * Payment allocation, the waterfall (docs/domain.md, "Payments").
 *
 * 1. Installments already due on the value date, oldest first; inside each, the components in
 *    `componentOrder` (default: moratory interest, its IVA, fees, their IVA, interest, IVA, principal).
 * 2. What is left is an advance payment. It first covers the interest (and its IVA) that the current
 *    period has accrued up to the value date, which is owed anyway;
 * 3. then it is a prepayment: it reduces the saldo insoluto, and the remaining schedule is rebuilt on the
 *    new balance from the current installment on — by default the deduction stays the same and the term
 *    shortens (rows no longer needed are `clearedByPrepayment`); with `prepaymentOption:
 *    'lower-installment'` the term stays and the installment falls. The current period is charged on the
 *    old balance up to the value date and on the new balance after it, so interest is never charged on
 *    principal already repaid.
 * 4. Once no principal and nothing due is left the credit is paid off (liquidado): any interest not yet
 *    earned is waived, and money still left is a sobrepago, reported in `overpayment`, never swallowed.
 *
 * The function never creates or loses a centavo: the lines plus the overpayment add up to the amount, and
 * the principal charged over all rows stays the principal lent. `previousInstallments` is the exact state
 * before the payment, which `revertPayment` restores.
 */
export interface AllocationInput {
  /** Amount received, pesos. */
  amount: string;
  /** Value date of the payment (for a payroll deduction, its discount date). */
  valueDate: string;
  disbursementDate: string;
  ivaRate: string;
  /** The product's nominal annual rate (fraction) and the frequency: a prepayment rebuilds the schedule with them. */
  annualRate: string;
  frequency: Frequency;
  /** The fixed deduction the employer loads (the schedule's installment). */
  installment: string;
  installments: InstallmentState[];
  /** Waterfall inside an installment; a permutation of every component. */
  componentOrder?: readonly Component[];
  /** What a prepayment does to the remaining schedule; default: same deduction, shorter term. */
  prepaymentOption?: PrepaymentOption;
}

export type PrepaymentOption = 'shorter-term' | 'lower-installment';

export type AllocationStep = 'due' | 'accrued' | 'prepayment';

export interface AllocationLine {
  installment: number;
  component: Component;
  amount: string;
  step: AllocationStep;
}

export interface WaiverLine {
  installment: number;
  component: Component;
  amount: string;
}

export interface AllocationResult {
  amount: string;
  /** Sum of `lines`. */
  applied: string;
  /** Sobrepago: money left after the credit is paid off, kept as a credit balance. */
  overpayment: string;
  lines: AllocationLine[];
  waived: WaiverLine[];
  /** The installments after the payment, in the order given. */
  installments: InstallmentState[];
  paidOff: boolean;
  /** Principal prepaid by this payment (reduces the saldo insoluto). */
  prepaidPrincipal: string;
  /** The deduction from now on: the same one, or the lower one the employer must load ('lower-installment'). */
  installment: string;
  /** The installments exactly as they were before this payment (what `revertPayment` restores). */
  previousInstallments: InstallmentState[];
}

function checkOrder(order: readonly Component[] | undefined): number[] {
  if (order === undefined) return DEFAULT_COMPONENT_ORDER.map((c) => COMPONENT_INDEX[c]);
  const given: readonly unknown[] = Array.isArray(order) ? order : [];
  const indices = given.map((c) => (typeof c === 'string' && Object.hasOwn(COMPONENT_INDEX, c) ? COMPONENT_INDEX[c as Component] : -1));
  if (indices.length !== COMPONENT_COUNT || indices.includes(-1) || new Set(indices).size !== COMPONENT_COUNT) {
    throw new LendingInputError(
      'INVALID_COMPONENT_ORDER',
      'componentOrder',
      'El orden de aplicación debe incluir una sola vez cada concepto: moratorios, IVA de moratorios, comisiones, IVA de comisiones, interés, IVA y capital.',
    );
  }
  return indices;
}

const COMPONENT_NAMES = DEFAULT_COMPONENT_ORDER;

function componentName(index: number): Component {
  return COMPONENT_NAMES[index] ?? 'principal';
}

export function allocatePayment(input: AllocationInput): AllocationResult {
  const amount = parsePositiveCents(input.amount, 'amount');
  const order = checkOrder(input.componentOrder);
  const valueDay = parseDay(input.valueDate, 'valueDate');
  const disbursementDay = parseDay(input.disbursementDate, 'disbursementDate');
  if (valueDay < disbursementDay) {
    throw new LendingInputError(
      'INVALID_DATE_ORDER',
      'valueDate',
      'La fecha valor del pago no puede ser anterior a la disposición del crédito.',
    );
  }
  const ivaRate = parseIvaRate(input.ivaRate);
  const frequency = assertFrequency(input.frequency);
  const periodRate = { annual: parseRate(input.annualRate, 'annualRate'), periodsPerYear: PERIODS_PER_YEAR[frequency] };
  const ledger = toLedger(input.installments);
  const previousInstallments = copyInstallments(input.installments);

  const lines: AllocationLine[] = [];
  const waived: WaiverLine[] = [];
  let remaining: Cents = amount;

  const pay = (inst: LedgerInstallment, c: number, cap: Cents, step: AllocationStep): void => {
    if (remaining === 0n) return;
    const take = minCents(remaining, minCents(cap, outstanding(inst, c)));
    if (take <= 0n) return;
    inst.paid[c] = (inst.paid[c] ?? 0n) + take;
    remaining -= take;
    lines.push({ installment: inst.number, component: componentName(c), amount: formatCents(take), step });
  };
  const waive = (inst: LedgerInstallment, c: number): void => {
    const left = outstanding(inst, c);
    if (left <= 0n) return;
    inst.waived[c] = (inst.waived[c] ?? 0n) + left;
    waived.push({ installment: inst.number, component: componentName(c), amount: formatCents(left) });
  };

  // 1. Due installments, oldest first.
  let firstFuture = ledger.length;
  for (let k = 0; k < ledger.length; k++) {
    const inst = ledger[k];
    if (inst === undefined) continue;
    if (inst.dueDay > valueDay) {
      firstFuture = k;
      break;
    }
    for (const c of order) pay(inst, c, remaining, 'due');
  }

  const current = ledger[firstFuture];
  // 2. The current period's interest accrued to the value date.
  if (current !== undefined && remaining > 0n) {
    const accrued = accruedInterest(ledger, firstFuture, disbursementDay, valueDay, ivaRate, periodRate);
    pay(current, INTEREST, accrued.interest - (current.paid[INTEREST] ?? 0n), 'accrued');
    pay(current, IVA, accrued.iva - (current.paid[IVA] ?? 0n), 'accrued');
  }

  // 3. Prepayment: the rest reduces the saldo insoluto, and the remaining schedule is rebuilt on it.
  let prepaid = 0n;
  let installment = parseNonNegativeCents(input.installment, 'installment');
  if (current !== undefined && remaining > 0n) {
    let balance = 0n;
    for (let k = firstFuture; k < ledger.length; k++) balance += outstanding(ledger[k]!, PRINCIPAL);
    prepaid = minCents(remaining, balance);
    if (prepaid > 0n) {
      // Rows already settled in advance keep what they are; the rest is rebuilt, the prepayment recorded on the first.
      const rebuilt: number[] = [];
      for (let k = firstFuture; k < ledger.length; k++) {
        const inst = ledger[k]!;
        if (!inst.cleared && outstandingTotalOf(inst) > 0n) rebuilt.push(k);
      }
      const target = ledger[rebuilt[0]!]!;
      target.paid[PRINCIPAL] = (target.paid[PRINCIPAL] ?? 0n) + prepaid;
      remaining -= prepaid;
      lines.push({ installment: target.number, component: 'principal', amount: formatCents(prepaid), step: 'prepayment' });
      installment = rebuildRemaining({
        ledger,
        rows: rebuilt,
        from: firstFuture,
        oldBalance: balance,
        newBalance: balance - prepaid,
        valueDay,
        disbursementDay,
        annualRate: input.annualRate,
        ivaRate,
        ivaRateText: input.ivaRate,
        frequency,
        installment,
        option: input.prepaymentOption ?? 'shorter-term',
      });
    }
  }

  // 4. Paid off when nothing due and no principal is left: the rest of the future charges are waived.
  let paidOff = true;
  for (let k = 0; k < ledger.length && paidOff; k++) {
    const inst = ledger[k];
    if (inst === undefined) continue;
    if (k < firstFuture) {
      for (let c = 0; c < COMPONENT_COUNT; c++) if (outstanding(inst, c) > 0n) paidOff = false;
    } else if (outstanding(inst, PRINCIPAL) > 0n) {
      paidOff = false;
    }
  }
  if (paidOff) {
    for (let k = firstFuture; k < ledger.length; k++) {
      const inst = ledger[k];
      if (inst !== undefined) for (let c = 0; c < COMPONENT_COUNT; c++) waive(inst, c);
    }
  }

  return {
    amount: formatCents(amount),
    applied: formatCents(amount - remaining),
    overpayment: formatCents(remaining),
    lines,
    waived,
    installments: fromLedger(input.installments, ledger),
    paidOff,
    prepaidPrincipal: formatCents(prepaid),
    installment: formatCents(installment),
    previousInstallments,
  };
}

interface RebuildInput {
  ledger: LedgerInstallment[];
  /** Indexes of the rows to rebuild (still owed, not cleared), in order. */
  rows: number[];
  /** Index of the current (first not yet due) installment. */
  from: number;
  /** The saldo insoluto before the prepayment, after the value date's accrued interest. */
  oldBalance: Cents;
  newBalance: Cents;
  valueDay: number;
  disbursementDay: number;
  annualRate: string;
  ivaRate: Ratio;
  ivaRateText: string;
  frequency: Frequency;
  installment: Cents;
  option: PrepaymentOption;
}

const roundHalfUp = (num: bigint, den: bigint): bigint => (2n * num + den) / (2n * den);

/**
 * Rebuilds what is still owed on rows `from`… on the new balance (docs/domain.md, "Payments"). Each row keeps what was
 * paid (and waived); only what is owed is recomputed: charged = paid + waived + newly owed.
 *
 * The current row owes the interest accrued on the old balance up to the value date (already paid by the
 * 'accrued' step) plus the rest of its period on the new balance, prorated by days — or, for a first period
 * charged by days, balance × annual × days / 360. Later rows are ordinary periods: interest = round(balance
 * × i), IVA = round(interest × IVA), principal = installment − interest − IVA, the last row taking the rest.
 * Returns the installment in force afterwards.
 */
function rebuildRemaining(r: RebuildInput): Cents {
  const annual = parseRate(r.annualRate, 'annualRate');
  const periodic = { num: annual.num, den: annual.den * BigInt(PERIODS_PER_YEAR[r.frequency]) };
  const ivaOf = (interest: Cents): Cents => roundHalfUp(interest * r.ivaRate.num, r.ivaRate.den);
  const rows = r.rows.map((k) => r.ledger[k]!);
  const current = rows[0]!;
  // The first rebuilt row is the current period only when it is the current installment; otherwise (the
  // current one was settled in advance) it is an ordinary period on the new balance.
  const inCurrentPeriod = r.rows[0] === r.from;
  const start = r.from === 0 ? r.disbursementDay : r.ledger[r.from - 1]!.dueDay;
  const periodDays = BigInt(current.dueDay - start);
  const restDays = BigInt(current.dueDay - r.valueDay);

  let balance = r.newBalance;
  // The lower installment, unless at the centavo it no longer covers a period's interest and IVA on the new balance
  // (tiny balances at high rates): such an installment would never amortize and the prepayment would raise the total
  // owed, so the installment stays and the term shortens instead.
  const level =
    r.option === 'lower-installment' && balance > 0n
      ? levelInstallment(balance, r.annualRate, r.ivaRateText, r.frequency, rows.length)
      : null;
  const periodInterest = roundHalfUp(balance * periodic.num, periodic.den);
  const installment = level !== null && level > periodInterest + ivaOf(periodInterest) ? level : r.installment;

  // The current row's interest for its period (docs/domain.md, "Payments"): Σ saldo insoluto of each stretch × daily
  // rate × days, rounded once — the stretches before this prepayment on the balances they ran on (the row's `accrual`),
  // the rest of the period on the new balance. What was already paid of it (or waived) is credited.
  const daily = inCurrentPeriod
    ? dailyRate(r.ledger, r.from, r.disbursementDay, { annual, periodsPerYear: PERIODS_PER_YEAR[r.frequency] })
    : null;
  let currentInterest = 0n;
  if (inCurrentPeriod) {
    const before = centDaysTo(r.ledger, r.from, r.disbursementDay, r.valueDay, r.oldBalance);
    current.accrual = { throughDay: Math.min(Math.max(r.valueDay, start), current.dueDay), centDays: before };
    if (daily !== null && periodDays > 0n) currentInterest = roundHalfUp(daily.num * (before + balance * restDays), daily.den);
  }
  // What a row already received of a component (paid in advance, or waived) is credited against it.
  const stillOwed = (inst: LedgerInstallment, c: number, periodTotal: Cents): Cents => {
    const owed = periodTotal - (inst.paid[c] ?? 0n) - (inst.waived[c] ?? 0n);
    return owed > 0n ? owed : 0n;
  };

  for (let k = 0; k < rows.length; k++) {
    const inst = rows[k]!;
    // The period's interest: for the current period, accrued on the old balance plus the rest on the new one.
    const interest = k === 0 && inCurrentPeriod ? currentInterest : roundHalfUp(balance * periodic.num, periodic.den);
    const iva = ivaOf(interest);
    const owedInterest = stillOwed(inst, INTEREST, interest);
    const owedIva = stillOwed(inst, IVA, iva);
    let principal = installment - owedInterest - owedIva;
    if (k === rows.length - 1 || principal > balance) principal = balance;
    else if (principal < 0n) principal = 0n;
    balance -= principal;
    if (k > 0 && principal === 0n && owedInterest === 0n && owedIva === 0n) {
      // A row the shorter term no longer needs: nothing is owed on it, and it is not a payment made.
      inst.cleared = true;
    }
    setOwed(inst, INTEREST, owedInterest);
    setOwed(inst, IVA, owedIva);
    setOwed(inst, PRINCIPAL, principal);
  }
  return installment;
}

function setOwed(inst: LedgerInstallment, c: number, owed: Cents): void {
  inst.charged[c] = (inst.paid[c] ?? 0n) + (inst.waived[c] ?? 0n) + owed;
}

/**
 * Reverts a payment (a reverted payment file): restores exactly the installments as they were before it
 * (docs/domain.md, "Payments"), liquidado included — the credit's status follows what is owed again at the next close.
 * Refused when the credit changed since (a later payment depends on this one: revert that first).
 */
export function revertPayment(input: {
  installments: InstallmentState[];
  payment: Pick<AllocationResult, 'installments' | 'previousInstallments'>;
}): InstallmentState[] {
  if (canonical(input.installments) !== canonical(input.payment.installments)) {
    throw new LendingInputError(
      'PAYMENT_NOT_REVERTIBLE',
      'installments',
      'El crédito cambió después de este pago: revierta primero los pagos posteriores.',
    );
  }
  return copyInstallments(input.payment.previousInstallments);
}

/** A copy deep enough that nobody's later edits reach it: amounts are strings, only `paid` and `waived` are objects. */
function copyInstallments(installments: readonly InstallmentState[]): InstallmentState[] {
  return installments.map((inst) => {
    const copy: InstallmentState = { ...inst };
    if (inst.paid !== undefined) copy.paid = { ...inst.paid };
    if (inst.waived !== undefined) copy.waived = { ...inst.waived };
    return copy;
  });
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
