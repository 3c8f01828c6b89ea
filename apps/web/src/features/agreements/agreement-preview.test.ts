import { describe, expect, it } from 'vitest';
import { sampleLoan } from './agreement-preview';

describe('agreement preview', () => {
  it('finances the opening fee into the principal, or deducts it from the disbursement', () => {
    const base = {
      amount: '10000.00',
      annualRatePct: '36',
      ivaRatePct: '16',
      openingFeePct: '2.5',
      term: 24,
      frequency: 'quincenal' as const,
      firstDueDate: '2026-11-30',
    };
    const financed = sampleLoan({ ...base, openingFeeFinanced: true });
    // 2.5 % of 10,000.00 = 250.00, plus 16 % IVA = 40.00: financed 10,290.00, or deducted 9,710.00 disbursed.
    expect(financed).toMatchObject({ openingFee: '250.00', openingFeeIva: '40.00', principal: '10290.00', netDisbursement: '10000.00' });
    const deducted = sampleLoan({ ...base, openingFeeFinanced: false });
    expect(deducted).toMatchObject({ openingFee: '250.00', openingFeeIva: '40.00', principal: '10000.00', netDisbursement: '9710.00' });
    const rows = deducted.schedule.rows;
    expect(rows).toHaveLength(24);
    expect(rows.at(-1)!.balance).toBe('0.00');
    // The fee deducted up front costs the borrower: the CAT is above the nominal rate.
    expect(Number(deducted.cat)).toBeGreaterThan(36);
  });

  it('takes a payday that falls on a non-working day on the previous working day', () => {
    const base = {
      amount: '10000.00',
      annualRatePct: '36',
      ivaRatePct: '16',
      openingFeePct: '0',
      openingFeeFinanced: false,
      term: 3,
      frequency: 'quincenal' as const,
      firstDueDate: '2026-11-30',
    };
    // 30 Nov 2026 and 31 Dec 2026 are holidays of this payroll: paid on 27 Nov (28–29 are the weekend, also listed) and 30 Dec.
    const loan = sampleLoan({ ...base, nonWorkingDays: ['2026-11-28', '2026-11-29', '2026-11-30', '2026-12-31'] });
    expect(loan.schedule.rows.map((row) => row.dueDate)).toEqual(['2026-11-27', '2026-12-15', '2026-12-30']);
    expect(sampleLoan(base).schedule.rows.map((row) => row.dueDate)).toEqual(['2026-11-30', '2026-12-15', '2026-12-31']);
  });
});
