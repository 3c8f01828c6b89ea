import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeCat, periodicIrr, scheduleCat } from './cat.ts';
import { LendingInputError } from './errors.ts';
import { buildSchedule } from './schedule.ts';

describe('computeCat', () => {
  it('the issue example: 10,000.00 at 36 % quincenal for 24 fortnights is 43.0 % (1.015^24 − 1 = 42.95 %)', () => {
    const schedule = buildSchedule({
      principal: '10000.00',
      annualRate: '0.36',
      ivaRate: '0.16',
      term: 24,
      frequency: 'quincenal',
      firstDueDate: '2024-01-15',
    });
    expect(scheduleCat(schedule, '10000.00', 'quincenal')).toBe('43.0');
    // The same with the payments written out (principal + interest, without IVA).
    const payments = schedule.rows.map((r) =>
      (BigInt(r.principal.replace('.', '')) + BigInt(r.interest.replace('.', ''))).toString().replace(/(\d\d)$/, '.$1'),
    );
    expect(computeCat({ netDisbursement: '10000.00', payments, periodsPerYear: 24 })).toBe('43.0');
  });

  it('an opening fee deducted from the disbursement raises the CAT', () => {
    const schedule = buildSchedule({
      principal: '10000.00',
      annualRate: '0.36',
      ivaRate: '0.16',
      term: 24,
      frequency: 'quincenal',
      firstDueDate: '2024-01-15',
    });
    expect(Number(scheduleCat(schedule, '9700.00', 'quincenal'))).toBeGreaterThan(43);
  });

  it.each([
    [{ netDisbursement: '1000.00', payments: ['1100.00'], periodsPerYear: 1 }, '10.0', 'one year, 10 %'],
    [{ netDisbursement: '1000.00', payments: ['1000.00'], periodsPerYear: 12 }, '0.0', 'no cost'],
    [{ netDisbursement: '1000.00', payments: ['1010.00'], periodsPerYear: 12 }, '12.7', '1 % a month: 1.01^12 − 1 = 12.68 %'],
    [{ netDisbursement: '1000.00', payments: ['990.00'], periodsPerYear: 1 }, '-1.0', 'paying back less than received'],
    [{ netDisbursement: '100.00', payments: ['0.00', '121.00'], periodsPerYear: 1 }, '10.0', 'a zero payment still counts as a period'],
    [{ netDisbursement: '1000.00', payments: ['1000.50'], periodsPerYear: 1 }, '0.1', '0.05 % rounds half up to 0.1'],
    [{ netDisbursement: '1000.00', payments: ['1000.49'], periodsPerYear: 1 }, '0.0', '0.049 % rounds down'],
    [{ netDisbursement: '76598.14', payments: ['0.01'], periodsPerYear: 1 }, '-100.0', 'almost nothing paid back'],
  ])('%o → %s (%s)', (input, expected) => {
    expect(computeCat(input)).toBe(expected);
  });

  it.each([
    [{ netDisbursement: '0.00', payments: ['1.00'], periodsPerYear: 12 }, 'NON_POSITIVE_AMOUNT'],
    [{ netDisbursement: '100.00', payments: [], periodsPerYear: 12 }, 'INVALID_PAYMENTS'],
    [{ netDisbursement: '100.00', payments: ['0.00'], periodsPerYear: 12 }, 'INVALID_PAYMENTS'],
    [{ netDisbursement: '100.00', payments: ['-5.00'], periodsPerYear: 12 }, 'NEGATIVE_AMOUNT'],
    [{ netDisbursement: '100.00', payments: ['50.00'], periodsPerYear: 0 }, 'INVALID_PERIODS_PER_YEAR'],
    [{ netDisbursement: '100.00', payments: ['50.00'], periodsPerYear: 12.5 }, 'INVALID_PERIODS_PER_YEAR'],
  ])('refuses %o with %s', (input, code) => {
    let caught: unknown;
    try {
      computeCat(input);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(LendingInputError);
    expect((caught as LendingInputError).code).toBe(code);
  });

  it('property: the IRR found discounts the payments back to the disbursement', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10_000, max: 10_000_000 }),
        fc.array(fc.integer({ min: 0, max: 2_000_000 }), { minLength: 1, maxLength: 60 }),
        (net, payments) => {
          fc.pre(payments.some((p) => p > 0));
          const r = periodicIrr(net, payments);
          let pv = 0;
          payments.forEach((p, t) => (pv += p / Math.pow(1 + r, t + 1)));
          return Number.isFinite(r) && Math.abs(pv - net) / net < 1e-6;
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('property: a higher rate never gives a lower CAT', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 100 }), (bp, extra) => {
        const input = (rate: number) => ({
          principal: '5000.00',
          annualRate: (rate / 1000).toFixed(3),
          ivaRate: '0.16',
          term: 12,
          frequency: 'mensual' as const,
          firstDueDate: '2025-01-31',
        });
        const low = scheduleCat(buildSchedule(input(bp)), '5000.00', 'mensual');
        const high = scheduleCat(buildSchedule(input(bp + extra)), '5000.00', 'mensual');
        return Number(high) >= Number(low);
      }),
      { numRuns: 1000 },
    );
  });
});
