import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LendingInputError } from './errors.ts';
import { buildSchedule, dueDates, type ScheduleInput } from './schedule.ts';
import { quoteLoan } from './eligibility.ts';
import { cents, scheduleInputArb } from './test-support.ts';
import { formatDay, parseDay } from './dates.ts';

type Golden = Array<[number, string, string, string, string, string, string]>;

/*
 * Golden tables: every row of one loan per frequency. They were cross-checked against an independent
 * implementation (Python fractions and datetime). Reading a row by hand, e.g. quincenal row 2:
 * 9660.73 × 0.36 / 24 = 144.91095 → 144.91; IVA 144.91 × 0.16 = 23.1856 → 23.19;
 * principal 513.27 − 144.91 − 23.19 = 345.17; balance 9660.73 − 345.17 = 9315.56.
 * A change in rounding shows up here as a diff.
 */
const SEMANAL_INPUT: ScheduleInput = {
  principal: '3000.00',
  annualRate: '0.52',
  ivaRate: '0.16',
  term: 12,
  frequency: 'semanal',
  firstDueDate: '2024-03-01',
};
const SEMANAL_INSTALLMENT = '269.25';
// number, dueDate, principal, interest, iva, payment, balance
const SEMANAL_ROWS: Golden = [
  [1, '2024-03-01', '234.45', '30.00', '4.80', '269.25', '2765.55'],
  [2, '2024-03-08', '237.16', '27.66', '4.43', '269.25', '2528.39'],
  [3, '2024-03-15', '239.93', '25.28', '4.04', '269.25', '2288.46'],
  [4, '2024-03-22', '242.71', '22.88', '3.66', '269.25', '2045.75'],
  [5, '2024-03-29', '245.52', '20.46', '3.27', '269.25', '1800.23'],
  [6, '2024-04-05', '248.37', '18.00', '2.88', '269.25', '1551.86'],
  [7, '2024-04-12', '251.25', '15.52', '2.48', '269.25', '1300.61'],
  [8, '2024-04-19', '254.16', '13.01', '2.08', '269.25', '1046.45'],
  [9, '2024-04-26', '257.12', '10.46', '1.67', '269.25', '789.33'],
  [10, '2024-05-03', '260.10', '7.89', '1.26', '269.25', '529.23'],
  [11, '2024-05-10', '263.11', '5.29', '0.85', '269.25', '266.12'],
  [12, '2024-05-17', '266.12', '2.66', '0.43', '269.21', '0.00'],
];

const CATORCENAL_INPUT: ScheduleInput = {
  principal: '8000.00',
  annualRate: '0.39',
  ivaRate: '0.16',
  term: 10,
  frequency: 'catorcenal',
  firstDueDate: '2024-02-16',
};
const CATORCENAL_INSTALLMENT = '878.54';
// number, dueDate, principal, interest, iva, payment, balance
const CATORCENAL_ROWS: Golden = [
  [1, '2024-02-16', '739.34', '120.00', '19.20', '878.54', '7260.66'],
  [2, '2024-03-01', '752.20', '108.91', '17.43', '878.54', '6508.46'],
  [3, '2024-03-15', '765.29', '97.63', '15.62', '878.54', '5743.17'],
  [4, '2024-03-29', '778.61', '86.15', '13.78', '878.54', '4964.56'],
  [5, '2024-04-12', '792.15', '74.47', '11.92', '878.54', '4172.41'],
  [6, '2024-04-26', '805.94', '62.59', '10.01', '878.54', '3366.47'],
  [7, '2024-05-10', '819.96', '50.50', '8.08', '878.54', '2546.51'],
  [8, '2024-05-24', '834.23', '38.20', '6.11', '878.54', '1712.28'],
  [9, '2024-06-07', '848.75', '25.68', '4.11', '878.54', '863.53'],
  [10, '2024-06-21', '863.53', '12.95', '2.07', '878.55', '0.00'],
];

