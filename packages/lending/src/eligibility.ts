import { scheduleCat } from './cat.ts';
import { parseCivil } from './dates.ts';
import { LendingInputError } from './errors.ts';
import { divRoundHalfUp, formatCents, parseNonNegativeCents, parsePositiveCents, parseRate, type Cents } from './money.ts';
import { buildSchedule, type Frequency, type Schedule } from './schedule.ts';

/** A loan as quoted to a client: the opening fee (with its IVA) financed or deducted from the disbursement. */
export interface LoanQuoteInput {
  /** What the client asks for, pesos. */
  amount: string;
  /** Fractions, e.g. "0.36", "0.16", "0.02". */
  annualRate: string;
  ivaRate: string;
  openingFeeRate: string;
  openingFeeFinanced: boolean;
  term: number;
  frequency: Frequency;
  /** A nominal payday of the agreement's calendar (see `firstPayday`). */
  firstDueDate: string;
  /** Mensual pay day (1–31, 31 = last day). */
  payDay?: number;
  nonWorkingDays?: readonly string[];
  /** Disbursement (contracting) date: an irregular first period is then charged by days and the CAT uses actual times. */
  disbursementDate?: string;
}

export interface LoanQuote {
  amount: string;
  /** Opening commission without IVA. */
  openingFee: string;
  /** Its IVA (docs/domain.md, "Origination": fees carry IVA). */
  openingFeeIva: string;
  principal: string;
  netDisbursement: string;
  schedule: Schedule;
  /** Largest payment of the schedule: the last row may exceed the installment by its rounding residue. */
  maxPayment: string;
  /** Percentage with one decimal, payments without IVA over the net disbursement (fee without IVA). */
  cat: string;
}

/**
 * Prices a loan. The opening fee is round(amount × fee rate) and its IVA round(fee × IVA). Financed, fee and
 * IVA are added to the principal; deducted, both come off the disbursement. The CAT excludes IVA (Banxico
 * 21/2009): deducted, over the amount less the fee alone; financed, over the schedule of amount + fee (the fee's IVA
 * left out) against the amount received.
 */
export function quoteLoan(input: LoanQuoteInput): LoanQuote {
  const amount = parsePositiveCents(input.amount, 'amount');
  const rate = parseRate(input.openingFeeRate, 'openingFeeRate');
  const iva = parseRate(input.ivaRate, 'ivaRate');
  const fee = divRoundHalfUp(amount * rate.num, rate.den);
  const feeIva = divRoundHalfUp(fee * iva.num, iva.den);
  const principal = input.openingFeeFinanced ? amount + fee + feeIva : amount;
  const net = input.openingFeeFinanced ? amount : amount - fee - feeIva;
  if (net <= 0n)
    throw new LendingInputError('INVALID_AMOUNT', 'openingFeeRate', 'La comisión por apertura no puede ser igual o mayor que el monto.');
  const scheduleInput = {
    principal: formatCents(principal),
    annualRate: input.annualRate,
    ivaRate: input.ivaRate,
    term: input.term,
    frequency: input.frequency,
    firstDueDate: input.firstDueDate,
    ...(input.payDay !== undefined ? { payDay: input.payDay } : {}),
    ...(input.nonWorkingDays !== undefined ? { nonWorkingDays: input.nonWorkingDays } : {}),
    ...(input.disbursementDate !== undefined ? { disbursementDate: input.disbursementDate } : {}),
  };
  const schedule = buildSchedule(scheduleInput);
  let maxPayment = 0n;
  for (const row of schedule.rows) {
    const payment = parseNonNegativeCents(row.payment, 'payment');
    if (payment > maxPayment) maxPayment = payment;
  }
  // IVA stays out of the CAT in every case (Banxico 21/2009, docs/domain.md "CAT"). Deducted, the client receives the
  // amount less the fee (its IVA left out) and pays the schedule. Financed, the schedule the client pays includes the
  // fee's IVA as principal: the CAT takes the schedule of amount + fee alone against the amount received instead, so a
  // financed and a deducted fee of the same loan give nearly the same CAT.
  const catNet = input.openingFeeFinanced ? amount : amount - fee;
  const catSchedule =
    input.openingFeeFinanced && feeIva > 0n ? buildSchedule({ ...scheduleInput, principal: formatCents(amount + fee) }) : schedule;
  return {
    amount: formatCents(amount),
    openingFee: formatCents(fee),
    openingFeeIva: formatCents(feeIva),
    principal: formatCents(principal),
    netDisbursement: formatCents(net),
    schedule,
    maxPayment: formatCents(maxPayment),
    cat: scheduleCat(catSchedule, formatCents(catNet), input.frequency, input.disbursementDate),
  };
}

