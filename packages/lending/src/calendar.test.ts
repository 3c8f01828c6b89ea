import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { firstPayday, isoWeekday, nextDiscountDate, payrollCalendar } from './calendar.ts';
import { daysInMonth, formatCivil, parseDay } from './dates.ts';
import { dueDates } from './schedule.ts';

describe('payroll calendar', () => {
  it('places the next discount date by frequency', () => {
    expect(nextDiscountDate('quincenal', '2026-11-03')).toBe('2026-11-15');
    expect(nextDiscountDate('quincenal', '2026-11-15')).toBe('2026-11-30');
    expect(nextDiscountDate('quincenal', '2026-02-28')).toBe('2026-03-15');
    expect(nextDiscountDate('mensual', '2026-12-31')).toBe('2027-01-31');
    // 2026-11-23 is a Monday (ISO 8601 calendar); the default payday weekday is Friday → 2026-11-27.
    expect(nextDiscountDate('catorcenal', '2026-11-23')).toBe('2026-11-27');
    expect(payrollCalendar('quincenal', '2026-11-23', 4)).toEqual(['2026-11-30', '2026-12-15', '2026-12-31', '2027-01-15']);
  });

  it('issue 13 #3: a mensual credit disbursed 2025-02-10 falls due on the paydays 02-28, 03-31, 04-30', () => {
    const calendar = { frequency: 'mensual' as const, payDay: 31 };
    const first = firstPayday(calendar, '2025-02-10');
    expect(first).toEqual({ nominal: '2025-02-28', dueDate: '2025-02-28' });
    // Calendar facts: February 2025 has 28 days, March 31, April 30, May 31, June 30.
    expect(dueDates('mensual', first.nominal, 5, { payDay: 31 })).toEqual([
      '2025-02-28',
      '2025-03-31',
      '2025-04-30',
      '2025-05-31',
      '2025-06-30',
    ]);
    expect(payrollCalendar(calendar, '2025-02-10', 3)).toEqual(['2025-02-28', '2025-03-31', '2025-04-30']);
  });

  it('issue 13 #4: semanal and catorcenal pay on the agreement weekday; the first discount honours the cut-off lead days', () => {
    // 2025-01-14 is a Tuesday. Friday payroll (5), 5 lead days: the first Friday on or after 2025-01-19 is 2025-01-24.
    const catorcenal = { frequency: 'catorcenal' as const, paydayWeekday: 5, cutOffLeadDays: 5 };
    const first = firstPayday(catorcenal, '2025-01-14');
    expect(first.dueDate).toBe('2025-01-24');
    // Whatever the disbursement day, the first discount is always a Friday.
    for (const d of ['2025-01-13', '2025-01-15', '2025-01-16', '2025-01-17', '2025-01-18']) {
      expect(isoWeekday(parseDay(firstPayday(catorcenal, d).dueDate, 'd'))).toBe(5);
    }
    expect(dueDates('catorcenal', first.nominal, 3)).toEqual(['2025-01-24', '2025-02-07', '2025-02-21']);
    // Quincenal, 5 lead days from 2025-01-14: the 15th is too close, so the first discount is 2025-01-31.
    expect(firstPayday({ frequency: 'quincenal', cutOffLeadDays: 5 }, '2025-01-14').dueDate).toBe('2025-01-31');
  });

  it('a payday on a non-working day is paid the previous working day; the series does not move', () => {
    // Quincenal paydays 2025-12-15 and 2025-12-31; the employer declares 12-31 non-working, so it pays on 12-30.
    const calendar = { frequency: 'quincenal' as const, nonWorkingDays: ['2025-12-31'] };
    expect(payrollCalendar(calendar, '2025-12-10', 3)).toEqual(['2025-12-15', '2025-12-30', '2026-01-15']);
    expect(dueDates('quincenal', '2025-12-15', 3, { nonWorkingDays: ['2025-12-31'] })).toEqual(['2025-12-15', '2025-12-30', '2026-01-15']);
  });

  it('property: mensual due dates are always the pay day clamped in each month, never carried from the previous date', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2020, max: 2040 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 1, max: 60 }),
        (year, month, payDay, count) => {
          const first = formatCivil(year, month, Math.min(payDay, daysInMonth(year, month)));
          const dates = dueDates('mensual', first, count, { payDay });
          return dates.every((date, k) => {
            const m = month - 1 + k;
            const y = year + Math.floor(m / 12);
            const mm = (m % 12) + 1;
            // Reference: the anchor clamped to that month's length, computed here from the month count alone.
            return date === formatCivil(y, mm, Math.min(payDay, daysInMonth(y, mm)));
          });
        },
      ),
      { numRuns: 1000 },
    );
  });
});
