import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { closeBusinessDay, closeBusinessDays, daysToClose, type DayCloseCredit, type ExpectedDeduction } from './day-close.ts';
import { addDays } from './dates.ts';
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
const credit = (id: string, paid: number, status: DayCloseCredit['status'] = 'vigente'): DayCloseCredit => ({
  id,
  status,
  installments: paidThrough(paid),
});
const deduction = (
  id: string,
  discountDate: string,
  state: ExpectedDeduction['state'] = 'esperado',
  remittanceLagDays = 3,
): ExpectedDeduction => ({
  id,
  discountDate,
  remittanceLagDays,
  state,
});

describe('closeBusinessDay', () => {
  it('marks the installment due on the closed day and advances the business date', () => {
    const r = closeBusinessDay({ businessDate: '2024-01-15', credits: [credit('A', 0)], deductions: [] });
    expect(r.closedDate).toBe('2024-01-15');
    expect(r.nextBusinessDate).toBe('2024-01-16');
    expect(r.credits[0]?.newlyDue).toEqual([1]);
    expect(r.credits[0]?.installmentStatuses.slice(0, 2)).toEqual([
      { number: 1, status: 'due' },
      { number: 2, status: 'upcoming' },
    ]);
    expect(r.credits[0]).toMatchObject({ status: 'vigente', daysPastDue: 0, agingBucket: 'current' });
  });

  it('computes days past due and buckets, and a credit at 90 days becomes vencido', () => {
    const r = closeBusinessDay({
      businessDate: '2024-04-14',
      credits: [credit('late', 0), credit('current', 6), credit('gone', 24), credit('was-late', 6, 'vencido')],
      deductions: [],
    });
    expect(r.credits.map((c) => [c.id, c.status, c.daysPastDue, c.agingBucket])).toEqual([
      ['late', 'vencido', 90, '90+'],
      ['current', 'vigente', 0, 'current'],
      ['gone', 'liquidado', 0, 'current'],
      ['was-late', 'vigente', 0, 'current'],
    ]);
    const day89 = closeBusinessDay({ businessDate: '2024-04-13', credits: [credit('late', 0)], deductions: [] });
    expect(day89.credits[0]).toMatchObject({ status: 'vigente', daysPastDue: 89, agingBucket: '61-89' });
  });

  it('moves deductions: esperado → en tránsito on the discount date → no aplicado when the lag runs out', () => {
    const ds = [
      deduction('future', '2024-02-20'),
      deduction('today', '2024-02-15'),
      deduction('lag-left', '2024-02-13', 'en-transito'),
      deduction('lag-last-day', '2024-02-12', 'en-transito'),
      deduction('lag-over', '2024-02-11', 'en-transito'),
      deduction('never-remitted', '2024-02-01', 'esperado'),
      deduction('paid', '2024-02-01', 'recibido'),
      deduction('same-day-lag', '2024-02-15', 'esperado', 0),
    ];
    const r = closeBusinessDay({ businessDate: '2024-02-15', credits: [], deductions: ds });
    expect(r.deductions.map((d) => [d.id, d.previousState, d.state])).toEqual([
      ['future', 'esperado', 'esperado'],
      ['today', 'esperado', 'en-transito'],
      ['lag-left', 'en-transito', 'en-transito'],
      ['lag-last-day', 'en-transito', 'en-transito'],
      ['lag-over', 'en-transito', 'no-aplicado'],
      ['never-remitted', 'esperado', 'no-aplicado'],
      ['paid', 'recibido', 'recibido'],
      ['same-day-lag', 'esperado', 'en-transito'],
    ]);
  });

  it('issue 13 #10: a remittance lag of 0 means the same day: en tránsito on the discount date, no aplicado the day after', () => {
    const d = deduction('zero', '2024-02-15', 'esperado', 0);
    const r = closeBusinessDays({ lastClosedDate: '2024-02-14', throughDate: '2024-02-16', credits: [], deductions: [d] });
    expect(r.days.map((day) => day.deductions[0]?.state)).toEqual(['en-transito', 'no-aplicado']);
  });

  it('issue 13 #10: an installment whose deduction is en tránsito does not age the borrower', () => {
    // Installment 1 (2024-01-15) unpaid; its deduction was taken and the employer has 30 days to remit.
    const held: ExpectedDeduction = { ...deduction('d1', '2024-01-15', 'esperado', 30), creditId: 'A', installment: 1 };
    const r = closeBusinessDay({ businessDate: '2024-01-25', credits: [credit('A', 0)], deductions: [held] });
    expect(r.deductions[0]?.state).toBe('en-transito');
    expect(r.credits[0]).toMatchObject({ daysPastDue: 0, agingBucket: 'current', status: 'vigente' });
    // Once it is no aplicado (day 31), the borrower owes it and ages from its due date.
    const later = closeBusinessDay({ businessDate: '2024-02-15', credits: [credit('A', 0)], deductions: [held] });
    expect(later.deductions[0]?.state).toBe('no-aplicado');
    expect(later.credits[0]?.daysPastDue).toBe(31);
  });

  it('issue 13 #8: a liquidado credit that owes again (reverted payment) returns to vigente or vencido', () => {
    const r = closeBusinessDay({ businessDate: '2024-04-14', credits: [credit('back', 0, 'liquidado')], deductions: [] });
    expect(r.credits[0]).toMatchObject({ previousStatus: 'liquidado', status: 'vencido', daysPastDue: 90, agingBucket: '90+' });
  });

  it('re-running a day is harmless', () => {
    const input = {
      businessDate: '2024-03-01',
      credits: [credit('A', 2), credit('B', 0)],
      deductions: [deduction('d1', '2024-02-29'), deduction('d2', '2024-02-15', 'en-transito')],
    };
    const once = closeBusinessDay(input);
    const twice = closeBusinessDay({
      businessDate: '2024-03-01',
      credits: input.credits.map((c) => ({ ...c, status: once.credits.find((o) => o.id === c.id)?.status ?? c.status })),
      deductions: once.deductions.map(({ previousState: _p, ...d }) => d),
    });
    expect(twice.credits.map(({ previousStatus: _p, ...c }) => c)).toEqual(once.credits.map(({ previousStatus: _p, ...c }) => c));
    expect(twice.deductions.map((d) => d.state)).toEqual(once.deductions.map((d) => d.state));
  });
});

