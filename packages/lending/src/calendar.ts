import { daysInMonth, parseCivil } from './dates.ts';
import { dueDates, type Frequency } from './schedule.ts';

/** The first payroll discount date strictly after `today` (ISO), as the frequency places them. */
export function nextDiscountDate(frequency: Frequency, today: string): string {
  const { year, month, day } = parseCivil(today, 'today');
  const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const last = daysInMonth(year, month);
  const [nextYear, nextMonth] = month === 12 ? [year + 1, 1] : [year, month + 1];
  if (frequency === 'quincenal') {
    if (day < 15) return iso(year, month, 15);
    if (day < last) return iso(year, month, last);
    return iso(nextYear, nextMonth, 15);
  }
  if (frequency === 'mensual') return day < last ? iso(year, month, last) : iso(nextYear, nextMonth, daysInMonth(nextYear, nextMonth));
  const date = new Date(Date.UTC(year, month - 1, day + (frequency === 'semanal' ? 7 : 14)));
  return date.toISOString().slice(0, 10);
}

/** The next `count` discount dates of a payroll calendar. */
export function payrollCalendar(frequency: Frequency, today: string, count = 6): string[] {
  return dueDates(frequency, nextDiscountDate(frequency, today), count);
}
