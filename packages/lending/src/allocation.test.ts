import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allocatePayment, revertPayment, type AllocationInput } from './allocation.ts';
import { closeBusinessDay } from './day-close.ts';
import { LendingInputError } from './errors.ts';
import { installmentsFromSchedule, type InstallmentState } from './ledger.ts';
import { formatCents } from './money.ts';
import { payoffQuote } from './payoff.ts';
import { buildSchedule } from './schedule.ts';
import { cents, creditStateArb, owedTotal, type CreditState } from './test-support.ts';

// The quincenal golden loan of schedule.test.ts: 10,000.00 at 36 %, 24 fortnights from 2024-01-15,
// disbursed 2023-12-31. Installments 1–3: 513.27 = 339.27 + 150.00 + 24.00, 345.17 + 144.91 + 23.19,
// 351.18 + 139.73 + 22.36; the last, 24 (2024-12-31): 504.45 + 7.57 + 1.21 = 513.23.
const schedule = buildSchedule({
  principal: '10000.00',
  annualRate: '0.36',
  ivaRate: '0.16',
  term: 24,
  frequency: 'quincenal',
  firstDueDate: '2024-01-15',
});
const fresh = installmentsFromSchedule(schedule);
const base = {
  disbursementDate: '2023-12-31',
  ivaRate: '0.16',
  annualRate: '0.36',
  frequency: 'quincenal' as const,
  installment: '513.27',
  installments: fresh,
};

/**
 * Second, deliberately plain implementation of DOMAIN §1's rows for a balance and a fixed installment:
 * interest = round(balance × 0.36 / 24), IVA = round(interest × 0.16), principal = installment − both,
 * the last deduction taking whatever balance is left. Exact integers only; used as the golden reference.
 */
function referenceRemaining(balanceCents: bigint, installmentCents: bigint): bigint[] {
  const payments: bigint[] = [];
  let balance = balanceCents;
  while (balance > 0n) {
    const interest = (balance * 36n * 2n + 2400n) / (2400n * 2n); // round half up of balance × 36 / 2400
    const iva = (interest * 16n * 2n + 100n) / 200n; // round half up of interest × 16 / 100
    let principal = installmentCents - interest - iva;
    if (principal > balance) principal = balance;
    payments.push(principal + interest + iva);
    balance -= principal;
  }
  return payments;
}

function lines(result: ReturnType<typeof allocatePayment>): Array<[number, string, string, string]> {
  return result.lines.map((l) => [l.installment, l.component, l.amount, l.step]);
}

