import { buildSchedule, daysInMonth, divRoundHalfUp, dueDates, formatCents, parseCents, parseRate, scheduleCat, type Schedule } from '@portal/lending';
import { percentToFraction, type PayFrequency } from '@portal/contract';

/** The next payroll discount date after `today` (ISO), as the agreement's frequency places them. */
export function nextDiscountDate(frequency: PayFrequency, today: string): string {
  const [year, month, day] = today.split('-').map(Number) as [number, number, number];
  const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const last = daysInMonth(year, month);
  if (frequency === 'quincenal') {
    if (day < 15) return iso(year, month, 15);
    if (day < last) return iso(year, month, last);
    return month === 12 ? iso(year + 1, 1, 15) : iso(year, month + 1, 15);
  }
  if (frequency === 'mensual') {
    if (day < last) return iso(year, month, last);
    const [nextYear, nextMonth] = month === 12 ? [year + 1, 1] : [year, month + 1];
    return iso(nextYear, nextMonth, daysInMonth(nextYear, nextMonth));
  }
  const step = frequency === 'semanal' ? 7 : 14;
  const date = new Date(Date.UTC(year, month - 1, day + step));
  return date.toISOString().slice(0, 10);
}

/** The next `count` discount dates of the payroll calendar. */
export function payrollCalendar(frequency: PayFrequency, today: string, count = 6): string[] {
  return dueDates(frequency, nextDiscountDate(frequency, today), count);
}

export interface SampleLoan {
  amount: string;
  openingFee: string;
  principal: string;
  netDisbursement: string;
  schedule: Schedule;
  cat: string;
}

/**
 * A sample loan of a product, computed exactly with packages/lending: the opening fee either financed (added to the
 * principal) or deducted from the disbursement; the CAT over the net disbursement.
 */
export function sampleLoan(input: {
  amount: string;
  annualRatePct: string;
  ivaRatePct: string;
  openingFeePct: string;
  openingFeeFinanced: boolean;
  term: number;
  frequency: PayFrequency;
  firstDueDate: string;
}): SampleLoan {
  const amount = parseCents(input.amount, 'amount');
  const rate = parseRate(percentToFraction(input.openingFeePct), 'openingFeePct');
  const fee = divRoundHalfUp(amount * rate.num, rate.den);
  const principal = input.openingFeeFinanced ? amount + fee : amount;
  const net = input.openingFeeFinanced ? amount : amount - fee;
  const schedule = buildSchedule({
    principal: formatCents(principal),
    annualRate: percentToFraction(input.annualRatePct),
    ivaRate: percentToFraction(input.ivaRatePct),
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
