import { daysInMonth, dueDates, quoteLoan, type LoanQuote } from '@portal/lending';
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

/** A sample loan of a product as the agreement form shows it: its percentages turned into packages/lending's fractions. */
export function sampleLoan(input: {
  amount: string;
  annualRatePct: string;
  ivaRatePct: string;
  openingFeePct: string;
  openingFeeFinanced: boolean;
  term: number;
  frequency: PayFrequency;
  firstDueDate: string;
}): LoanQuote {
  return quoteLoan({
    amount: input.amount,
    annualRate: percentToFraction(input.annualRatePct),
    ivaRate: percentToFraction(input.ivaRatePct),
    openingFeeRate: percentToFraction(input.openingFeePct),
    openingFeeFinanced: input.openingFeeFinanced,
    term: input.term,
    frequency: input.frequency,
    firstDueDate: input.firstDueDate,
  });
}