export interface EligibilityInput extends LoanQuoteInput {
  /** From the CURP. */
  birthDate: string;
  /** The contracting date: age and the birth date are checked on it. */
  contractDate: string;
  /** Net salary per pay period, pesos. */
  netSalary: string;
  /** Other payroll deductions per period, pesos. */
  otherDeductions: string;
  /** The agreement's cap on deductions, as a fraction of the net salary, e.g. "0.30". */
  maxDeductionRate: string;
  /**
   * The general daily minimum wage in force (CONASAMI fixes it each year; configuration, not code). The pay
   * left after every deduction must not fall below it times the period's days. Omit only where no floor applies.
   */
  dailyMinimumWage?: string;
  product: { terms: readonly number[]; minAmount: string; maxAmount: string; maxAgeAtEnd: number };
}

export type IneligibilityCode = 'capacity' | 'amount' | 'term' | 'age' | 'minimum-age' | 'birth-date' | 'minimum-wage';

export interface EligibilityResult {
  /** round-down(salary × cap) − other deductions; negative when other deductions already exceed the cap. */
  capacity: string;
  quote: LoanQuote;
  lastDueDate: string;
  ageAtEnd: number;
  ageAtContract: number;
  /** Pay left after every deduction in the period with the largest payment. */
  payLeft: string;
  /** The period's minimum wage, when a daily figure was given. */
  minimumWage: string | null;
  approved: boolean;
  /** Every reason, in Spanish, not only the first. */
  reasons: { code: IneligibilityCode; message: string }[];
}

/** Minimum age at contracting (docs/domain.md, "Origination"). */
export const MINIMUM_AGE = 18;

/** Days of pay in a period, as Mexican payroll counts them (a quincena is 15 days, a month 30). */
export const PAY_DAYS_PER_PERIOD: Readonly<Record<Frequency, number>> = { semanal: 7, catorcenal: 14, quincenal: 15, mensual: 30 };

const pesos = (value: string) => {
  const [whole = '0', decimals = '00'] = value.replace('-', '').split('.');
  return `${value.startsWith('-') ? '-' : ''}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${decimals}`;
};

/** Whole years from `birthDate` to `date` (both ISO), as on a birthday calendar. */
export function ageOn(birthDate: string, date: string): number {
  const birth = parseCivil(birthDate, 'birthDate');
  const on = parseCivil(date, 'date');
  const beforeBirthday = on.month < birth.month || (on.month === birth.month && on.day < birth.day);
  return on.year - birth.year - (beforeBirthday ? 1 : 0);
}

/**
 * Payment capacity per period (docs/domain.md, "Origination"): salary × cap, rounded DOWN to the centavo (a half centavo
 * over the cap is over the cap), minus other deductions.
 */
export function paymentCapacity(netSalary: string, maxDeductionRate: string, otherDeductions: string): Cents {
  const salary = parseNonNegativeCents(netSalary, 'netSalary');
  const other = parseNonNegativeCents(otherDeductions, 'otherDeductions');
  const cap = parseRate(maxDeductionRate, 'maxDeductionRate');
  return (salary * cap.num) / cap.den - other;
}

