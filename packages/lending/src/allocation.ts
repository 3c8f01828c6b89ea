import { LendingInputError } from './errors.ts';
import { parseDay } from './dates.ts';
import { formatCents, minCents, parsePositiveCents, type Cents } from './money.ts';
import {
  COMPONENT_COUNT,
  COMPONENT_INDEX,
  DEFAULT_COMPONENT_ORDER,
  INTEREST,
  IVA,
  PRINCIPAL,
  accruedInterest,
  fromLedger,
  outstanding,
  parseIvaRate,
  toLedger,
  type Component,
  type InstallmentState,
  type LedgerInstallment,
} from './ledger.ts';

/**
 * Payment allocation, the waterfall (DOMAIN.md, Algorithms §2).
 *
 * 1. Installments already due on the value date, oldest first; inside each, the components in
 *    `componentOrder` (default: moratory interest, its IVA, fees, their IVA, interest, IVA, principal).
 * 2. What is left is an advance payment. It first covers the interest (and its IVA) that the current
 *    period has accrued up to the value date, which is owed anyway;
 * 3. then the principal of the installments not yet due, **last installment first**: the deduction
 *    amount stays the same and the term shortens. An installment whose principal is fully prepaid has
 *    its future interest and IVA waived, since no balance is left to earn it.
 * 4. Once no principal and nothing due is left the credit is paid off (liquidado): the rest of the
 *    current period's interest is waived, and any money still left is a sobrepago, reported in
 *    `overpayment` and never swallowed.
 *
 * The function never creates or loses a centavo: the lines plus the overpayment add up to the amount.
 */
export interface AllocationInput {
  /** Amount received, pesos. */
  amount: string;
  /** Value date of the payment (for a payroll deduction, its discount date). */
  valueDate: string;
  disbursementDate: string;
  ivaRate: string;
  installments: InstallmentState[];
  /** Waterfall inside an installment; a permutation of every component. */
  componentOrder?: readonly Component[];
}

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
    throw new LendingInputError('INVALID_DATE_ORDER', 'valueDate', 'La fecha valor del pago no puede ser anterior a la disposición del crédito.');
  }
  const ivaRate = parseIvaRate(input.ivaRate);
  const ledger = toLedger(input.installments);

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
    const accrued = accruedInterest(ledger, firstFuture, disbursementDay, valueDay, ivaRate);
    pay(current, INTEREST, accrued.interest - (current.paid[INTEREST] ?? 0n), 'accrued');
    pay(current, IVA, accrued.iva - (current.paid[IVA] ?? 0n), 'accrued');
  }

  // 3. Principal of future installments, last first; a fully prepaid installment's interest is waived.
  for (let k = ledger.length - 1; k >= firstFuture && remaining > 0n; k--) {
    const inst = ledger[k];
    if (inst === undefined) continue;
    pay(inst, PRINCIPAL, remaining, 'prepayment');
    if (k !== firstFuture && outstanding(inst, PRINCIPAL) === 0n) {
      for (let c = 0; c < COMPONENT_COUNT; c++) waive(inst, c);
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
  };
}
