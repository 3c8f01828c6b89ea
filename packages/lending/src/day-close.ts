import { LendingInputError } from './errors.ts';
import { formatDay, parseDay } from './dates.ts';
import { agingBucket, isPastDueCredit, type AgingBucket } from './aging.ts';
import { outstandingTotal, toLedger, type InstallmentState, type LedgerInstallment } from './ledger.ts';

/**
 * The day close, cierre de día, on the fecha flujo (docs/domain.md, "Day close and aging").
 *
 * Closing business date D:
 * - installments with a due date on or before D and money still owed are due (`newlyDue` lists those
 *   whose due date is D itself);
 * - days past due are counted on D and bucketed (1–30, 31–60, 61–89, 90+), skipping installments whose
 *   deduction is en tránsito (the employer holds that money, not the borrower);
 * - a credit at 90 or more days past due is vencido, a credit with nothing owed is liquidado, any other
 *   is vigente (a liquidado credit owes again after a reverted payment, and returns to vigente/vencido);
 * - an expected deduction whose discount date is on or before D goes from esperado to en tránsito; one
 *   still en tránsito when D − discount date exceeds the agreement's remittance lag becomes no aplicado
 *   (lag 0 means the same day: en tránsito on the discount date only). Recibido and no aplicado are
 *   never changed by a close: only a payment moves them;
 * - the business date advances to D + 1.
 *
 * Every rule is a function of (state, D) that is monotone in the state, so closing the same day twice
 * gives the same result, and closing a range replays the missed days in order (`closeBusinessDays`).
 */
export type CreditStatus = 'vigente' | 'vencido' | 'liquidado';
export type DeductionState = 'esperado' | 'en-transito' | 'recibido' | 'no-aplicado';
export type InstallmentStatus = 'paid' | 'due' | 'upcoming';

export interface DayCloseCredit {
  id: string;
  status: CreditStatus;
  installments: InstallmentState[];
}

export interface ExpectedDeduction {
  id: string;
  creditId?: string;
  discountDate: string;
  /** Days the agreement's employer has to remit after the discount date. */
  remittanceLagDays: number;
  /** The installment this deduction pays; without it the deduction is matched by its discount date. */
  installment?: number;
  state: DeductionState;
}

export interface DayCloseInput {
  /** The business date being closed (fecha flujo). */
  businessDate: string;
  credits: DayCloseCredit[];
  deductions: ExpectedDeduction[];
}

export interface ClosedCredit {
  id: string;
  status: CreditStatus;
  previousStatus: CreditStatus;
  daysPastDue: number;
  agingBucket: AgingBucket;
  installmentStatuses: Array<{ number: number; status: InstallmentStatus }>;
  /** Installments whose due date is the closed day and that are still owed. */
  newlyDue: number[];
}

export interface ClosedDeduction extends ExpectedDeduction {
  previousState: DeductionState;
}

export interface DayCloseResult {
  closedDate: string;
  nextBusinessDate: string;
  credits: ClosedCredit[];
  deductions: ClosedDeduction[];
}

const DEDUCTION_RANK: Readonly<Record<DeductionState, number>> = {
  esperado: 0,
  'en-transito': 1,
  'no-aplicado': 2,
  recibido: 3,
};

/** The state an expected deduction has after closing day `day`. */
/**
 * A deduction is en tránsito from its discount date through discount date + lag (lag 0: only the discount
 * date itself, "the same day"), and no aplicado once a close runs past that without a payment.
 */
export function deductionStateAfterClose(deduction: ExpectedDeduction, day: number): DeductionState {
  const { state } = deduction;
  if (state === 'recibido' || state === 'no-aplicado') return state;
  const lag = deduction.remittanceLagDays;
  if (!Number.isInteger(lag) || lag < 0) {
    throw new LendingInputError('INVALID_REMITTANCE_LAG', 'remittanceLagDays', 'Los días de remisión deben ser un entero de cero o más.');
  }
  const discountDay = parseDay(deduction.discountDate, 'discountDate');
  if (day < discountDay) return state;
  return day - discountDay > lag ? 'no-aplicado' : 'en-transito';
}

interface ParsedCredit {
  credit: DayCloseCredit;
  ledger: LedgerInstallment[];
}

function parseCredits(credits: readonly DayCloseCredit[]): ParsedCredit[] {
  return credits.map((credit) => ({ credit, ledger: toLedger(credit.installments, `credits[${credit.id}].installments`) }));
}

/** Per credit, the installments whose deduction is en tránsito after the close: they do not age the credit. */
function inTransitByCredit(deductions: readonly ExpectedDeduction[]): Map<string, { numbers: Set<number>; dates: Set<string> }> {
  const map = new Map<string, { numbers: Set<number>; dates: Set<string> }>();
  for (const d of deductions) {
    if (d.state !== 'en-transito' || d.creditId === undefined) continue;
    let entry = map.get(d.creditId);
    if (entry === undefined) map.set(d.creditId, (entry = { numbers: new Set(), dates: new Set() }));
    if (d.installment !== undefined) entry.numbers.add(d.installment);
    else entry.dates.add(d.discountDate);
  }
  return map;
}

