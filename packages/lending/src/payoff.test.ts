import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addDays } from './dates.ts';
import { LendingInputError } from './errors.ts';
import { installmentsFromSchedule, type InstallmentState } from './ledger.ts';
import { formatCents } from './money.ts';
import { payoffQuote, type PayoffInput } from './payoff.ts';
import { allocatePayment } from './allocation.ts';
import { buildSchedule } from './schedule.ts';
import { cents, creditStateArb, owedTotal } from './test-support.ts';

// The quincenal golden loan (schedule.test.ts): 10,000.00 at 36 %, 24 fortnights from 2024-01-15,
// disbursed 2023-12-31, installment 513.27.
const schedule = buildSchedule({
  principal: '10000.00',
  annualRate: '0.36',
  ivaRate: '0.16',
  term: 24,
  frequency: 'quincenal',
  firstDueDate: '2024-01-15',
});
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

  it('a letter valid past the next discount date shows it, nets out the deduction still to be taken, and accrues to its validity date', () => {
    /*
     * Valid until 2024-06-05: the 2024-05-31 deduction of installment 10 (513.27) will be taken first.
     * Evaluated on the validity date: row 10 is due in full (100.88 + 16.14) and row 11 (2024-05-31 →
     * 2024-06-15, 15 days) has accrued 5 days: 94.93 × 5 / 15 = 31.6433 → 31.64, IVA 5.0624 → 5.06.
     *   7,497.50 + (219.18 + 100.88) + (35.07 + 16.14) + 31.64 + 5.06 = 7,905.47 gross
     *   − 1,026.54 in transit = 6,878.93 saldo final; − 513.27 pending = 6,365.66 to pay
     *   (= 6,328.96, the scheduled balance after row 10, + 36.70 accrued to the validity date).
     */
    const q = payoffQuote({ ...partway, validUntil: '2024-06-05' });
    expect(q).toMatchObject({
      evaluationDate: '2024-06-05',
      dueInterest: '320.06',
      dueIva: '51.21',
      accruedInterest: '31.64',
      accruedIva: '5.06',
      grossBalance: '7905.47',
      finalBalance: '6878.93',
      discountDate: '2024-05-31',
      pendingDeduction: '513.27',
      pendingDeductions: [{ installment: 10, discountDate: '2024-05-31', amount: '513.27' }],
      totalAmount: '6365.66',
    });
  });

  it('issue 13 #2: the letter of 2024-02-01 valid to 2024-02-11 settles the credit when paid on 2024-02-11', () => {
    /*
     * Installments 1–2 applied: balance 9,315.56. Row 3 runs 2024-01-31 → 2024-02-15 (15 days); to the
     * validity date 11 days: 139.73 × 11 / 15 = 102.4687 → 102.47, IVA 16.3952 → 16.40.
     * Letter: 9,315.56 + 102.47 + 16.40 = 9,434.43 (the old letter said 9,326.37 and left 151.28 owing).
     */
    const letter = payoffQuote({
      ...partway,
      installments: paidThrough(2),
      inTransit: [],
      quoteDate: '2024-02-01',
      validUntil: '2024-02-11',
    });
    expect(letter.totalAmount).toBe('9434.43');
    const terms = {
      disbursementDate: '2023-12-31',
      ivaRate: '0.16',
      annualRate: '0.36',
      frequency: 'quincenal' as const,
      installment: '513.27',
    };
    const lastDay = allocatePayment({ ...terms, installments: paidThrough(2), amount: letter.totalAmount, valueDate: '2024-02-11' });
    expect([lastDay.paidOff, lastDay.overpayment, owedTotal(lastDay.installments)]).toEqual([true, '0.00', 0n]);
    // Paid on its first day: 1 day accrued (9.32 + 1.49), so 108.06 comes back as sobrepago.
    const firstDay = allocatePayment({ ...terms, installments: paidThrough(2), amount: letter.totalAmount, valueDate: '2024-02-01' });
    expect([firstDay.paidOff, firstDay.overpayment]).toEqual([true, '108.06']);
  });

  it('issue 13 #10: pagos realizados does not count rows a prepayment made unnecessary', () => {
    const terms = {
      disbursementDate: '2023-12-31',
      ivaRate: '0.16',
      annualRate: '0.36',
      frequency: 'quincenal' as const,
      installment: '513.27',
    };
    const prepaid = allocatePayment({ ...terms, installments: paidThrough(1), amount: '5000.00', valueDate: '2024-01-15' });
    const q = payoffQuote({ ...partway, installments: prepaid.installments, inTransit: [], quoteDate: '2024-01-20' });
    // Only installment 1 was paid by a deduction; rows 12–24 are cleared, not paid.
    expect(q.paymentsMade).toBe(1);
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
          cents(q.outstandingPrincipal) +
          cents(q.dueInterest) +
          cents(q.dueIva) +
          cents(q.dueFees) +
          cents(q.dueFeesIva) +
          cents(q.dueMoratoryInterest) +
          cents(q.dueMoratoryIva) +
          cents(q.accruedInterest) +
          cents(q.accruedIva);
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

describe('payoff letter window (property)', () => {
  it('paying the letter amount on any day of its window, after the deductions taken by then, leaves the credit liquidado with sobrepago ≥ 0', () => {
    fc.assert(
      fc.property(creditStateArb(24), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }), (credit, validity, payOffset) => {
        const quoteDate = credit.date;
        const validUntil = addDays(quoteDate, validity);
        const principal = formatCents(credit.schedule.rows.reduce((s, r) => s + cents(r.principal), 0n));
        const terms = {
          disbursementDate: credit.disbursementDate,
          ivaRate: credit.ivaRate,
          annualRate: credit.annualRate,
          frequency: credit.frequency,
          installment: credit.schedule.installment,
        };
        // Everything already due on the quote date is assumed paid by its deductions first, so the letter is about the future.
        let installments = credit.installments;
        const letter = payoffQuote({
          creditAmount: principal,
          installment: terms.installment,
          disbursementDate: terms.disbursementDate,
          ivaRate: terms.ivaRate,
          installments,
          quoteDate,
          validUntil,
        });
        fc.pre(cents(letter.totalAmount) > 0n);
        const payDate = addDays(quoteDate, payOffset % (validity + 1));
        let sobrepago = 0n;
        // The pending deductions are taken on their dates; the letter's amount is paid on payDate.
        const events = [
          ...letter.pendingDeductions.map((d) => ({ date: d.discountDate, amount: d.amount, order: 0 })),
          { date: payDate, amount: letter.totalAmount, order: 1 },
        ].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.order - b.order));
        let paidOff = false;
        for (const e of events) {
          if (e.date < quoteDate) continue;
          const r = allocatePayment({ ...terms, installments, amount: e.amount, valueDate: e.date });
          installments = r.installments;
          sobrepago += cents(r.overpayment);
          paidOff = r.paidOff;
        }
        return paidOff && owedTotal(installments) === 0n && sobrepago >= 0n;
      }),
      { numRuns: 1000 },
    );
  });
});