/**
 * The pre-request's verdict (docs/domain.md, "Origination"): every payment (the last included) within capacity, the pay left
 * above the period's minimum wage, amount and term inside the product, at least 18 on the contracting date
 * and at most the product's maximum on the last due date; a birth date after the contracting date is
 * invalid. Checks on other credits or requests need the database and are the caller's.
 */
export function assessEligibility(input: EligibilityInput): EligibilityResult {
  const salary = parseNonNegativeCents(input.netSalary, 'netSalary');
  const other = parseNonNegativeCents(input.otherDeductions, 'otherDeductions');
  const capacity = paymentCapacity(input.netSalary, input.maxDeductionRate, input.otherDeductions);
  const quote = quoteLoan(input);
  const installment = parsePositiveCents(quote.schedule.installment, 'installment');
  const maxPayment = parsePositiveCents(quote.maxPayment, 'maxPayment');
  const lastDueDate = quote.schedule.rows[quote.schedule.rows.length - 1]!.dueDate;
  const ageAtEnd = ageOn(input.birthDate, lastDueDate);
  const ageAtContract = ageOn(input.birthDate, input.contractDate);
  const amount = parsePositiveCents(input.amount, 'amount');
  const min = parsePositiveCents(input.product.minAmount, 'minAmount');
  const max = parsePositiveCents(input.product.maxAmount, 'maxAmount');
  const payLeft = salary - other - maxPayment;
  const minimumWage =
    input.dailyMinimumWage === undefined
      ? null
      : parseNonNegativeCents(input.dailyMinimumWage, 'dailyMinimumWage') * BigInt(PAY_DAYS_PER_PERIOD[input.frequency]);

  const reasons: EligibilityResult['reasons'] = [];
  if (maxPayment > capacity) {
    reasons.push({
      code: 'capacity',
      message:
        capacity <= 0n
          ? `Sin capacidad de pago: los otros descuentos (${pesos(formatCents(other))}) ya alcanzan el tope del convenio.`
          : installment > capacity
            ? `El descuento de ${pesos(quote.schedule.installment)} supera la capacidad de pago de ${pesos(formatCents(capacity))} por periodo.`
            : `El último descuento, de ${pesos(quote.maxPayment)}, supera la capacidad de pago de ${pesos(formatCents(capacity))} por periodo.`,
    });
  }
  if (minimumWage !== null && payLeft < minimumWage) {
    reasons.push({
      code: 'minimum-wage',
      message: `Después de los descuentos le quedarían ${pesos(formatCents(payLeft))}, menos del salario mínimo del periodo (${pesos(formatCents(minimumWage))}).`,
    });
  }
  if (amount < min || amount > max) {
    reasons.push({
      code: 'amount',
      message: `El monto de ${pesos(quote.amount)} está fuera del producto (de ${pesos(formatCents(min))} a ${pesos(formatCents(max))}).`,
    });
  }
  if (!input.product.terms.includes(input.term)) {
    reasons.push({
      code: 'term',
      message: `El plazo de ${input.term} pagos no está permitido; el producto acepta ${input.product.terms.join(', ')}.`,
    });
  }
  if (input.birthDate > input.contractDate) {
    reasons.push({ code: 'birth-date', message: `La fecha de nacimiento ${input.birthDate} es posterior a la fecha de contratación.` });
  } else if (ageAtContract < MINIMUM_AGE) {
    reasons.push({
      code: 'minimum-age',
      message: `Tiene ${ageAtContract} años a la fecha de contratación; la edad mínima es de ${MINIMUM_AGE}.`,
    });
  }
  if (ageAtEnd > input.product.maxAgeAtEnd) {
    reasons.push({
      code: 'age',
      message: `Al terminar el plazo (${lastDueDate}) tendría ${ageAtEnd} años; el producto permite hasta ${input.product.maxAgeAtEnd}.`,
    });
  }
  return {
    capacity: formatCents(capacity),
    quote,
    lastDueDate,
    ageAtEnd,
    ageAtContract,
    payLeft: formatCents(payLeft),
    minimumWage: minimumWage === null ? null : formatCents(minimumWage),
    approved: reasons.length === 0,
    reasons,
  };
}
