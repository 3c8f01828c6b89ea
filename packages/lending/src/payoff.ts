import { LendingInputError } from './errors.ts';
import { PERIODS_PER_YEAR, assertFrequency, type Frequency } from './frequency.ts';
import { accrueLateCharges, type LateChargesInput } from './late-charges.ts';
import { allocatePayment } from './allocation.ts';
import { formatDay, parseDay } from './dates.ts';
import { formatCents, maxCents, parseNonNegativeCents, parsePositiveCents, parseRate, type Cents } from './money.ts';
import {
  COMPONENT_INDEX,
  INTEREST,
  IVA,
  PRINCIPAL,
  accruedInterest,
  chargedTotal,
  outstanding,
  outstandingTotal,
  parseIvaRate,
  toLedger,
  type InstallmentState,
} from './ledger.ts';

/**
 * Payoff at a date, liquidación anticipada (docs/domain.md, "Payoff letter").
 *
 *   unpaid principal (all installments)
 * + unpaid interest, IVA, fees and moratory charges of installments already due
 * + current-period interest prorated by days, plus its IVA
 * − amounts in transit (already deducted by the employer, not yet remitted)
 *
 * Future interest is waived. The letter's amount must settle the credit if paid on any day up to its
 * validity date, so everything is evaluated on the validity date: interest is accrued to it, and paying
 * earlier leaves a small sobrepago that is returned (docs/domain.md, "Payoff letter"). When a payroll discount date falls
 * on or after the quote date (a payday's own deduction is still esperado until that day closes) and on or before the
 * validity date, that deduction will still be taken: the letter shows the discount date and the deduction, and nets
 * it out.
 *
 * Moratory interest and late fees are accrued to the validity date too, whatever day closes have run: with
 * `lateCharges` this function accrues them (`accrueLateCharges`); without it the installments must carry them.
 */
export interface PayoffInput {
  /** Principal lent (monto del crédito). */
  creditAmount: string;
  /** The fixed deduction (the schedule's installment). */
  installment: string;
  disbursementDate: string;
  ivaRate: string;
  installments: InstallmentState[];
  /** Deductions the employer already took and has not remitted; not yet applied to the installments. */
  inTransit?: string[];
  /**
   * Installment numbers whose deduction is en tránsito (their money is in `inTransit`): never a deduction still to be
   * taken, and they accrue no late charges (the employer holds the money, not the borrower).
   */
  heldInstallments?: readonly number[];
  /** The quote date: an open business day, whose own deduction (if it is a payday) is still to be taken. */
  quoteDate: string;
  /** Last day the letter's amount holds; defaults to the quote date. */
  validUntil?: string;
  /** The credit's nominal annual rate and frequency: a period a prepayment split accrues by its stretches with them. */
  annualRate?: string;
  frequency?: Frequency;
  /**
   * Late charges to accrue from the day after `accruedThrough` to the validity date, one day at a time as the day
   * closes do (`accrueLateCharges` per day), after each day's pending deductions are applied through the waterfall
   * (`allocatePayment`; needs `annualRate` and `frequency`): what the closes up to the validity date will charge, added
   * to what the installments carry. Omit when
   * the installments already carry their charges to the validity date.
   */
  lateCharges?: Omit<LateChargesInput, 'installments' | 'asOf' | 'ivaRate' | 'inTransit'>;
}

export interface PendingDeduction {
  installment: number;
  discountDate: string;
  amount: string;
}

/** Every arithmetic field of the early-settlement letter, amounts with two decimals. */
export interface PayoffQuote {
  quoteDate: string;
  validUntil: string;
  /** Monto del crédito. */
  creditAmount: string;
  /** Plazo: number of installments. */
  term: number;
  /** Pagos realizados: installments fully settled, not counting rows a prepayment made unnecessary. */
  paymentsMade: number;
  /** Descuento: the fixed deduction. */
  installment: string;
  /** The date the balance below is evaluated at: the validity date. */
  evaluationDate: string;
  outstandingPrincipal: string;
  dueInterest: string;
  dueIva: string;
  dueFees: string;
  dueFeesIva: string;
  dueMoratoryInterest: string;
  dueMoratoryIva: string;
  accruedInterest: string;
  accruedIva: string;
  /** Everything owed on the evaluation date, before transit and pending deductions. */
  grossBalance: string;
  /** En tránsito: sum of deductions taken and not yet remitted. */
  inTransit: string;
  inTransitCount: number;
  /** Saldo final: gross balance − in transit (never below 0.00). */
  finalBalance: string;
  /** Fecha de descuento: the next payroll discount before the validity date, or null. */
  discountDate: string | null;
  /** The deduction(s) that will still be taken before the validity date. */
  pendingDeduction: string;
  pendingDeductions: PendingDeduction[];
  /** Importe total a liquidar: final balance − pending deduction (never below 0.00). */
  totalAmount: string;
  /** Money the lender would owe back if transit plus pending deductions exceed the balance. */
  surplus: string;
}

