import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addDays } from './dates.ts';
import { LendingInputError } from './errors.ts';
import { installmentsFromSchedule, type InstallmentState } from './ledger.ts';
import { formatCents } from './money.ts';
import { payoffQuote, type PayoffInput } from './payoff.ts';
import { buildSchedule } from './schedule.ts';
import { cents, creditStateArb, owedTotal } from './test-support.ts';

// The quincenal golden loan (schedule.test.ts): 10,000.00 at 36 %, 24 fortnights from 2024-01-15,
// disbursed 2023-12-31, installment 513.27.
const schedule = buildSchedule({ principal: '10000.00', annualRate: '0.36', ivaRate: '0.16', term: 24, frequency: 'quincenal', firstDueDate: '2024-01-15' });
const paidThrough = (n: number): InstallmentState[] =>
  installmentsFromSchedule(schedule).map((inst) =>
    inst.number <= n ? { ...inst, paid: { principal: inst.principal, interest: inst.interest, iva: inst.iva } } : inst,
  );

/*
 * Partway through: installments 1–7 are applied (balance after 7: 7,497.50). The employer deducted
 * installments 8 (2024-04-30) and 9 (2024-05-15) but has not remitted them: 2 × 513.27 in transit.
 * Quote on 2024-05-20, inside installment 10's period (2024-05-15 → 2024-05-31, 16 days, 5 elapsed).
 *
 *   unpaid principal                   7,497.50   (rows 8–24)
 *   interest due, rows 8 + 9             219.18   (112.46 + 106.72)
 *   IVA due, rows 8 + 9                   35.07   (17.99 + 17.08)
 *   row 10 interest accrued               31.53   (100.88 × 5 / 16 = 31.525, half up)
 *   its IVA                                5.04   (31.53 × 0.16 = 5.0448)
 *   gross balance                      7,788.32
 *   in transit                        −1,026.54
 *   saldo final = total                6,761.78   (= balance after row 9, 6,725.21, + 36.57 accrued)
 */
const partway: PayoffInput = {
  creditAmount: '10000.00',
  installment: schedule.installment,
  disbursementDate: '2023-12-31',
  ivaRate: '0.16',
  installments: paidThrough(7),
  inTransit: ['513.27', '513.27'],
  quoteDate: '2024-05-20',
};

