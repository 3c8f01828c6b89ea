import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { accrueLateCharges, lateChargesForDays } from './late-charges.ts';
import { allocatePayment } from './allocation.ts';
import { installmentsFromSchedule } from './ledger.ts';
import { buildSchedule } from './schedule.ts';
import { cents, creditStateArb, owedTotal } from './test-support.ts';

// The quincenal golden loan: 10,000.00 at 36 %, 24 fortnights from 2024-01-15 (installment 1: 339.27 principal).
const schedule = buildSchedule({
  principal: '10000.00',
  annualRate: '0.36',
  ivaRate: '0.16',
  term: 24,
  frequency: 'quincenal',
  firstDueDate: '2024-01-15',
});
const fresh = installmentsFromSchedule(schedule);
const terms = {
  disbursementDate: '2023-12-31',
  ivaRate: '0.16',
  annualRate: '0.36',
  frequency: 'quincenal' as const,
  installment: '513.27',
};

describe('late charges', () => {
  it('moratory interest by days on the overdue principal, with IVA, and a late fee with IVA', () => {
    // Installment 1 unpaid, 10 days late on 2024-01-25, moratory rate 72 % a year:
    // 339.27 × 0.72 × 10 / 360 = 6.7854 → 6.79; IVA 1.0864 → 1.09. Late fee 150.00 + IVA 24.00.
    const r = accrueLateCharges({
      installments: fresh,
      accruedThrough: '2024-01-15',
      asOf: '2024-01-25',
      moratoryAnnualRate: '0.72',
      ivaRate: '0.16',
      lateFee: '150.00',
    });
    expect([r.moratoryInterest, r.moratoryIva, r.fees, r.feesIva]).toEqual(['6.79', '1.09', '150.00', '24.00']);
    expect(r.installments[0]).toMatchObject({ moratoryInterest: '6.79', moratoryIva: '1.09', fees: '150.00', feesIva: '24.00' });
    // Not yet due rows accrue nothing.
    expect(r.installments[1]?.moratoryInterest).toBeUndefined();
    // The waterfall takes moratory interest and its IVA, then the fee and its IVA, then interest.
    const paid = allocatePayment({ ...terms, installments: r.installments, amount: '200.00', valueDate: '2024-01-25' });
    expect(paid.lines.map((l) => [l.component, l.amount])).toEqual([
      ['moratoryInterest', '6.79'],
      ['moratoryIva', '1.09'],
      ['fees', '150.00'],
      ['feesIva', '24.00'],
      ['interest', '18.12'],
    ]);
  });

  it('a late fee is charged once, after the grace days, and nothing accrues on an installment en tránsito', () => {
    const early = accrueLateCharges({
      installments: fresh,
      accruedThrough: '2024-01-15',
      asOf: '2024-01-18',
      moratoryAnnualRate: '0.72',
      ivaRate: '0.16',
      lateFee: '150.00',
      lateFeeGraceDays: 5,
    });
    expect(early.fees).toBe('0.00');
    const later = accrueLateCharges({
      installments: early.installments,
      accruedThrough: '2024-01-18',
      asOf: '2024-01-25',
      moratoryAnnualRate: '0.72',
      ivaRate: '0.16',
      lateFee: '150.00',
      lateFeeGraceDays: 5,
    });
    expect(later.fees).toBe('150.00');
    const again = accrueLateCharges({
      installments: later.installments,
      accruedThrough: '2024-01-25',
      asOf: '2024-01-26',
      moratoryAnnualRate: '0.72',
      ivaRate: '0.16',
      lateFee: '150.00',
      lateFeeGraceDays: 5,
    });
    expect(again.fees).toBe('0.00');
    const held = accrueLateCharges({
      installments: fresh,
      accruedThrough: '2024-01-15',
      asOf: '2024-01-25',
      moratoryAnnualRate: '0.72',
      ivaRate: '0.16',
      lateFee: '150.00',
      inTransit: [1],
    });
    expect([held.moratoryInterest, held.fees]).toEqual(['0.00', '0.00']);
  });
});