const QUINCENAL_INPUT: ScheduleInput = {
  principal: '10000.00',
  annualRate: '0.36',
  ivaRate: '0.16',
  term: 24,
  frequency: 'quincenal',
  firstDueDate: '2024-01-15',
};
const QUINCENAL_INSTALLMENT = '513.27';
// number, dueDate, principal, interest, iva, payment, balance
const QUINCENAL_ROWS: Golden = [
  [1, '2024-01-15', '339.27', '150.00', '24.00', '513.27', '9660.73'],
  [2, '2024-01-31', '345.17', '144.91', '23.19', '513.27', '9315.56'],
  [3, '2024-02-15', '351.18', '139.73', '22.36', '513.27', '8964.38'],
  [4, '2024-02-29', '357.28', '134.47', '21.52', '513.27', '8607.10'],
  [5, '2024-03-15', '363.50', '129.11', '20.66', '513.27', '8243.60'],
  [6, '2024-03-31', '369.84', '123.65', '19.78', '513.27', '7873.76'],
  [7, '2024-04-15', '376.26', '118.11', '18.90', '513.27', '7497.50'],
  [8, '2024-04-30', '382.82', '112.46', '17.99', '513.27', '7114.68'],
  [9, '2024-05-15', '389.47', '106.72', '17.08', '513.27', '6725.21'],
  [10, '2024-05-31', '396.25', '100.88', '16.14', '513.27', '6328.96'],
  [11, '2024-06-15', '403.15', '94.93', '15.19', '513.27', '5925.81'],
  [12, '2024-06-30', '410.16', '88.89', '14.22', '513.27', '5515.65'],
  [13, '2024-07-15', '417.30', '82.73', '13.24', '513.27', '5098.35'],
  [14, '2024-07-31', '424.55', '76.48', '12.24', '513.27', '4673.80'],
  [15, '2024-08-15', '431.94', '70.11', '11.22', '513.27', '4241.86'],
  [16, '2024-08-31', '439.46', '63.63', '10.18', '513.27', '3802.40'],
  [17, '2024-09-15', '447.10', '57.04', '9.13', '513.27', '3355.30'],
  [18, '2024-09-30', '454.89', '50.33', '8.05', '513.27', '2900.41'],
  [19, '2024-10-15', '462.80', '43.51', '6.96', '513.27', '2437.61'],
  [20, '2024-10-31', '470.86', '36.56', '5.85', '513.27', '1966.75'],
  [21, '2024-11-15', '479.05', '29.50', '4.72', '513.27', '1487.70'],
  [22, '2024-11-30', '487.38', '22.32', '3.57', '513.27', '1000.32'],
  [23, '2024-12-15', '495.87', '15.00', '2.40', '513.27', '504.45'],
  [24, '2024-12-31', '504.45', '7.57', '1.21', '513.23', '0.00'],
];

const MENSUAL_INPUT: ScheduleInput = {
  principal: '25000.00',
  annualRate: '0.30',
  ivaRate: '0.16',
  term: 12,
  frequency: 'mensual',
  firstDueDate: '2024-01-31',
};
const MENSUAL_INSTALLMENT = '2496.58';
// number, dueDate, principal, interest, iva, payment, balance
const MENSUAL_ROWS: Golden = [
  [1, '2024-01-31', '1771.58', '625.00', '100.00', '2496.58', '23228.42'],
  [2, '2024-02-29', '1822.96', '580.71', '92.91', '2496.58', '21405.46'],
  [3, '2024-03-31', '1875.82', '535.14', '85.62', '2496.58', '19529.64'],
  [4, '2024-04-30', '1930.22', '488.24', '78.12', '2496.58', '17599.42'],
  [5, '2024-05-31', '1986.19', '439.99', '70.40', '2496.58', '15613.23'],
  [6, '2024-06-30', '2043.80', '390.33', '62.45', '2496.58', '13569.43'],
  [7, '2024-07-31', '2103.06', '339.24', '54.28', '2496.58', '11466.37'],
  [8, '2024-08-31', '2164.05', '286.66', '45.87', '2496.58', '9302.32'],
  [9, '2024-09-30', '2226.81', '232.56', '37.21', '2496.58', '7075.51'],
  [10, '2024-10-31', '2291.39', '176.89', '28.30', '2496.58', '4784.12'],
  [11, '2024-11-30', '2357.84', '119.60', '19.14', '2496.58', '2426.28'],
  [12, '2024-12-31', '2426.28', '60.66', '9.71', '2496.65', '0.00'],
];
function expectGolden(input: ScheduleInput, installment: string, golden: Golden): void {
  const schedule = buildSchedule(input);
  expect(schedule.installment).toBe(installment);
  expect(schedule.rows.map((r) => [r.number, r.dueDate, r.principal, r.interest, r.iva, r.payment, r.balance])).toEqual(golden);
  // The table is consistent in itself: rows add up to the principal and each payment to its parts.
  const principalSum = golden.reduce((s, r) => s + cents(r[2]), 0n);
  expect(principalSum).toBe(cents(input.principal));
  for (const r of golden) expect(cents(r[2]) + cents(r[3]) + cents(r[4])).toBe(cents(r[5]));
  expect(golden.at(-1)?.[6]).toBe('0.00');
}