describe('payoffQuote golden cases', () => {
  it('partway through, with two deductions in transit', () => {
    expect(payoffQuote(partway)).toEqual({
      quoteDate: '2024-05-20',
      validUntil: '2024-05-20',
      creditAmount: '10000.00',
      term: 24,
      paymentsMade: 7,
      installment: '513.27',
      evaluationDate: '2024-05-20',
      outstandingPrincipal: '7497.50',
      dueInterest: '219.18',
      dueIva: '35.07',
      dueFees: '0.00',
      dueFeesIva: '0.00',
      dueMoratoryInterest: '0.00',
      dueMoratoryIva: '0.00',
      accruedInterest: '31.53',
      accruedIva: '5.04',
      grossBalance: '7788.32',
      inTransit: '1026.54',
      inTransitCount: 2,
      finalBalance: '6761.78',
      discountDate: null,
      pendingDeduction: '0.00',
      pendingDeductions: [],
      totalAmount: '6761.78',
      surplus: '0.00',
    });
  });

  it('a letter valid past the next discount date shows it and nets out the deduction still to be taken', () => {
    /*
     * Valid until 2024-06-05: the 2024-05-31 deduction of installment 10 (513.27) will be taken first.
     * Evaluated on 2024-05-31, row 10 is due in full (100.88 + 16.14) and row 11 has accrued nothing:
     *   7,497.50 + (219.18 + 100.88) + (35.07 + 16.14) = 7,868.77 gross; − 1,026.54 in transit = 6,842.23
     *   saldo final; − 513.27 pending = 6,328.96 to pay, exactly the scheduled balance after row 10.
     */
    const q = payoffQuote({ ...partway, validUntil: '2024-06-05' });
    expect(q).toMatchObject({
      evaluationDate: '2024-05-31',
      dueInterest: '320.06',
      dueIva: '51.21',
      accruedInterest: '0.00',
      accruedIva: '0.00',
      grossBalance: '7868.77',
      finalBalance: '6842.23',
      discountDate: '2024-05-31',
      pendingDeduction: '513.27',
      pendingDeductions: [{ installment: 10, discountDate: '2024-05-31', amount: '513.27' }],
      totalAmount: '6328.96',
    });
    expect(q.totalAmount).toBe(schedule.rows[9]?.balance);
  });

  it('on the disbursement date the payoff is the principal', () => {
    const q = payoffQuote({ ...partway, installments: paidThrough(0), inTransit: [], quoteDate: '2023-12-31' });
    expect([q.totalAmount, q.accruedInterest, q.paymentsMade]).toEqual(['10000.00', '0.00', 0]);
  });

  it('after the last due date nothing accrues: everything unpaid is due', () => {
    const q = payoffQuote({ ...partway, installments: paidThrough(23), inTransit: [], quoteDate: '2025-02-10' });
    // Only row 24 is left: 504.45 + 7.57 + 1.21.
    expect([q.outstandingPrincipal, q.dueInterest, q.dueIva, q.totalAmount]).toEqual(['504.45', '7.57', '1.21', '513.23']);
  });

  it('transit beyond the balance is reported as a surplus, and the total never goes below zero', () => {
    const q = payoffQuote({ ...partway, installments: paidThrough(23), inTransit: ['513.27', '513.27'], quoteDate: '2025-01-05' });
    expect([q.grossBalance, q.finalBalance, q.totalAmount, q.surplus]).toEqual(['513.23', '0.00', '0.00', '513.31']);
  });

  it.each<[string, Partial<PayoffInput>, string]>([
    ['a quote before the disbursement', { quoteDate: '2023-12-30' }, 'INVALID_DATE_ORDER'],
    ['a validity that ends before the quote', { validUntil: '2024-05-19' }, 'INVALID_DATE_ORDER'],
    ['a negative amount in transit', { inTransit: ['-1.00'] }, 'NEGATIVE_AMOUNT'],
    ['a zero credit amount', { creditAmount: '0.00' }, 'NON_POSITIVE_AMOUNT'],
    ['an IVA rate that is not a number', { ivaRate: 'dieciséis' }, 'INVALID_RATE'],
  ])('refuses %s', (_reason, patch, code) => {
    let caught: unknown;
    try {
      payoffQuote({ ...partway, ...patch });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(LendingInputError);
    expect((caught as LendingInputError).code).toBe(code);
  });
});

describe('payoffQuote properties', () => {
  it('on the disbursement date the payoff equals the principal', () => {
    fc.assert(
      fc.property(creditStateArb(), (credit) => {
        const principal = formatCents(credit.schedule.rows.reduce((s, r) => s + cents(r.principal), 0n));
        const q = payoffQuote({
          creditAmount: principal,
          installment: credit.schedule.installment,
          disbursementDate: credit.disbursementDate,
          ivaRate: credit.ivaRate,
          installments: installmentsFromSchedule(credit.schedule),
          quoteDate: credit.disbursementDate,
        });
        return q.totalAmount === principal && q.grossBalance === principal;
      }),
      { numRuns: 1000 },
    );
  });

  it('never exceeds the sum of remaining payments, and its parts add up', () => {
    const transitArb = fc.array(fc.integer({ min: 0, max: 200_000 }), { maxLength: 3 });
    fc.assert(
      fc.property(creditStateArb(), transitArb, fc.integer({ min: 0, max: 45 }), (credit, transit, validity) => {
        const q = payoffQuote({
          creditAmount: '1.00',
          installment: credit.schedule.installment,
          disbursementDate: credit.disbursementDate,
          ivaRate: credit.ivaRate,
          installments: credit.installments,
          inTransit: transit.map((t) => formatCents(BigInt(t))),
          quoteDate: credit.date,
          validUntil: addDays(credit.date, validity),
        });
        const remaining = owedTotal(credit.installments);
        const parts =
          cents(q.outstandingPrincipal) + cents(q.dueInterest) + cents(q.dueIva) + cents(q.dueFees) + cents(q.dueFeesIva) +
          cents(q.dueMoratoryInterest) + cents(q.dueMoratoryIva) + cents(q.accruedInterest) + cents(q.accruedIva);
        return (
          cents(q.totalAmount) <= remaining &&
          cents(q.grossBalance) <= remaining &&
          parts === cents(q.grossBalance) &&
          cents(q.totalAmount) + cents(q.pendingDeduction) + cents(q.inTransit) - cents(q.surplus) === cents(q.grossBalance) &&
          cents(q.totalAmount) >= 0n
        );
      }),
      { numRuns: 2000 },
    );
  });
});

