import { LendingInputError } from './errors.ts';
import { civilFromDay, dayFromCivil, daysInMonth, formatCivil, formatDay, parseCivil, parseDay, type DayNumber } from './dates.ts';
import { assertFrequency, type Frequency } from './frequency.ts';

/**
 * The agreement's payroll calendar as data (docs/domain.md, "Payroll calendar").
 *
 * Nominal paydays: quincenal on the 15th and the month's last day; mensual on `payDay`, clamped to each
 * month's end from that anchor (31 = last day: 31 Jan, 28/29 Feb, 31 Mar, 30 Apr…); semanal and
 * catorcenal on `paydayWeekday`, every 7 / 14 days. A nominal payday that falls on a non-working day is
 * paid on the previous working day (the employer pays before a holiday, never after). The first due date
 * is the first payday at least `cutOffLeadDays` after the disbursement: the employer has to register the
 * deduction before its payroll closes.
 */
export interface PayrollCalendar {
  frequency: Frequency;
  /** Mensual: day of the month the employer pays, 1–31; 31 means the month's last day. Default 31. */
  payDay?: number;
  /** Semanal / catorcenal: ISO weekday of the payday, 1 = Monday … 7 = Sunday. Default 5 (Friday). */
  paydayWeekday?: number;
  /** Days the employer needs between the disbursement and the payroll that first deducts. Default 0. */
  cutOffLeadDays?: number;
  /** ISO dates that are not working days for this employer (holidays). */
  nonWorkingDays?: readonly string[];
}

export const DEFAULT_PAYDAY_WEEKDAY = 5;
export const LAST_DAY_OF_MONTH = 31;

function calendarError(field: string, message: string): LendingInputError {
  return new LendingInputError('INVALID_CALENDAR', field, message);
}

interface CheckedCalendar {
  frequency: Frequency;
  payDay: number;
  weekday: number;
  leadDays: number;
  nonWorking: ReadonlySet<DayNumber>;
}