describe('buildSchedule golden tables', () => {
  it('semanal: 3,000.00 at 52 % for 12 weeks (1 % a week), every 7 days', () => {
    expectGolden(SEMANAL_INPUT, SEMANAL_INSTALLMENT, SEMANAL_ROWS);
  });
  it('catorcenal: 8,000.00 at 39 % for 10 periods (1.5 % every 14 days)', () => {
    expectGolden(CATORCENAL_INPUT, CATORCENAL_INSTALLMENT, CATORCENAL_ROWS);
  });
  it('quincenal: 10,000.00 at 36 % for 24 fortnights, 15th and month end including 29 February 2024', () => {
    expectGolden(QUINCENAL_INPUT, QUINCENAL_INSTALLMENT, QUINCENAL_ROWS);
  });
  it('mensual: 25,000.00 at 30 % for 12 months from 31 January, clamped to each month end', () => {
    expectGolden(MENSUAL_INPUT, MENSUAL_INSTALLMENT, MENSUAL_ROWS);
  });

  it('a zero rate splits the principal evenly and the last row takes the residue', () => {
    const s = buildSchedule({
      principal: '100.00',
      annualRate: '0',
      ivaRate: '0.16',
      term: 3,
      frequency: 'mensual',
      firstDueDate: '2025-01-10',
    });
    expect(s.installment).toBe('33.33');
    expect(s.rows.map((r) => [r.principal, r.interest, r.iva, r.payment, r.balance])).toEqual([
      ['33.33', '0.00', '0.00', '33.33', '66.67'],
      ['33.33', '0.00', '0.00', '33.33', '33.34'],
      ['33.34', '0.00', '0.00', '33.34', '0.00'],
    ]);
  });

  it('a single installment repays principal plus one period of interest and IVA', () => {
    const s = buildSchedule({
      principal: '1000.00',
      annualRate: '0.24',
      ivaRate: '0.16',
      term: 1,
      frequency: 'mensual',
      firstDueDate: '2025-03-31',
    });
    // 1000 × 0.02 = 20.00 interest, 3.20 IVA.
    expect(s.installment).toBe('1023.20');
    expect(s.rows).toEqual([
      { number: 1, dueDate: '2025-03-31', principal: '1000.00', interest: '20.00', iva: '3.20', payment: '1023.20', balance: '0.00' },
    ]);
  });

  it('rounds half up exactly at the centavo: 1,000.50 at 12 % mensual gives 10.005 → 10.01 interest', () => {
    const s = buildSchedule({
      principal: '1000.50',
      annualRate: '0.12',
      ivaRate: '0.16',
      term: 2,
      frequency: 'mensual',
      firstDueDate: '2025-01-15',
    });
    expect(s.rows[0]?.interest).toBe('10.01');
    // 10.01 × 0.16 = 1.6016 → 1.60
    expect(s.rows[0]?.iva).toBe('1.60');
  });
});