function closeCredit(
  { credit, ledger }: ParsedCredit,
  status: CreditStatus,
  day: number,
  inTransit?: { numbers: Set<number>; dates: Set<string> },
): ClosedCredit {
  let oldestLate: number | undefined;
  let owed = false;
  const newlyDue: number[] = [];
  const installmentStatuses = ledger.map((inst) => {
    const left = outstandingTotal(inst) > 0n;
    if (left) owed = true;
    const held = inTransit !== undefined && (inTransit.numbers.has(inst.number) || inTransit.dates.has(inst.dueDate));
    if (left && !held && inst.dueDay < day && oldestLate === undefined) oldestLate = inst.dueDay;
    if (left && inst.dueDay === day) newlyDue.push(inst.number);
    const s: InstallmentStatus = !left ? 'paid' : inst.dueDay <= day ? 'due' : 'upcoming';
    return { number: inst.number, status: s };
  });
  const dpd = oldestLate === undefined ? 0 : day - oldestLate;
  let next: CreditStatus;
  // Status follows what is owed: a liquidado credit whose payment was reverted owes again (docs/domain.md, "Payments").
  if (!owed) next = 'liquidado';
  else next = isPastDueCredit(dpd) ? 'vencido' : 'vigente';
  return {
    id: credit.id,
    status: next,
    previousStatus: status,
    daysPastDue: next === 'liquidado' ? 0 : dpd,
    agingBucket: next === 'liquidado' ? 'current' : agingBucket(dpd),
    installmentStatuses,
    newlyDue,
  };
}

function closeDeductions(deductions: readonly ExpectedDeduction[], day: number): ClosedDeduction[] {
  return deductions.map((d): ClosedDeduction => {
    const next = deductionStateAfterClose(d, day);
    // Never move a deduction backwards (a close cannot undo a payment or a later close).
    const state = DEDUCTION_RANK[next] >= DEDUCTION_RANK[d.state] ? next : d.state;
    return { ...d, state, previousState: d.state };
  });
}

export function closeBusinessDay(input: DayCloseInput): DayCloseResult {
  const day = parseDay(input.businessDate, 'businessDate');
  const deductions = closeDeductions(input.deductions, day);
  const transit = inTransitByCredit(deductions);
  const credits = parseCredits(input.credits).map((p) => closeCredit(p, p.credit.status, day, transit.get(p.credit.id)));
  return { closedDate: formatDay(day), nextBusinessDate: formatDay(day + 1), credits, deductions };
}

/**
 * The days a close must process to bring the business date from `lastClosedDate` through
 * `throughDate`, in order. Empty when the day was already closed (re-running is harmless).
 */
export function daysToClose(lastClosedDate: string, throughDate: string): string[] {
  const from = parseDay(lastClosedDate, 'lastClosedDate');
  const to = parseDay(throughDate, 'throughDate');
  const days: string[] = [];
  for (let d = from + 1; d <= to; d++) days.push(formatDay(d));
  return days;
}

export interface CloseRangeInput {
  lastClosedDate: string;
  throughDate: string;
  credits: DayCloseCredit[];
  deductions: ExpectedDeduction[];
}

export interface CloseRangeResult {
  closedDates: string[];
  /** Business date after the last close (lastClosedDate + 1 when nothing was closed). */
  nextBusinessDate: string;
  credits: DayCloseCredit[];
  deductions: ExpectedDeduction[];
  /** One result per closed day, in order. */
  days: DayCloseResult[];
}

/** Replays every missed day in order, threading credit statuses and deduction states through. */
export function closeBusinessDays(input: CloseRangeInput): CloseRangeResult {
  const dates = daysToClose(input.lastClosedDate, input.throughDate);
  // Installments do not change during a close: parse them once for the whole range.
  const parsed = parseCredits(input.credits);
  const statuses = input.credits.map((c) => c.status);
  let deductions: ExpectedDeduction[] = input.deductions;
  const days: DayCloseResult[] = [];
  for (const businessDate of dates) {
    const day = parseDay(businessDate, 'businessDate');
    const closed = closeDeductions(deductions, day);
    const transit = inTransitByCredit(closed);
    const credits = parsed.map((p, i) => closeCredit(p, statuses[i] ?? p.credit.status, day, transit.get(p.credit.id)));
    credits.forEach((c, i) => (statuses[i] = c.status));
    deductions = closed.map(({ previousState: _previous, ...d }) => d);
    days.push({ closedDate: businessDate, nextBusinessDate: formatDay(day + 1), credits, deductions: closed });
  }
  const next = days.at(-1)?.nextBusinessDate ?? formatDay(parseDay(input.lastClosedDate, 'lastClosedDate') + 1);
  return {
    closedDates: dates,
    nextBusinessDate: next,
    credits: input.credits.map((c, i) => ({ ...c, status: statuses[i] ?? c.status })),
    deductions,
    days,
  };
}
