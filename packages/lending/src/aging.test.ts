import { describe, expect, it } from 'vitest';
import { AGING_BUCKET_LABELS, AGING_BUCKET_LAST_DAYS, agingBucket, daysPastDue, isPastDueCredit } from './aging.ts';
import { installmentsFromSchedule } from './ledger.ts';
import { buildSchedule } from './schedule.ts';

const schedule = buildSchedule({
  principal: '10000.00',
  annualRate: '0.36',
  ivaRate: '0.16',
  term: 24,
  frequency: 'quincenal',
  firstDueDate: '2024-01-15',
});
const paidThrough = (n: number) =>
  installmentsFromSchedule(schedule).map((inst) =>
    inst.number <= n ? { ...inst, paid: { principal: inst.principal, interest: inst.interest, iva: inst.iva } } : inst,
  );

describe('days past due', () => {
  it.each([
    ['2024-01-14', 0, 'before the first due date'],
    ['2024-01-15', 0, 'on the due date itself: due, not late'],
    ['2024-01-16', 1, 'the day after'],
    ['2024-04-14', 90, '90 days after 2024-01-15'],
  ])('nothing paid, on %s: %i days (%s)', (date, days) => {
    expect(daysPastDue(paidThrough(0), date)).toBe(days);
  });

  it('counts from the oldest unpaid installment, even when later ones are paid', () => {
    const gap = paidThrough(4).map((inst) => (inst.number === 2 ? { ...inst, paid: { interest: inst.interest } } : inst));
    // Installment 2 (2024-01-31) is still owed in part.
    expect(daysPastDue(gap, '2024-03-20')).toBe(49);
  });

  it('a credit that is up to date has no days past due', () => {
    expect(daysPastDue(paidThrough(6), '2024-04-10')).toBe(0);
  });
});

describe('aging buckets', () => {
  it.each([
    [0, 'current'],
    [1, '1-30'],
    [30, '1-30'],
    [31, '31-60'],
    [60, '31-60'],
    [61, '61-89'],
    [89, '61-89'],
    [90, '90+'],
    [91, '90+'],
    [400, '90+'],
  ] as const)('%i days → %s', (days, bucket) => {
    expect(agingBucket(days)).toBe(bucket);
    expect(AGING_BUCKET_LABELS[bucket].length).toBeGreaterThan(0);
  });

  it('declares for the SQL the same last day of each bucket as agingBucket decides', () => {
    // The golden table above, restated as each bucket's last day: 0, 30, 60, 89.
    expect(AGING_BUCKET_LAST_DAYS).toEqual([
      ['current', 0],
      ['1-30', 30],
      ['31-60', 60],
      ['61-89', 89],
    ]);
    for (const [bucket, last] of AGING_BUCKET_LAST_DAYS) {
      expect(agingBucket(last)).toBe(bucket);
      expect(agingBucket(last + 1)).not.toBe(bucket);
    }
  });

  it('a credit is vencido from 90 days past due', () => {
    expect(isPastDueCredit(89)).toBe(false);
    expect(isPastDueCredit(90)).toBe(true);
  });
});
