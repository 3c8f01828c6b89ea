import { describe, expect, it } from 'vitest';
import { mexicoToday } from './business-date';

describe('mexicoToday', () => {
  // A second implementation: Mexico City has been UTC−6 all year since October 2022 (no daylight saving).
  const utcMinus6 = (at: Date) => new Date(at.getTime() - 6 * 3_600_000).toISOString().slice(0, 10);

  it('is the date in Mexico City at every second around its midnight, asked in order and out of order', () => {
    const midnight = Date.parse('2026-11-24T06:00:00Z');
    const seconds = Array.from({ length: 241 }, (_, k) => midnight + (k - 120) * 1_000);
    for (const at of [...seconds, ...[...seconds].reverse(), ...seconds.filter((_, k) => k % 7 === 0)]) {
      expect(mexicoToday(new Date(at)), new Date(at).toISOString()).toBe(utcMinus6(new Date(at)));
    }
  });

  it('turns at the last millisecond of the day', () => {
    expect(mexicoToday(new Date('2026-11-24T05:59:59.999Z'))).toBe('2026-11-23');
    expect(mexicoToday(new Date('2026-11-24T06:00:00.000Z'))).toBe('2026-11-24');
    expect(mexicoToday(new Date('2026-11-24T05:59:59.999Z'))).toBe('2026-11-23');
  });
});