export function checkCalendar(calendar: PayrollCalendar): CheckedCalendar {
  const frequency = assertFrequency(calendar?.frequency);
  const payDay = calendar.payDay ?? LAST_DAY_OF_MONTH;
  if (!Number.isInteger(payDay) || payDay < 1 || payDay > 31) {
    throw calendarError('payDay', 'El día de pago mensual debe ser un entero del 1 al 31 (31 = último día del mes).');
  }
  const weekday = calendar.paydayWeekday ?? DEFAULT_PAYDAY_WEEKDAY;
  if (!Number.isInteger(weekday) || weekday < 1 || weekday > 7) {
    throw calendarError('paydayWeekday', 'El día de pago semanal o catorcenal debe ser de 1 (lunes) a 7 (domingo).');
  }
  const leadDays = calendar.cutOffLeadDays ?? 0;
  if (!Number.isInteger(leadDays) || leadDays < 0 || leadDays > 60) {
    throw calendarError('cutOffLeadDays', 'Los días de anticipación al corte de nómina deben ser un entero de 0 a 60.');
  }
  const nonWorking = new Set((calendar.nonWorkingDays ?? []).map((d, i) => parseDay(d, `nonWorkingDays[${i}]`)));
  return { frequency, payDay, weekday, leadDays, nonWorking };
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a day number; 1970-01-01 was a Thursday. */
export function isoWeekday(day: DayNumber): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

/** Mensual payday of month index `m` (year × 12 + month − 1), clamped from the anchor, never from the previous date. */
function monthlyPayday(monthIndex: number, payDay: number): DayNumber {
  const year = Math.floor(monthIndex / 12);
  const month = (monthIndex % 12) + 1;
  return dayFromCivil(year, month, Math.min(payDay, daysInMonth(year, month)));
}

/** Quincenal payday of half-month index `h` (even = the 15th, odd = the month's last day). */
function halfMonthPayday(half: number): DayNumber {
  const monthIndex = Math.floor(half / 2);
  const year = Math.floor(monthIndex / 12);
  const month = (monthIndex % 12) + 1;
  return dayFromCivil(year, month, half % 2 === 0 ? 15 : daysInMonth(year, month));
}

/** The first nominal payday on or after `from`. */
export function nominalPaydayOnOrAfter(c: CheckedCalendar, from: DayNumber): DayNumber {
  const civil = civilFromDay(from);
  const monthIndex = civil.year * 12 + civil.month - 1;
  switch (c.frequency) {
    case 'quincenal': {
      let half = monthIndex * 2;
      while (halfMonthPayday(half) < from) half++;
      return halfMonthPayday(half);
    }
    case 'mensual': {
      let m = monthIndex;
      while (monthlyPayday(m, c.payDay) < from) m++;
      return monthlyPayday(m, c.payDay);
    }
    default:
      return from + ((c.weekday - isoWeekday(from) + 7) % 7);
  }
}

/** `count` nominal paydays starting at `first` (which must itself be a nominal payday). */
export function nominalPaydays(c: CheckedCalendar, first: DayNumber, count: number): DayNumber[] {
  const days: DayNumber[] = [];
  const civil = civilFromDay(first);
  const monthIndex = civil.year * 12 + civil.month - 1;
  if (c.frequency === 'quincenal') {
    const start = monthIndex * 2 + (civil.day === 15 ? 0 : 1);
    for (let r = 0; r < count; r++) days.push(halfMonthPayday(start + r));
  } else if (c.frequency === 'mensual') {
    for (let r = 0; r < count; r++) days.push(monthlyPayday(monthIndex + r, c.payDay));
  } else {
    const step = c.frequency === 'semanal' ? 7 : 14;
    for (let r = 0; r < count; r++) days.push(first + r * step);
  }
  return days;
}

/**
 * The same paydays written as ISO dates, straight from (year, month, day) without a round trip through day
 * numbers: the hot path of a portfolio rebuild, when no payday has to move.
 */
export function nominalPaydayDates(c: CheckedCalendar, first: DayNumber, count: number): string[] {
  if (c.frequency === 'semanal' || c.frequency === 'catorcenal') return nominalPaydays(c, first, count).map(formatDay);
  const dates = new Array<string>(count);
  const civil = civilFromDay(first);
  const monthIndex = civil.year * 12 + civil.month - 1;
  for (let r = 0; r < count; r++) {
    if (c.frequency === 'quincenal') {
      const half = monthIndex * 2 + (civil.day === 15 ? 0 : 1) + r;
      const m = Math.floor(half / 2);
      const year = Math.floor(m / 12);
      const month = (m % 12) + 1;
      dates[r] = formatCivil(year, month, half % 2 === 0 ? 15 : daysInMonth(year, month));
    } else {
      const m = monthIndex + r;
      const year = Math.floor(m / 12);
      const month = (m % 12) + 1;
      dates[r] = formatCivil(year, month, Math.min(c.payDay, daysInMonth(year, month)));
    }
  }
  return dates;
}

/** The nominal payday just before `payday` in the same series (the start of a regular first period). */
export function previousNominalPayday(c: CheckedCalendar, payday: DayNumber): DayNumber {
  const civil = civilFromDay(payday);
  const monthIndex = civil.year * 12 + civil.month - 1;
  if (c.frequency === 'quincenal') return halfMonthPayday(monthIndex * 2 + (civil.day === 15 ? 0 : 1) - 1);
  if (c.frequency === 'mensual') return monthlyPayday(monthIndex - 1, c.payDay);
  return payday - (c.frequency === 'semanal' ? 7 : 14);
}

/** A payday on a non-working day is paid on the previous working day. */
export function movedPayday(c: CheckedCalendar, nominal: DayNumber): DayNumber {
  let day = nominal;
  while (c.nonWorking.has(day)) day--;
  return day;
}

/**
 * The first due date of a credit disbursed on `disbursementDate`: the first payday (as actually paid,
 * after moving off non-working days) at least `cutOffLeadDays` after the disbursement. Returns the
 * nominal payday too: the schedule's series continues from the nominal date, never from a moved one.
 */
export function firstPayday(calendar: PayrollCalendar, disbursementDate: string): { nominal: string; dueDate: string } {
  const c = checkCalendar(calendar);
  const earliest = parseDay(disbursementDate, 'disbursementDate') + Math.max(c.leadDays, 1);
  let nominal = nominalPaydayOnOrAfter(c, earliest);
  while (movedPayday(c, nominal) < earliest) nominal = nominalPaydays(c, nominal, 2)[1] ?? nominal + 1;
  return { nominal: formatDay(nominal), dueDate: formatDay(movedPayday(c, nominal)) };
}

/** The first payroll discount date strictly after `today`, with no lead days (what the payroll calendar shows). */
export function nextDiscountDate(calendar: Frequency | PayrollCalendar, today: string): string {
  const cal: PayrollCalendar = typeof calendar === 'string' ? { frequency: calendar } : { ...calendar, cutOffLeadDays: 0 };
  return firstPayday(cal, today).dueDate;
}

/** The next `count` discount dates of a payroll calendar, as paid (moved off non-working days). */
export function payrollCalendar(calendar: Frequency | PayrollCalendar, today: string, count = 6): string[] {
  const cal: PayrollCalendar = typeof calendar === 'string' ? { frequency: calendar } : calendar;
  const c = checkCalendar(cal);
  const first = nominalPaydayOnOrAfter(c, parseDay(today, 'today') + 1);
  return nominalPaydays(c, first, count).map((d) => formatDay(movedPayday(c, d)));
}

/** Validates that a written date is a nominal payday of the calendar (used for a schedule's first due date). */
export function assertNominalPayday(c: CheckedCalendar, date: string, field: string): DayNumber {
  const day = parseDay(date, field);
  if (nominalPaydayOnOrAfter(c, day) !== day) {
    const civil = parseCivil(date, field);
    if (c.frequency === 'quincenal') {
      throw new LendingInputError(
        'INVALID_QUINCENAL_DATE',
        field,
        `En un crédito quincenal el primer descuento debe caer el día 15 o el último día del mes; ${date} no lo es.`,
      );
    }
    throw calendarError(
      field,
      `El ${civil.day} no es día de pago del calendario de nómina (${c.frequency}); ${date} no puede ser el primer descuento.`,
    );
  }
  return day;
}
