import { scheduleCat } from './cat.ts';
import { parseCivil } from './dates.ts';
import { LendingInputError } from './errors.ts';
import { divRoundHalfUp, formatCents, parseNonNegativeCents, parsePositiveCents, parseRate } from './money.ts';
import { buildSchedule, type Frequency, type Schedule } from './schedule.ts';

/** A loan as quoted to a client: the opening fee financed (added to the principal) or deducted from the disbursement. */
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
  firstDueDate: string;
}

export interface LoanQuote {
  amount: string;
  openingFee: string;
  principal: string;
  netDisbursement: string;
  schedule: Schedule;
  /** Percentage with one decimal, payments without IVA over the net disbursement. */
  cat: string;
}

export function quoteLoan(input: LoanQuoteInput): LoanQuote {
  const amount = parsePositiveCents(input.amount, 'amount');
  const rate = parseRate(input.openingFeeRate, 'openingFeeRate');
  const fee = divRoundHalfUp(amount * rate.num, rate.den);
  const principal = input.openingFeeFinanced ? amount + fee : amount;
  const net = input.openingFeeFinanced ? amount : amount - fee;
  if (net <= 0n) throw new LendingInputError('INVALID_AMOUNT', 'openingFeeRate', 'La comisión por apertura no puede ser igual o mayor que el monto.');
  const schedule = buildSchedule({
    principal: formatCents(principal),
    annualRate: input.annualRate,
    ivaRate: input.ivaRate,
    term: input.term,
    frequency: input.frequency,
    firstDueDate: input.firstDueDate,
  });
  return {
    amount: formatCents(amount),
    openingFee: formatCents(fee),
    principal: formatCents(principal),
    netDisbursement: formatCents(net),
    schedule,
    cat: scheduleCat(schedule, formatCents(net), input.frequency),
  };
}

export interface EligibilityInput extends LoanQuoteInput {
  /** From the CURP. */
  birthDate: string;
  /** Net salary per pay period, pesos. */
  netSalary: string;
  /** Other payroll deductions per period, pesos. */
  otherDeductions: string;
  /** The agreement's cap on deductions, as a fraction of the net salary, e.g. "0.30". */
  maxDeductionRate: string;
  product: { terms: readonly number[]; minAmount: string; maxAmount: string; maxAgeAtEnd: number };
}

export type IneligibilityCode = 'capacity' | 'amount' | 'term' | 'age';

export interface EligibilityResult {
  /** salary × cap − other deductions, rounded half up; negative when other deductions already exceed the cap. */
  capacity: string;
  quote: LoanQuote;
  lastDueDate: string;
  ageAtEnd: number;
  approved: boolean;
  /** Every reason, in Spanish, not only the first. */
  reasons: { code: IneligibilityCode; message: string }[];
}

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
 * The pre-request's verdict (DOMAIN.md, "Pre-request"): payment capacity against the installment, amount and term
 * inside the product, age at the end of the term. Checks on other credits or requests need the database and are the
 * caller's.
 */
export function assessEligibility(input: EligibilityInput): EligibilityResult {
  const salary = parseNonNegativeCents(input.netSalary, 'netSalary');
  const other = parseNonNegativeCents(input.otherDeductions, 'otherDeductions');
  const cap = parseRate(input.maxDeductionRate, 'maxDeductionRate');
  const capacity = divRoundHalfUp(salary * cap.num, cap.den) - other;
  const quote = quoteLoan(input);
  const installment = parsePositiveCents(quote.schedule.installment, 'installment');
  const lastDueDate = quote.schedule.rows[quote.schedule.rows.length - 1]!.dueDate;
  const ageAtEnd = ageOn(input.birthDate, lastDueDate);
  const amount = parsePositiveCents(input.amount, 'amount');
  const min = parsePositiveCents(input.product.minAmount, 'minAmount');
  const max = parsePositiveCents(input.product.maxAmount, 'maxAmount');

  const reasons: EligibilityResult['reasons'] = [];
  if (installment > capacity) {
    reasons.push({
      code: 'capacity',
      message:
        capacity <= 0n
          ? `Sin capacidad de pago: los otros descuentos (${pesos(formatCents(other))}) ya alcanzan el tope del convenio.`
          : `El descuento de ${pesos(quote.schedule.installment)} supera la capacidad de pago de ${pesos(formatCents(capacity))} por periodo.`,
    });
  }
  if (amount < min || amount > max) {
    reasons.push({ code: 'amount', message: `El monto de ${pesos(quote.amount)} está fuera del producto (de ${pesos(formatCents(min))} a ${pesos(formatCents(max))}).` });
  }
  if (!input.product.terms.includes(input.term)) {
    reasons.push({ code: 'term', message: `El plazo de ${input.term} pagos no está permitido; el producto acepta ${input.product.terms.join(', ')}.` });
  }
  if (ageAtEnd > input.product.maxAgeAtEnd) {
    reasons.push({ code: 'age', message: `Al terminar el plazo (${lastDueDate}) tendría ${ageAtEnd} años; el producto permite hasta ${input.product.maxAgeAtEnd}.` });
  }
  return { capacity: formatCents(capacity), quote, lastDueDate, ageAtEnd, approved: reasons.length === 0, reasons };
}