describe('irregular first period (issue 13 #4)', () => {
  // 20,000.00 at 36 % quincenal ×24, installment 1,026.53 (the figure; 2 × the 10,000.00 golden loan's
  // 513.265… before rounding).
  const loan = { principal: '20000.00', annualRate: '0.36', ivaRate: '0.16', term: 24, frequency: 'quincenal' as const };

  it('disbursed 2025-01-14 with the first discount on 2025-01-15: one day is charged, not a fortnight', () => {
    const s = buildSchedule({ ...loan, firstDueDate: '2025-01-15', disbursementDate: '2025-01-14' });
    // 20,000.00 × 0.36 × 1 / 360 = 20.00 interest, 3.20 IVA (was 300.00 + 48.00).
    expect(s.rows[0]).toMatchObject({ interest: '20.00', iva: '3.20', principal: '1003.33', days: 1 });
    expect([s.firstPeriodDays, s.firstPeriodByDays]).toEqual([1, true]);
  });

  it('with 5 cut-off lead days the first discount is 2025-01-31, 17 days charged by days, and the rest is a normal schedule', () => {
    const s = buildSchedule({ ...loan, firstDueDate: '2025-01-31', disbursementDate: '2025-01-14' });
    // Row 1: 20,000.00 × 0.36 × 17 / 360 = 340.00, IVA 54.40, principal 1,026.53 − 394.40 = 632.13.
    // Then every row by the plain rule, computed here independently with integers.
    const expected: Array<[string, string, string]> = [];
    let balance = 2_000_000n - 63_213n;
    expected.push(['632.13', '340.00', '54.40']);
    for (let r = 1; r < 24; r++) {
      const interest = (balance * 36n * 2n + 2400n) / 4800n;
      const iva = (interest * 32n + 100n) / 200n;
      const principal = r === 23 ? balance : 102_653n - interest - iva;
      balance -= principal;
      expected.push([fmt(principal), fmt(interest), fmt(iva)]);
    }
    expect(s.installment).toBe('1026.53');
    expect(s.rows.map((row) => [row.principal, row.interest, row.iva])).toEqual(expected);
  });

  it('disbursed on the previous payday, the first period is regular and charged the periodic rate', () => {
    const s = buildSchedule({ ...loan, firstDueDate: '2025-01-15', disbursementDate: '2024-12-31' });
    expect(s.rows[0]).toMatchObject({ interest: '300.00', iva: '48.00' });
    expect(s.rows[0]?.days).toBeUndefined();
    expect(s.firstPeriodByDays).toBe(false);
  });

  it("the CAT of an irregular first period uses the payments' actual times (reference solver in the test)", () => {
    const q = quoteLoan({
      amount: '20000.00',
      annualRate: '0.36',
      ivaRate: '0.16',
      openingFeeRate: '0',
      openingFeeFinanced: false,
      term: 24,
      frequency: 'quincenal',
      firstDueDate: '2025-01-31',
      disbursementDate: '2025-01-14',
    });
    // Reference: Σ (principal + interest)_t / (1 + c)^(days_t / 365) = 20,000.00, solved by plain bisection.
    const flows = q.schedule.rows.map((row) => ({
      years: (Date.parse(row.dueDate) - Date.parse('2025-01-14')) / 86_400_000 / 365,
      amount: Number(row.principal) + Number(row.interest),
    }));
    const npv = (c: number) => flows.reduce((sum, f) => sum + f.amount / Math.pow(1 + c, f.years), 0) - 20000;
    let lo = 0;
    let hi = 10;
    for (let k = 0; k < 200; k++) {
      const mid = (lo + hi) / 2;
      if (npv(mid) > 0) lo = mid;
      else hi = mid;
    }
    expect(q.cat).toBe((Math.round(lo * 1000) / 10).toFixed(1));
  });
});

