import { LendingInputError } from './errors.ts';

/**
 * Calendar dates as plain day numbers (days since 1970-01-01), with no time of day and no time zone:
 * a discount date is a date on the payroll calendar, never an instant. The conversions are Howard
 * Hinnant's `days_from_civil` / `civil_from_days` algorithms, exact over the proleptic Gregorian calendar.
 */
export type DayNumber = number;

const ISO_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

export function daysInMonth(year: number, month: number): number {
  if (month === 2 && isLeapYear(year)) return 29;
  return MONTH_DAYS[month - 1] ?? 0;
}

export function isRealDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

export function dayFromCivil(year: number, month: number, day: number): DayNumber {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

export function civilFromDay(dayNumber: DayNumber): CivilDate {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

export function formatCivil(year: number, month: number, day: number): string {
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

export function formatDay(dayNumber: DayNumber): string {
  const c = civilFromDay(dayNumber);
  return formatCivil(c.year, c.month, c.day);
}

function digit(value: string, i: number): number {
  const d = value.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : Number.NaN;
}

/** `YYYY-MM-DD` read digit by digit (the hot path of every ledger parse); undefined if not that shape. */
function parseIsoDigits(value: string): CivilDate | undefined {
  if (typeof value !== 'string' || value.length !== 10 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) return undefined;
  const year = digit(value, 0) * 1000 + digit(value, 1) * 100 + digit(value, 2) * 10 + digit(value, 3);
  const month = digit(value, 5) * 10 + digit(value, 6);
  const day = digit(value, 8) * 10 + digit(value, 9);
  return Number.isNaN(year + month + day) ? undefined : { year, month, day };
}

/** Parses a strict ISO calendar date `YYYY-MM-DD` (years 1900–2199) that exists on the calendar. */
export function parseCivil(value: string, field: string): CivilDate {
  const fast = parseIsoDigits(value);
  if (fast !== undefined && fast.year >= 1900 && fast.year <= 2199 && isRealDate(fast.year, fast.month, fast.day)) return fast;
  const m = typeof value === 'string' ? ISO_DATE_RE.exec(value) : null;
  const year = m === null ? 0 : Number(m[1]);
  const month = m === null ? 0 : Number(m[2]);
  const day = m === null ? 0 : Number(m[3]);
  if (m === null || year < 1900 || year > 2199 || !isRealDate(year, month, day)) {
    throw new LendingInputError(
      'INVALID_DATE',
      field,
      `La fecha "${String(value)}" del campo ${field} no es válida: use el formato AAAA-MM-DD con una fecha que exista.`,
    );
  }
  return { year, month, day };
}

export function parseDay(value: string, field: string): DayNumber {
  const c = parseCivil(value, field);
  return dayFromCivil(c.year, c.month, c.day);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return parseDay(to, 'to') - parseDay(from, 'from');
}

export function addDays(date: string, days: number): string {
  return formatDay(parseDay(date, 'date') + days);
}