export function payoffQuote(input: PayoffInput): PayoffQuote {
  const creditAmount = parsePositiveCents(input.creditAmount, 'creditAmount');
  const installment = parseNonNegativeCents(input.installment, 'installment');
  const disbursementDay = parseDay(input.disbursementDate, 'disbursementDate');
  const quoteDay = parseDay(input.quoteDate, 'quoteDate');
  const validDay = input.validUntil === undefined ? quoteDay : parseDay(input.validUntil, 'validUntil');
  if (quoteDay < disbursementDay) {
    throw new LendingInputError(
      'INVALID_DATE_ORDER',
      'quoteDate',
      'La fecha de la cotización no puede ser anterior a la disposición del crédito.',
    );
  }
  if (validDay < quoteDay) {
    throw new LendingInputError(
      'INVALID_DATE_ORDER',
      'validUntil',
      'La vigencia de la carta no puede terminar antes de la fecha de la cotización.',
    );
  }
  const ivaRate = parseIvaRate(input.ivaRate);
  const periodRate =
    input.annualRate !== undefined && input.frequency !== undefined
      ? { annual: parseRate(input.annualRate, 'annualRate'), periodsPerYear: PERIODS_PER_YEAR[assertFrequency(input.frequency)] }
      : undefined;
  const held = new Set(input.heldInstallments ?? []);
  // Deductions still to be taken: unpaid installments due from the quote date (its own deduction stays esperado until
  // the day closes) to the validity date whose deduction is not already en tránsito.
  const isPending = (dueDay: number, number: number) => dueDay >= quoteDay && dueDay <= validDay && !held.has(number);
  const ledger = toLedger(input.installments);
  const transit = (input.inTransit ?? []).map((t, i) => parseNonNegativeCents(t, `inTransit[${i}]`));
  let inTransit = 0n;
  for (const t of transit) inTransit += t;

  const pendingDeductions: PendingDeduction[] = [];
  let pending = 0n;
  const evaluationDay = validDay;
  for (const inst of ledger) {
    if (isPending(inst.dueDay, inst.number)) {
      const owed = outstandingTotal(inst);
      if (owed > 0n) {
        pendingDeductions.push({ installment: inst.number, discountDate: inst.dueDate, amount: formatCents(owed) });
        pending += owed;
      }
    }
  }

  // Late charges to the validity date, as the day closes will charge them: each day's late charges are accrued, one day
  // at a time, each rounded on its own, then the deductions of that day are applied through the waterfall, as their
  // payment file is after the day's close (oldest first: a deduction taken while an older row is late pays that one and
  // leaves its own row late, to run from the next day).
  const late = { moratoryInterest: 0n, moratoryIva: 0n, fees: 0n, feesIva: 0n };
  if (input.lateCharges !== undefined) {
    const from = parseDay(input.lateCharges.accruedThrough, 'lateCharges.accruedThrough');
    if (validDay > from && (input.annualRate === undefined || input.frequency === undefined)) {
      throw new LendingInputError(
        'INVALID_RATE',
        'annualRate',
        'Para acumular los moratorios a la vigencia de la carta se necesitan la tasa y la frecuencia del crédito.',
      );
    }
    const pendingOn = new Map<number, Cents>();
    for (const d of pendingDeductions) {
      const day = parseDay(d.discountDate, 'discountDate');
      pendingOn.set(day, (pendingOn.get(day) ?? 0n) + parseNonNegativeCents(d.amount, 'amount'));
    }
    let simulated = input.installments;
    // The money en tránsito is taken to arrive on the quote date, before its close, and to pay through the waterfall
    // (oldest first): from then on nothing is held, and the rows it did not pay run late like the others.
    let stillHeld = [...held];
    if (inTransit > 0n && input.annualRate !== undefined && input.frequency !== undefined) {
      simulated = allocatePayment({
        amount: formatCents(inTransit),
        valueDate: formatDay(quoteDay),
        disbursementDate: input.disbursementDate,
        ivaRate: input.ivaRate,
        annualRate: input.annualRate,
        frequency: input.frequency,
        installment: input.installment,
        installments: simulated,
      }).installments;
      stillHeld = [];
    }
    for (let day = from + 1; day <= validDay; day++) {
      const charged = accrueLateCharges({
        ...input.lateCharges,
        installments: simulated,
        accruedThrough: formatDay(day - 1),
        asOf: formatDay(day),
        ivaRate: input.ivaRate,
        inTransit: stillHeld,
      });
      simulated = charged.installments;
      late.moratoryInterest += parseNonNegativeCents(charged.moratoryInterest, 'moratoryInterest');
      late.moratoryIva += parseNonNegativeCents(charged.moratoryIva, 'moratoryIva');
      late.fees += parseNonNegativeCents(charged.fees, 'fees');
      late.feesIva += parseNonNegativeCents(charged.feesIva, 'feesIva');
      const deduction = pendingOn.get(day) ?? 0n;
      if (deduction > 0n) {
        simulated = allocatePayment({
          amount: formatCents(deduction),
          valueDate: formatDay(day),
          disbursementDate: input.disbursementDate,
          ivaRate: input.ivaRate,
          annualRate: input.annualRate!,
          frequency: input.frequency!,
          installment: input.installment,
          installments: simulated,
        }).installments;
      }
    }
  }

  const sums = {
    principal: 0n,
    interest: 0n,
    iva: 0n,
    fees: late.fees,
    feesIva: late.feesIva,
    moratoryInterest: late.moratoryInterest,
    moratoryIva: late.moratoryIva,
  };
  let accrued = { interest: 0n, iva: 0n };
  let paymentsMade = 0;
  let currentFound = false;
  for (let k = 0; k < ledger.length; k++) {
    const inst = ledger[k];
    if (inst === undefined) continue;
    if (outstandingTotal(inst) === 0n && chargedTotal(inst) > 0n && !inst.cleared) paymentsMade++;
    sums.principal += outstanding(inst, PRINCIPAL);
    if (inst.dueDay <= evaluationDay) {
      sums.interest += outstanding(inst, INTEREST);
      sums.iva += outstanding(inst, IVA);
      sums.fees += outstanding(inst, COMPONENT_INDEX.fees);
      sums.feesIva += outstanding(inst, COMPONENT_INDEX.feesIva);
      sums.moratoryInterest += outstanding(inst, COMPONENT_INDEX.moratoryInterest);
      sums.moratoryIva += outstanding(inst, COMPONENT_INDEX.moratoryIva);
    } else if (!currentFound) {
      currentFound = true;
      const a = accruedInterest(ledger, k, disbursementDay, evaluationDay, ivaRate, periodRate);
      // Only what is accrued and not yet paid, and never more than is still owed on the installment.
      const clamp = (value: Cents, c: number): Cents => {
        const v = maxCents(0n, value - (inst.paid[c] ?? 0n));
        const o = outstanding(inst, c);
        return v < o ? v : o;
      };
      accrued = { interest: clamp(a.interest, INTEREST), iva: clamp(a.iva, IVA) };
    }
  }

  const gross =
    sums.principal +
    sums.interest +
    sums.iva +
    sums.fees +
    sums.feesIva +
    sums.moratoryInterest +
    sums.moratoryIva +
    accrued.interest +
    accrued.iva;
  const afterTransit = gross - inTransit;
  const finalBalance = maxCents(0n, afterTransit);
  const total = maxCents(0n, afterTransit - pending);
  const surplus = maxCents(0n, inTransit + pending - gross);

  return {
    quoteDate: formatDay(quoteDay),
    validUntil: formatDay(validDay),
    creditAmount: formatCents(creditAmount),
    term: ledger.length,
    paymentsMade,
    installment: formatCents(installment),
    evaluationDate: formatDay(evaluationDay),
    outstandingPrincipal: formatCents(sums.principal),
    dueInterest: formatCents(sums.interest),
    dueIva: formatCents(sums.iva),
    dueFees: formatCents(sums.fees),
    dueFeesIva: formatCents(sums.feesIva),
    dueMoratoryInterest: formatCents(sums.moratoryInterest),
    dueMoratoryIva: formatCents(sums.moratoryIva),
    accruedInterest: formatCents(accrued.interest),
    accruedIva: formatCents(accrued.iva),
    grossBalance: formatCents(gross),
    inTransit: formatCents(inTransit),
    inTransitCount: transit.filter((t) => t > 0n).length,
    finalBalance: formatCents(finalBalance),
    discountDate: pendingDeductions[0]?.discountDate ?? null,
    pendingDeduction: formatCents(pending),
    pendingDeductions,
    totalAmount: formatCents(total),
    surplus: formatCents(surplus),
  };
}