describe('closing missed days', () => {
  it('lists the days to close in order, and nothing when the day is already closed', () => {
    expect(daysToClose('2024-02-27', '2024-03-01')).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
    expect(daysToClose('2024-03-01', '2024-03-01')).toEqual([]);
    expect(daysToClose('2024-03-05', '2024-03-01')).toEqual([]);
  });

  it('replays every missed day in order', () => {
    const r = closeBusinessDays({
      lastClosedDate: '2024-04-10',
      throughDate: '2024-04-16',
      credits: [credit('A', 0)],
      deductions: [deduction('d', '2024-04-12', 'esperado', 3)],
    });
    expect(r.closedDates).toEqual(['2024-04-11', '2024-04-12', '2024-04-13', '2024-04-14', '2024-04-15', '2024-04-16']);
    expect(r.days.map((d) => d.deductions[0]?.state)).toEqual([
      'esperado',
      'en-transito',
      'en-transito',
      'en-transito',
      'en-transito',
      'no-aplicado',
    ]);
    expect(r.days.map((d) => d.credits[0]?.status)).toEqual(['vigente', 'vigente', 'vigente', 'vencido', 'vencido', 'vencido']);
    expect(r.nextBusinessDate).toBe('2024-04-17');
    expect(r.credits[0]?.status).toBe('vencido');
  });

  it('property: closing a range at once equals closing it in two parts, and closing it again changes nothing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        fc.array(fc.record({ offset: fc.integer({ min: 0, max: 260 }), lag: fc.integer({ min: 0, max: 10 }) }), { maxLength: 6 }),
        fc.integer({ min: 0, max: 24 }),
        (start, first, second, specs, paid) => {
          const lastClosed = addDays('2024-01-01', start);
          const mid = addDays(lastClosed, first);
          const end = addDays(mid, second);
          const deductions = specs.map((s, i) => deduction(`d${i}`, addDays('2024-01-01', s.offset), 'esperado', s.lag));
          const credits = [credit('A', paid)];
          const whole = closeBusinessDays({ lastClosedDate: lastClosed, throughDate: end, credits, deductions });
          const part1 = closeBusinessDays({ lastClosedDate: lastClosed, throughDate: mid, credits, deductions });
          const part2 = closeBusinessDays({ lastClosedDate: mid, throughDate: end, credits: part1.credits, deductions: part1.deductions });
          const rerun = closeBusinessDays({
            lastClosedDate: addDays(end, -1),
            throughDate: end,
            credits: whole.credits,
            deductions: whole.deductions,
          });
          const same = (a: typeof whole, b: typeof whole) =>
            JSON.stringify(a.deductions) === JSON.stringify(b.deductions) &&
            JSON.stringify(a.credits.map((c) => c.status)) === JSON.stringify(b.credits.map((c) => c.status));
          // Re-closing the last day only makes sense when at least one day was closed.
          return same(whole, part2) && (whole.closedDates.length === 0 || same(whole, rerun));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
