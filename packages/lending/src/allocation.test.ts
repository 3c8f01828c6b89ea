import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allocatePayment, type AllocationInput } from './allocation.ts';
import { LendingInputError } from './errors.ts';
import { installmentsFromSchedule, type InstallmentState } from './ledger.ts';
import { formatCents } from './money.ts';
import { payoffQuote } from './payoff.ts';
import { buildSchedule } from './schedule.ts';
import { cents, creditStateArb, owedTotal } from './test-support.ts';

// The quincenal golden loan of schedule.test.ts: 10,000.00 at 36 %, 24 fortnights from 2024-01-15,
// disbursed 2023-12-31. Installments 1–3: 513.27 = 339.27 + 150.00 + 24.00, 345.17 + 144.91 + 23.19,
// 351.18 + 139.73 + 22.36; the last, 24 (2024-12-31): 504.45 + 7.57 + 1.21 = 513.23.
const schedule = buildSchedule({ principal: '10000.00', annualRate: '0.36', ivaRate: '0.16', term: 24, frequency: 'quincenal', firstDueDate: '2024-01-15' });
const fresh = installmentsFromSchedule(schedule);
const base = { disbursementDate: '2023-12-31', ivaRate: '0.16', installments: fresh };

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

  it('an advance pays the accrued interest of the current period, then the principal of the last installment', () => {
    const r = allocatePayment({ ...base, amount: '1200.00', valueDate: '2024-02-01' });
    // Installments 1 and 2 are due: 1,026.54. Installment 3 runs 2024-01-31 → 2024-02-15 (15 days); one day
    // has elapsed: 139.73 × 1 / 15 = 9.3153 → 9.32, IVA 1.4912 → 1.49. The remaining 162.65 prepays the
    // principal of installment 24 (504.45), which keeps its interest until that principal is fully repaid.
    expect(lines(r)).toEqual([
      [1, 'interest', '150.00', 'due'],
      [1, 'iva', '24.00', 'due'],
      [1, 'principal', '339.27', 'due'],
      [2, 'interest', '144.91', 'due'],
      [2, 'iva', '23.19', 'due'],
      [2, 'principal', '345.17', 'due'],
      [3, 'interest', '9.32', 'accrued'],
      [3, 'iva', '1.49', 'accrued'],
      [24, 'principal', '162.65', 'prepayment'],
    ]);
    expect(r.waived).toEqual([]);
    expect(r.applied).toBe('1200.00');
  });

  it('prepaying the whole principal of the last installment shortens the term and waives its interest', () => {
    const r = allocatePayment({ ...base, amount: '1000.00', valueDate: '2024-01-15' });
    // 513.27 pays installment 1; installment 2 (2024-01-31) has accrued nothing on its first day;
    // 486.73 then goes to principal from the end: 24 needs 504.45, so it takes all 486.73.
    expect(lines(r).slice(3)).toEqual([[24, 'principal', '486.73', 'prepayment']]);
    const r2 = allocatePayment({ ...base, amount: '1100.00', valueDate: '2024-01-15' });
    // 586.73: installment 24's principal 504.45 in full (its 7.57 + 1.21 waived), 82.28 to 23's principal.
    expect(lines(r2).slice(3)).toEqual([
      [24, 'principal', '504.45', 'prepayment'],
      [23, 'principal', '82.28', 'prepayment'],
    ]);
    expect(r2.waived).toEqual([
      { installment: 24, component: 'interest', amount: '7.57' },
      { installment: 24, component: 'iva', amount: '1.21' },
    ]);
  });

  it('money beyond the payoff is a sobrepago: reported, never swallowed', () => {
    const r = allocatePayment({ ...base, amount: '10000.00', valueDate: '2023-12-31' });
    // On the disbursement date nothing has accrued: 10,000.00 of principal settles the credit exactly.
    expect([r.applied, r.overpayment, r.paidOff]).toEqual(['10000.00', '0.00', true]);
    const extra = allocatePayment({ ...base, amount: '10050.25', valueDate: '2023-12-31' });
    expect([extra.applied, extra.overpayment, extra.paidOff]).toEqual(['10000.00', '50.25', true]);
    // Future interest of every installment is waived once the credit is paid off.
    expect(extra.waived.filter((w) => w.component === 'interest')).toHaveLength(24);
    const again = allocatePayment({ ...base, installments: extra.installments, amount: '100.00', valueDate: '2024-01-15' });
    expect([again.applied, again.overpayment, again.paidOff]).toEqual(['0.00', '100.00', true]);
  });

  it('the default waterfall takes moratory interest and fees before interest and principal', () => {
    const late: InstallmentState[] = [
      { number: 1, dueDate: '2024-01-15', principal: '339.27', interest: '150.00', iva: '24.00', moratoryInterest: '12.00', moratoryIva: '1.92', fees: '50.00', feesIva: '8.00' },
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
    ['paid more than charged', { installments: [{ number: 1, dueDate: '2024-01-15', principal: '1.00', interest: '0.00', iva: '0.00', paid: { principal: '2.00' } }] }, 'INVALID_INSTALLMENTS'],
  ])('refuses %s', (_reason, patch, code) => {
    expect(() => allocatePayment({ ...base, amount: '100.00', valueDate: '2024-01-15', ...patch })).toThrowError(LendingInputError);
    try {
      allocatePayment({ ...base, amount: '100.00', valueDate: '2024-01-15', ...patch });
    } catch (e) {
      expect((e as LendingInputError).code).toBe(code);
    }
  });
});

describe('allocatePayment properties', () => {
  const amountArb = fc.integer({ min: 1, max: 2_000_000 }).map((c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`);

  it('never creates or loses a centavo, and what it applies is exactly what the credit stops owing', () => {
    fc.assert(
      fc.property(creditStateArb(), amountArb, (credit, amount) => {
        const r = allocatePayment({ amount, valueDate: credit.date, disbursementDate: credit.disbursementDate, ivaRate: credit.ivaRate, installments: credit.installments });
        const lineSum = r.lines.reduce((s, l) => s + cents(l.amount), 0n);
        const waivedSum = r.waived.reduce((s, w) => s + cents(w.amount), 0n);
        const owedBefore = owedTotal(credit.installments);
        const owedAfter = owedTotal(r.installments);
        return (
          lineSum === cents(r.applied) &&
          cents(r.applied) + cents(r.overpayment) === cents(amount) &&
          owedBefore - owedAfter === lineSum + waivedSum &&
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
          const r = allocatePayment({ amount, valueDate: credit.date, disbursementDate: credit.disbursementDate, ivaRate: credit.ivaRate, installments });
          installments = r.installments;
          received += cents(amount);
          accounted += cents(r.applied) + cents(r.overpayment);
        }
        return received === accounted;
      }),
      { numRuns: 1000 },
    );
  });

  it('paying the payoff amount on its date settles the credit exactly, with no sobrepago', () => {
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
        const r = allocatePayment({ amount: quote.totalAmount, valueDate: credit.date, disbursementDate: credit.disbursementDate, ivaRate: credit.ivaRate, installments: credit.installments });
        return r.paidOff && r.overpayment === '0.00' && owedTotal(r.installments) === 0n;
      }),
      { numRuns: 1000 },
    );
  });
});
