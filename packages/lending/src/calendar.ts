import { addDays, daysInMonth, formatCivil, parseCivil } from './dates.ts';
import { dueDates, type Frequency } from './schedule.ts';

/** The first payroll discount date strictly after `today` (ISO), as the frequency places them. */
export function nextDiscountDate(frequency: Frequency, today: string): string {
  const { year, month, day } = parseCivil(today, 'today');
  const last = daysInMonth(year, month);
  const [nextYear, nextMonth] = month === 12 ? [year + 1, 1] : [year, month + 1];
  if (frequency === 'quincenal') {
    if (day < 15) return formatCivil(year, month, 15);
    if (day < last) return formatCivil(year, month, last);
    return formatCivil(nextYear, nextMonth, 15);
  }
  if (frequency === 'mensual') return day < last ? formatCivil(year, month, last) : formatCivil(nextYear, nextMonth, daysInMonth(nextYear, nextMonth));
  return addDays(today, frequency === 'semanal' ? 7 : 14);
}

/** The next `count` discount dates of a payroll calendar. */
export function payrollCalendar(frequency: Frequency, today: string, count = 6): string[] {
  return dueDates(frequency, nextDiscountDate(frequency, today), count);
}