describe('allocatePayment golden cases', () => {
  it('a regular deduction on its discount date pays that installment: interest, IVA, principal', () => {
    const r = allocatePayment({ ...base, amount: '513.27', valueDate: '2024-01-15' });
    expect(lines(r)).toEqual([
      [1, 'interest', '150.00', 'due'],
      [1, 'iva', '24.00', 'due'],
      [1, 'principal', '339.27', 'due'],
    ]);
    expect([r.applied, r.overpayment, r.paidOff]).toEqual(['513.27', '0.00', false]);
    expect(r.installments[0]?.paid).toEqual({ interest: '150.00', iva: '24.00', principal: '339.27' });
  });

  it('a short payment fills the oldest installment first and stops', () => {
    const r = allocatePayment({ ...base, amount: '600.00', valueDate: '2024-02-01' });
    // 513.27 clears installment 1; 86.73 goes to installment 2's interest (144.91 due).
    expect(lines(r)).toEqual([
      [1, 'interest', '150.00', 'due'],
      [1, 'iva', '24.00', 'due'],
      [1, 'principal', '339.27', 'due'],
      [2, 'interest', '86.73', 'due'],
    ]);
  });

  it('issue 13 #1: installment plus 5,000.00 on 2024-01-15 leaves 10 deductions totalling 5,117.10 on the new balance', () => {
    const r = allocatePayment({ ...base, amount: '5513.27', valueDate: '2024-01-15' });
    // 513.27 pays installment 1; 5,000.00 reduces the saldo insoluto 9,660.73 → 4,660.73.
    expect(lines(r).slice(3)).toEqual([[2, 'principal', '5000.00', 'prepayment']]);
    expect(r.prepaidPrincipal).toBe('5000.00');
    const owedRows = r.installments.map((inst) => owedTotal([inst])).filter((owed) => owed > 0n);
    // Reference: 4,660.73 × 0.015 = 69.91, IVA 11.19, principal 432.17 … nine deductions of 513.27 and a
    // last one of 497.67 (the independent review: 10 deductions, 5,117.10).
    const reference = referenceRemaining(466073n, 51327n);
    expect(reference.length).toBe(10);
    expect(reference.reduce((sum, p) => sum + p, 0n)).toBe(511710n);
    expect(owedRows).toEqual(reference);
    expect(r.installments.filter((inst) => inst.clearedByPrepayment).map((inst) => inst.number)).toEqual([
      12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
    ]);
    // The payoff the same day agrees with the ledger: the new balance, nothing accrued yet.
    const quote = payoffQuote({
      creditAmount: '10000.00',
      installment: '513.27',
      disbursementDate: base.disbursementDate,
      ivaRate: '0.16',
      installments: r.installments,
      quoteDate: '2024-01-15',
    });
    expect(quote.totalAmount).toBe('4660.73');
    expect(quote.paymentsMade).toBe(1);
  });

  it('a prepayment with the lower-installment option keeps the term and lowers the deduction', () => {
    const r = allocatePayment({ ...base, amount: '5513.27', valueDate: '2024-01-15', prepaymentOption: 'lower-installment' });
    // 4,660.73 over the 23 remaining fortnights: j = 0.015 × 1.16 = 0.0174,
    // 4,660.73 × 0.0174 / (1 − 1.0174^−23) = 247.620995… → 247.62 (exact fractions, Python's fractions module).
    expect(r.installment).toBe('247.62');
    const owed = r.installments.slice(1).map((inst) => owedTotal([inst]));
    expect(owed).toHaveLength(23);
    expect(owed.slice(0, -1).every((o) => o === 24762n)).toBe(true);
  });

  it('mid-period: the current period is charged on the old balance before the payment and the new one after', () => {
    const r = allocatePayment({ ...base, amount: '1200.00', valueDate: '2024-02-01' });
    // Installments 1 and 2 are due: 1,026.54. Installment 3 runs 2024-01-31 → 2024-02-15 (15 days); one day
    // has elapsed: 139.73 × 1 / 15 = 9.3153 → 9.32, IVA 1.4912 → 1.49. The remaining 162.65 is prepaid:
    // balance 9,315.56 → 9,152.91. Installment 3 then owes 9,152.91 × 0.015 × 14/15 = 128.14074 → 128.14
    // interest, IVA 20.5024 → 20.50, and principal 513.27 − 128.14 − 20.50 = 364.63.
    expect(lines(r).slice(6)).toEqual([
      [3, 'interest', '9.32', 'accrued'],
      [3, 'iva', '1.49', 'accrued'],
      [3, 'principal', '162.65', 'prepayment'],
    ]);
    const third = r.installments[2]!;
    expect(cents(third.interest) - cents(third.paid?.interest ?? '0.00')).toBe(12814n);
    expect(cents(third.iva) - cents(third.paid?.iva ?? '0.00')).toBe(2050n);
    expect(cents(third.principal) - cents(third.paid?.principal ?? '0.00')).toBe(36463n);
    expect(r.applied).toBe('1200.00');
  });

  it('money beyond the payoff is a sobrepago: reported, never swallowed', () => {
    const r = allocatePayment({ ...base, amount: '10000.00', valueDate: '2023-12-31' });
    // On the disbursement date nothing has accrued: 10,000.00 of principal settles the credit exactly.
    expect([r.applied, r.overpayment, r.paidOff]).toEqual(['10000.00', '0.00', true]);
    const extra = allocatePayment({ ...base, amount: '10050.25', valueDate: '2023-12-31' });
    expect([extra.applied, extra.overpayment, extra.paidOff]).toEqual(['10000.00', '50.25', true]);
    expect(owedTotal(extra.installments)).toBe(0n);
    const again = allocatePayment({ ...base, installments: extra.installments, amount: '100.00', valueDate: '2024-01-15' });
    expect([again.applied, again.overpayment, again.paidOff]).toEqual(['0.00', '100.00', true]);
  });

  it('issue 13 #8: reverting a payment restores the exact prior state, and a liquidado credit owes again', () => {
    const paidThrough2 = allocatePayment({ ...base, amount: '1026.54', valueDate: '2024-01-31' }).installments;
    const payoff = allocatePayment({ ...base, installments: paidThrough2, amount: '9434.43', valueDate: '2024-02-11' });
    expect(payoff.paidOff).toBe(true);
    const closedPaid = closeBusinessDay({
      businessDate: '2024-02-11',
      credits: [{ id: 'c', status: 'vigente', installments: payoff.installments }],
      deductions: [],
    });
    expect(closedPaid.credits[0]?.status).toBe('liquidado');
    const reverted = revertPayment({ installments: payoff.installments, payment: payoff });
    expect(reverted).toEqual(paidThrough2);
    // Installment 3 (2024-02-15) unpaid: on 2024-03-01 the credit is vigente again with 15 days past due.
    const closed = closeBusinessDay({
      businessDate: '2024-03-01',
      credits: [{ id: 'c', status: 'liquidado', installments: reverted }],
      deductions: [],
    });
    expect(closed.credits[0]).toMatchObject({ status: 'vigente', daysPastDue: 15, agingBucket: '1-30' });
    // A payment whose credit changed since cannot be reverted (revert the later one first).
    expect(() => revertPayment({ installments: paidThrough2, payment: payoff })).toThrowError(LendingInputError);
  });

  it('the default waterfall takes moratory interest and fees before interest and principal', () => {
    const late: InstallmentState[] = [
      {
        number: 1,
        dueDate: '2024-01-15',
        principal: '339.27',
        interest: '150.00',
        iva: '24.00',
        moratoryInterest: '12.00',
        moratoryIva: '1.92',
        fees: '50.00',
        feesIva: '8.00',
      },
      ...fresh.slice(1),
    ];
    const r = allocatePayment({ ...base, installments: late, amount: '100.00', valueDate: '2024-01-20' });
    expect(lines(r)).toEqual([
      [1, 'moratoryInterest', '12.00', 'due'],
      [1, 'moratoryIva', '1.92', 'due'],
      [1, 'fees', '50.00', 'due'],
      [1, 'feesIva', '8.00', 'due'],
      [1, 'interest', '28.08', 'due'],
    ]);
  });

  it('the order inside an installment is configurable', () => {
    const r = allocatePayment({
      ...base,
      amount: '400.00',
      valueDate: '2024-01-15',
      componentOrder: ['principal', 'interest', 'iva', 'moratoryInterest', 'moratoryIva', 'fees', 'feesIva'],
    });
    expect(lines(r)).toEqual([
      [1, 'principal', '339.27', 'due'],
      [1, 'interest', '60.73', 'due'],
    ]);
  });

  it.each<[string, Partial<AllocationInput>, string]>([
    ['zero amount', { amount: '0.00' }, 'NON_POSITIVE_AMOUNT'],
    ['negative amount', { amount: '-5.00' }, 'NON_POSITIVE_AMOUNT'],
    ['value date before the disbursement', { valueDate: '2023-12-30' }, 'INVALID_DATE_ORDER'],
    ['order missing a component', { componentOrder: ['interest', 'iva', 'principal'] }, 'INVALID_COMPONENT_ORDER'],
    ['no installments', { installments: [] }, 'INVALID_INSTALLMENTS'],
    [
      'paid more than charged',
      {
        installments: [{ number: 1, dueDate: '2024-01-15', principal: '1.00', interest: '0.00', iva: '0.00', paid: { principal: '2.00' } }],
      },
      'INVALID_INSTALLMENTS',
    ],
    [
      // A row whose total is paid may owe nothing of any component: the credit view leaves such rows out of its sums.
      'a component paid beyond its charge on a row that owes nothing in all',
      {
        installments: [
          {
            number: 1,
            dueDate: '2024-01-15',
            principal: '1.00',
            interest: '1.00',
            iva: '0.00',
            paid: { principal: '0.50', interest: '1.50' },
          },
        ],
      },
      'INVALID_INSTALLMENTS',
    ],
  ])('refuses %s', (_reason, patch, code) => {
    expect(() => allocatePayment({ ...base, amount: '100.00', valueDate: '2024-01-15', ...patch })).toThrowError(LendingInputError);
    try {
      allocatePayment({ ...base, amount: '100.00', valueDate: '2024-01-15', ...patch });
    } catch (e) {
      expect((e as LendingInputError).code).toBe(code);
    }
  });
});

