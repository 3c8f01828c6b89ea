import { describe, expect, it } from 'vitest';
import { nextDiscountDate, payrollCalendar } from './calendar.ts';

describe('payroll calendar', () => {
  it('places the next discount date by frequency', () => {
    expect(nextDiscountDate('quincenal', '2026-11-03')).toBe('2026-11-15');
    expect(nextDiscountDate('quincenal', '2026-11-15')).toBe('2026-11-30');
    expect(nextDiscountDate('quincenal', '2026-02-28')).toBe('2026-03-15');
    expect(nextDiscountDate('mensual', '2026-12-31')).toBe('2027-01-31');
    expect(nextDiscountDate('catorcenal', '2026-11-23')).toBe('2026-12-07');
    expect(payrollCalendar('quincenal', '2026-11-23', 4)).toEqual(['2026-11-30', '2026-12-15', '2026-12-31', '2027-01-15']);
  });

});