function fmt(c: bigint): string {
  return `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;
}

describe('due dates', () => {
  it('quincenal starting on a month end alternates with the 15th, through a non-leap February', () => {
    expect(dueDates('quincenal', '2025-01-31', 6)).toEqual([
      '2025-01-31',
      '2025-02-15',
      '2025-02-28',
      '2025-03-15',
      '2025-03-31',
      '2025-04-15',
    ]);
  });
  it('quincenal crosses the year end', () => {
    expect(dueDates('quincenal', '2024-12-15', 3)).toEqual(['2024-12-15', '2024-12-31', '2025-01-15']);
  });
  it('mensual keeps the day and clamps it to the month end, without drifting', () => {
    expect(dueDates('mensual', '2023-12-31', 5)).toEqual(['2023-12-31', '2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30']);
    expect(dueDates('mensual', '2025-01-30', 3)).toEqual(['2025-01-30', '2025-02-28', '2025-03-30']);
  });
  it('semanal and catorcenal step 7 and 14 days across months and leap days', () => {
    expect(dueDates('semanal', '2024-02-22', 3)).toEqual(['2024-02-22', '2024-02-29', '2024-03-07']);
    expect(dueDates('catorcenal', '2023-12-22', 3)).toEqual(['2023-12-22', '2024-01-05', '2024-01-19']);
  });
});

describe('invalid input throws LendingInputError with a Spanish message', () => {
  const base: ScheduleInput = {
    principal: '10000.00',
    annualRate: '0.36',
    ivaRate: '0.16',
    term: 24,
    frequency: 'quincenal',
    firstDueDate: '2025-01-15',
  };
  const cases: Array<[string, Partial<ScheduleInput> | Record<string, unknown>, string, string]> = [
    ['zero principal', { principal: '0.00' }, 'NON_POSITIVE_AMOUNT', 'principal'],
    ['negative principal', { principal: '-100.00' }, 'NON_POSITIVE_AMOUNT', 'principal'],
    ['principal with three decimals', { principal: '100.005' }, 'INVALID_AMOUNT', 'principal'],
    ['principal that is not a number', { principal: 'diez mil' }, 'INVALID_AMOUNT', 'principal'],
    ['zero term', { term: 0 }, 'INVALID_TERM', 'term'],
    ['fractional term', { term: 12.5 }, 'INVALID_TERM', 'term'],
    ['term beyond the maximum', { term: 601 }, 'INVALID_TERM', 'term'],
    ['rate that is not a number', { annualRate: 'abc' }, 'INVALID_RATE', 'annualRate'],
    ['rate in exponent notation', { annualRate: '3.6e-1' }, 'INVALID_RATE', 'annualRate'],
    ['negative rate', { annualRate: '-0.36' }, 'INVALID_RATE', 'annualRate'],
    ['IVA that is not a number', { ivaRate: '16%' }, 'INVALID_RATE', 'ivaRate'],
    ['quincenal first date on the 10th', { firstDueDate: '2025-01-10' }, 'INVALID_QUINCENAL_DATE', 'firstDueDate'],
    ['quincenal first date on 28 February of a leap year', { firstDueDate: '2024-02-28' }, 'INVALID_QUINCENAL_DATE', 'firstDueDate'],
    ['unknown frequency', { frequency: 'anual' }, 'INVALID_FREQUENCY', 'frequency'],
    ['date that does not exist', { firstDueDate: '2025-02-30' }, 'INVALID_DATE', 'firstDueDate'],
    ['date not in ISO form', { firstDueDate: '15/01/2025' }, 'INVALID_DATE', 'firstDueDate'],
  ];
  it.each(cases)('%s', (_reason, patch, code, field) => {
    const input = { ...base, ...patch } as ScheduleInput;
    let caught: unknown;
    try {
      buildSchedule(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LendingInputError);
    const e = caught as LendingInputError;
    expect(e.code).toBe(code);
    expect(e.field).toBe(field);
    expect(e.message.length).toBeGreaterThan(10);
  });
});

describe('buildSchedule properties', () => {
  // Checks are plain comparisons collected into one verdict per case: thousands of cases stay fast.
  it('principal rows sum to the principal, balances stay ≥ 0 and end at 0.00, payment = principal + interest + IVA', () => {
    fc.assert(
      fc.property(scheduleInputArb(), (input) => {
        const s = buildSchedule(input);
        let ok = s.rows.length === input.term;
        let sum = 0n;
        let previousBalance = cents(input.principal);
        let previousDate = '';
        for (const row of s.rows) {
          const p = cents(row.principal);
          const balance = cents(row.balance);
          sum += p;
          ok &&= p >= 0n && balance >= 0n && balance === previousBalance - p;
          ok &&= cents(row.payment) === p + cents(row.interest) + cents(row.iva);
          ok &&= row.dueDate > previousDate;
          previousBalance = balance;
          previousDate = row.dueDate;
        }
        return ok && sum === cents(input.principal) && s.rows.at(-1)?.balance === '0.00';
      }),
      { numRuns: 2000 },
    );
  });

  it('with any non-working days, due dates never go back as the row number grows (the credit view reads deductions by period)', () => {
    // Stretches of non-working days anywhere around the schedule, some longer than a period: a payday on one moves back
    // to the working day before it, so two paydays may fall on one date but a later row never before an earlier one.
    const stretches = fc.array(fc.record({ from: fc.integer({ min: -20, max: 1900 }), length: fc.integer({ min: 1, max: 40 }) }), {
      maxLength: 30,
    });
    fc.assert(
      fc.property(scheduleInputArb(60), stretches, (input, holidays) => {
        const first = parseDay(input.firstDueDate, 'firstDueDate');
        const nonWorkingDays = holidays.flatMap(({ from, length }) => Array.from({ length }, (_, k) => formatDay(first + from + k)));
        const rows = buildSchedule({ ...input, nonWorkingDays }).rows;
        return rows.every((row, r) => row.number === r + 1 && (r === 0 || row.dueDate >= rows[r - 1]!.dueDate));
      }),
      { numRuns: 1000 },
    );
  });

  it('every amount has exactly two decimals', () => {
    const re = /^\d+\.\d{2}$/;
    fc.assert(
      fc.property(scheduleInputArb(60), (input) => {
        const s = buildSchedule(input);
        return (
          re.test(s.installment) && s.rows.every((r) => [r.principal, r.interest, r.iva, r.payment, r.balance].every((v) => re.test(v)))
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('for ordinary loans every row but the last pays exactly the installment', () => {
    fc.assert(
      fc.property(scheduleInputArb(48), (input) => {
        // Ordinary: at least 1,000.00, where rounding cannot exhaust the balance before the last row.
        fc.pre(cents(input.principal) >= 100_000n);
        const s = buildSchedule(input);
        return s.rows.slice(0, -1).every((r) => r.payment === s.installment);
      }),
      { numRuns: 1000 },
    );
  });
});