const creditTerms = (credit: CreditState) => ({
  disbursementDate: credit.disbursementDate,
  ivaRate: credit.ivaRate,
  annualRate: credit.annualRate,
  frequency: credit.frequency,
  installment: credit.schedule.installment,
});

describe('allocatePayment properties', () => {
  const amountArb = fc.integer({ min: 1, max: 2_000_000 }).map((c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`);

  it('never creates or loses a centavo, and what it applies is exactly what the credit stops owing', () => {
    fc.assert(
      fc.property(creditStateArb(), amountArb, (credit, amount) => {
        const r = allocatePayment({ amount, valueDate: credit.date, ...creditTerms(credit), installments: credit.installments });
        const lineSum = r.lines.reduce((s, l) => s + cents(l.amount), 0n);
        const waivedSum = r.waived.reduce((s, w) => s + cents(w.amount), 0n);
        const owedBefore = owedTotal(credit.installments);
        const owedAfter = owedTotal(r.installments);
        // Without a prepayment the credit stops owing exactly what was applied or waived; a prepayment also
        // rebuilds the future interest on the lower balance, so it can only stop owing more.
        const exact =
          r.prepaidPrincipal === '0.00'
            ? owedBefore - owedAfter === lineSum + waivedSum
            : owedBefore - owedAfter >= lineSum + waivedSum - 1n * BigInt(credit.schedule.rows.length);
        return (
          lineSum === cents(r.applied) &&
          cents(r.applied) + cents(r.overpayment) === cents(amount) &&
          exact &&
          owedAfter >= 0n &&
          (cents(r.overpayment) === 0n || r.paidOff) &&
          (!r.paidOff || owedTotal(r.installments) === 0n)
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('a sequence of payments conserves money too, and the result is always a valid state', () => {
    fc.assert(
      fc.property(creditStateArb(24), fc.array(amountArb, { minLength: 1, maxLength: 6 }), (credit, amounts) => {
        let installments = credit.installments;
        let received = 0n;
        let accounted = 0n;
        for (const amount of amounts) {
          const r = allocatePayment({ amount, valueDate: credit.date, ...creditTerms(credit), installments });
          installments = r.installments;
          received += cents(amount);
          accounted += cents(r.applied) + cents(r.overpayment);
        }
        return received === accounted;
      }),
      { numRuns: 1000 },
    );
  });

  it('paying the payoff amount on its date (with that day’s payroll deduction, netted by it) settles the credit exactly, with no sobrepago', () => {
    fc.assert(
      fc.property(creditStateArb(), (credit) => {
        const quote = payoffQuote({
          creditAmount: formatCents(credit.schedule.rows.reduce((s, r) => s + cents(r.principal), 0n)),
          installment: credit.schedule.installment,
          disbursementDate: credit.disbursementDate,
          ivaRate: credit.ivaRate,
          installments: credit.installments,
          quoteDate: credit.date,
        });
        fc.pre(cents(quote.totalAmount) > 0n);
        // On a payday the quote nets that day's deduction, still to be taken (DOMAIN 3): the day brings both.
        const r = allocatePayment({
          amount: formatCents(cents(quote.totalAmount) + cents(quote.pendingDeduction)),
          valueDate: credit.date,
          ...creditTerms(credit),
          installments: credit.installments,
        });
        return r.paidOff && r.overpayment === '0.00' && owedTotal(r.installments) === 0n;
      }),
      { numRuns: 1000 },
    );
  });
});