describe('late charges by days', () => {
  it('is what one close a day charges: each day rounded on its own, not the days rounded once', () => {
    // 339.27 owed at 72 %: a day is 339.27 × 0.72 / 360 = 0.67854 → 0.68 (IVA 0.1088 → 0.11). Ten closes: 6.80 and
    // 1.10, where one ten-day accrual gives 6.79 and 1.09 (the test above).
    expect(lateChargesForDays({ principalOwed: '339.27', moratoryAnnualRate: '0.72', ivaRate: '0.16', days: 10 })).toEqual({
      moratoryInterest: '6.80',
      moratoryIva: '1.10',
    });
    expect(lateChargesForDays({ principalOwed: '339.27', moratoryAnnualRate: '0.72', ivaRate: '0.16', days: 0 })).toEqual({
      moratoryInterest: '0.00',
      moratoryIva: '0.00',
    });
    expect(() => lateChargesForDays({ principalOwed: '339.27', moratoryAnnualRate: '0.72', ivaRate: '0.16', days: -1 })).toThrow(
      /cero o más/,
    );
  });

  it('equals accrueLateCharges called once per closed day (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.constantFrom('0', '0.08', '0.16'),
        fc.integer({ min: 0, max: 40 }),
        (principalCents, ratePerMillion, ivaRate, days) => {
          const principal = `${Math.floor(principalCents / 100)}.${String(principalCents % 100).padStart(2, '0')}`;
          const rate = (ratePerMillion / 1_000_000).toFixed(6);
          let installments = [{ number: 1, dueDate: '2024-01-15', principal, interest: '0.00', iva: '0.00' }];
          let sum = { moratory: 0n, iva: 0n };
          for (let d = 0; d < days; d++) {
            const day = (offset: number) => new Date(Date.UTC(2024, 0, 16 + offset)).toISOString().slice(0, 10);
            const r = accrueLateCharges({
              installments,
              accruedThrough: d === 0 ? '2024-01-15' : day(d - 1),
              asOf: day(d),
              moratoryAnnualRate: rate,
              ivaRate,
            });
            installments = r.installments as typeof installments;
            sum = { moratory: sum.moratory + cents(r.moratoryInterest), iva: sum.iva + cents(r.moratoryIva) };
          }
          const byDays = lateChargesForDays({ principalOwed: principal, moratoryAnnualRate: rate, ivaRate, days });
          expect([cents(byDays.moratoryInterest), cents(byDays.moratoryIva)]).toEqual([sum.moratory, sum.iva]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('prepayment (property)', () => {
  it("a lower installment that would not cover a period's interest at the centavo keeps the installment (found by the property below, seed -1672800308)", () => {
    // 0.25 owed over 17 monthly rows at 106.97 %: the level installment rounds to 0.02, no more than a period's interest.
    const principal = [
      '0.01',
      '0.01',
      '0.01',
      '0.01',
      '0.01',
      '0.01',
      '0.01',
      '0.01',
      '0.01',
      '0.02',
      '0.02',
      '0.02',
      '0.02',
      '0.02',
      '0.02',
      '0.03',
      '0.01',
    ];
    const interest = [
      '0.02',
      '0.02',
      '0.02',
      '0.02',
      '0.02',
      '0.02',
      '0.02',
      '0.02',
      '0.02',
      '0.01',
      '0.01',
      '0.01',
      '0.01',
      '0.01',
      '0.01',
      '0.00',
      '0.00',
    ];
    const installments = principal.map((p, k) => ({
      number: k + 1,
      dueDate: `${2022 + Math.floor((k + 6) / 12)}-${String(((k + 6) % 12) + 1).padStart(2, '0')}-01`,
      principal: p,
      interest: interest[k]!,
      iva: '0.00',
    }));
    const r = allocatePayment({
      amount: '0.04',
      valueDate: '2022-06-30',
      disbursementDate: '2022-06-30',
      ivaRate: '0',
      annualRate: '1.0697',
      frequency: 'mensual',
      installment: '0.03',
      installments,
      prepaymentOption: 'lower-installment',
    });
    // Before: 0.25 + 0.24 = 0.49 owed. Paying 0.04 must leave at most 0.49 − 0.04 + one period's interest (0.02).
    expect(owedTotal(r.installments)).toBeLessThanOrEqual(47n);
    expect(r.installment).toBe('0.03');
  });

  it('a prepayment never increases the total still owed by more than one period of interest (and IVA) on the new balance', () => {
    const amountArb = fc.integer({ min: 1, max: 2_000_000 }).map((c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`);
    fc.assert(
      fc.property(
        creditStateArb(),
        amountArb,
        fc.constantFrom('shorter-term' as const, 'lower-installment' as const),
        (credit, amount, option) => {
          const r = allocatePayment({
            amount,
            valueDate: credit.date,
            disbursementDate: credit.disbursementDate,
            ivaRate: credit.ivaRate,
            annualRate: credit.annualRate,
            frequency: credit.frequency,
            installment: credit.schedule.installment,
            installments: credit.installments,
            prepaymentOption: option,
          });
          fc.pre(r.prepaidPrincipal !== '0.00');
          const newBalance = r.installments.reduce(
            (s, i) => s + cents(i.principal) - cents(i.paid?.principal ?? '0.00') - cents(i.waived?.principal ?? '0.00'),
            0n,
          );
          // Reference bound, computed here: one period's interest on the new balance, and its IVA, rounded up.
          const k = { semanal: 52n, catorcenal: 26n, quincenal: 24n, mensual: 12n }[credit.frequency];
          const [rn, rd] = ratioOf(credit.annualRate);
          const [vn, vd] = ratioOf(credit.ivaRate);
          const bound = (newBalance * rn * (vd + vn) + rd * k * vd - 1n) / (rd * k * vd) + 1n;
          const increase = owedTotal(r.installments) - (owedTotal(credit.installments) - cents(r.applied));
          return increase <= bound;
        },
      ),
      { numRuns: 1500 },
    );
  });
});

function ratioOf(decimal: string): [bigint, bigint] {
  const [whole = '0', frac = ''] = decimal.split('.');
  return [BigInt(whole + frac), 10n ** BigInt(frac.length)];
}
