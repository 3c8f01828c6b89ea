import { describe, expect, it } from 'vitest';
import { agreementInputSchema, percentToFraction } from './agreements';

describe('percentToFraction', () => {
  it.each([
    ['36', '0.36'],
    ['36.5', '0.365'],
    ['16', '0.16'],
    ['100', '1.00'],
    ['0.25', '0.0025'],
    ['150.1234', '1.501234'],
    ['0', '0.00'],
  ])('%s %% → %s', (percent, fraction) => {
    expect(percentToFraction(percent)).toBe(fraction);
  });
});

describe('agreementInputSchema', () => {
  it('normalises the code to upper case and amounts to two decimals', () => {
    const parsed = agreementInputSchema.parse({
      companyId: '9d7c1c7a-6d53-4f0e-8a3e-0c8a1f2b3c4d',
      code: 'gob-jal',
      name: 'Gobierno de Jalisco',
      employerName: 'Gobierno de Jalisco',
      employerRfc: 'spf130103bf7',
      sector: 'estatal',
      frequency: 'quincenal',
      maxDeductionPct: '30',
      remittanceLagDays: 10,
      validFrom: '2026-01-01',
      validTo: null,
      contacts: [],
      products: [{ name: 'P24', annualRatePct: '36', ivaRatePct: '16', openingFeePct: '0', openingFeeFinanced: false, terms: [24], minAmount: '1000', maxAmount: '5000.5', maxAgeAtEnd: 70 }],
      layout: { format: 'csv', delimiter: ',', hasHeader: true, columns: { creditId: 1, amount: 2 } },
      active: true,
    });
    expect(parsed.code).toBe('GOB-JAL');
    expect(parsed.employerRfc).toBe('SPF130103BF7');
    expect(parsed.products[0]).toMatchObject({ minAmount: '1000.00', maxAmount: '5000.50', active: true });
  });
});
