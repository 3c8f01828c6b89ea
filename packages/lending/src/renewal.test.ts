import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LendingInputError } from './errors.ts';
import { formatCents } from './money.ts';
import { assessRenewal, otherDeductionsAfterRenewal, renewalRuleReasons, type RenewalInput } from './renewal.ts';

const rule = { minPaidInstallments: 6, maxDaysPastDue: 15 };
const base: RenewalInput = {
  amount: '30000.00',
  // 2 % of 30,000.00 = 600.00; its IVA 16 % = 96.00.
  openingFee: '600.00',
  openingFeeIva: '96.00',
  openingFeeFinanced: false,
  renewed: [
    { folio: 'CR-000001', payoff: '12345.67', installment: '513.27', paidInstallments: 8, daysPastDue: 0 },
    { folio: 'CR-000002', payoff: '4000.10', installment: '250.00', paidInstallments: 6, daysPastDue: 15 },
  ],
  rule,
  minimumNet: '1000.00',
};

describe('assessRenewal (hand-worked)', () => {
  it('deducted fee: 30,000.00 − 600.00 − 96.00 = 29,304.00; − 12,345.67 − 4,000.10 = 12,958.23 net', () => {
    const result = assessRenewal(base);
    expect(result).toEqual({
      netDisbursement: '29304.00',
      payoffTotal: '16345.77',
      netAmount: '12958.23',
      freedInstallments: '763.27',
      reasons: [],
    });
  });

  it('financed fee: the client receives 30,000.00 − 16,345.77 = 13,654.23', () => {
    expect(assessRenewal({ ...base, openingFeeFinanced: true }).netAmount).toBe('13654.23');
  });

  it('refuses a negative net, naming both figures', () => {
    const result = assessRenewal({ ...base, amount: '16000.00', openingFee: '320.00', openingFeeIva: '51.20' });
    // 16,000.00 − 320.00 − 51.20 = 15,628.80; − 16,345.77 = −716.97.
    expect(result.netAmount).toBe('-716.97');
    expect(result.reasons).toEqual([
      {
        code: 'renewal-net',
        message: 'Los finiquitos ($16,345.77) superan lo que dispersa el nuevo crédito ($15,628.80); el monto neto sería -$716.97.',
      },
    ]);
  });

  it('refuses a net below the company minimum, and accepts one equal to it', () => {
    // 17,000.00 − 340.00 − 54.40 = 16,605.60; − 16,345.77 = 259.83 < 1,000.00.
    const below = assessRenewal({ ...base, amount: '17000.00', openingFee: '340.00', openingFeeIva: '54.40' });
    expect(below.netAmount).toBe('259.83');
    expect(below.reasons.map((r) => r.code)).toEqual(['renewal-minimum']);
    expect(assessRenewal({ ...base, minimumNet: '12958.23' }).reasons).toEqual([]);
    expect(assessRenewal({ ...base, minimumNet: '12958.24' }).reasons.map((r) => r.code)).toEqual(['renewal-minimum']);
  });

  it('refuses a credit failing the rule, one reason per failing condition', () => {
    const result = assessRenewal({
      ...base,
      renewed: [{ folio: 'CR-000009', payoff: '100.00', installment: '50.00', paidInstallments: 5, daysPastDue: 16 }],
    });
    expect(result.reasons).toEqual([
      { code: 'renewal-rule', message: 'El crédito CR-000009 lleva 5 pagos; para renovarlo se necesitan al menos 6.' },
      { code: 'renewal-rule', message: 'El crédito CR-000009 tiene 16 días de atraso; para renovarlo se admiten hasta 15.' },
    ]);
  });

  it('refuses a credit with nothing to pay off (its last deduction en tránsito): its payoff is 0.00', () => {
    const result = assessRenewal({
      ...base,
      renewed: [{ folio: 'CR-000010', payoff: '0.00', installment: '50.00', paidInstallments: 9, daysPastDue: 0 }],
    });
    expect(result.reasons).toEqual([
      {
        code: 'renewal-rule',
        message: 'El crédito CR-000010 no tiene saldo por liquidar: lo que debe ya lo descontó la nómina y está en tránsito.',
      },
    ]);
  });

  it('refuses counts that are not whole numbers', () => {
    expect(() => renewalRuleReasons({ folio: 'X', paidInstallments: 1.5, daysPastDue: 0 }, rule)).toThrow(LendingInputError);
    expect(() => renewalRuleReasons({ folio: 'X', paidInstallments: 1, daysPastDue: -1 }, rule)).toThrow(LendingInputError);
  });
});

describe('otherDeductionsAfterRenewal', () => {
  it('frees the renewed installments: 1,000.00 − 513.27 − 250.00 = 236.73', () => {
    expect(otherDeductionsAfterRenewal('1000.00', ['513.27', '250.00'])).toBe('236.73');
  });
  it('never below zero when the receipt showed less than the freed installments', () => {
    expect(otherDeductionsAfterRenewal('300.00', ['513.27'])).toBe('0.00');
  });
});

// A second implementation in floating-free integer centavos, written here: the property compares against it.
const centsArb = fc.bigInt({ min: 0n, max: 5_000_000_00n });

describe('assessRenewal (properties)', () => {
  it('conserves money: net + Σ payoffs + fee and IVA when deducted = amount, to the centavo', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 5_000_000_00n }),
        centsArb,
        centsArb,
        fc.boolean(),
        fc.array(centsArb, { maxLength: 4 }),
        (amount, fee, iva, financed, payoffs) => {
          const result = assessRenewal({
            amount: formatCents(amount),
            openingFee: formatCents(fee),
            openingFeeIva: formatCents(iva),
            openingFeeFinanced: financed,
            renewed: payoffs.map((p, i) => ({
              folio: `CR-${i}`,
              payoff: formatCents(p),
              installment: '1.00',
              paidInstallments: 9,
              daysPastDue: 0,
            })),
            rule,
            minimumNet: '0.00',
          });
          const toCents = (s: string) => BigInt(s.replace('.', ''));
          const sum = payoffs.reduce((a, b) => a + b, 0n);
          expect(toCents(result.payoffTotal)).toBe(sum);
          expect(toCents(result.netAmount) + sum + (financed ? 0n : fee + iva)).toBe(amount);
          expect(result.reasons.some((r) => r.code === 'renewal-net')).toBe(toCents(result.netAmount) < 0n);
        },
      ),
    );
  });

  it('freed other deductions are max(0, other − Σ installments) and never exceed what the receipt shows', () => {
    fc.assert(
      fc.property(centsArb, fc.array(centsArb, { maxLength: 4 }), (other, installments) => {
        const freed = BigInt(otherDeductionsAfterRenewal(formatCents(other), installments.map(formatCents)).replace('.', ''));
        const expected = other - installments.reduce((a, b) => a + b, 0n);
        expect(freed).toBe(expected > 0n ? expected : 0n);
        expect(freed <= other).toBe(true);
      }),
    );
  });
});
