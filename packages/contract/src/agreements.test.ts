import { describe, expect, it } from 'vitest';
import { agreementInputSchema, nonWorkingDaysSchema, percentToFraction, renewalMinimumNetField } from './agreements';

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
  const input = {
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
    products: [
      {
        name: 'P24',
        annualRatePct: '36',
        ivaRatePct: '16',
        openingFeePct: '0',
        openingFeeFinanced: false,
        terms: [24],
        minAmount: '1000',
        maxAmount: '5000.5',
        maxAgeAtEnd: 70,
      },
    ],
    layout: { format: 'csv', delimiter: ',', hasHeader: true, columns: { creditId: 1, amount: 2 } },
    active: true,
  };

  it('normalises the code to upper case and amounts to two decimals', () => {
    const parsed = agreementInputSchema.parse(input);
    expect(parsed.code).toBe('GOB-JAL');
    expect(parsed.employerRfc).toBe('SPF130103BF7');
    expect(parsed.products[0]).toMatchObject({ minAmount: '1000.00', maxAmount: '5000.50', active: true });
  });

  it('stores no non-working days unless given, and keeps the given ones in date order', () => {
    expect(agreementInputSchema.parse(input).nonWorkingDays).toEqual([]);
    expect(agreementInputSchema.parse({ ...input, nonWorkingDays: ['2026-12-25', '2026-09-16', '2026-11-16'] }).nonWorkingDays).toEqual([
      '2026-09-16',
      '2026-11-16',
      '2026-12-25',
    ]);
  });
});

describe('nonWorkingDaysSchema', () => {
  const messages = (value: unknown) => nonWorkingDaysSchema.safeParse(value).error?.issues.map((issue) => issue.message);

  it('accepts real ISO dates, each once', () => {
    expect(nonWorkingDaysSchema.parse(['2026-05-01', '2026-02-02'])).toEqual(['2026-02-02', '2026-05-01']);
    expect(nonWorkingDaysSchema.parse([])).toEqual([]);
  });

  it.each([
    [['2026-02-30'], 'Días inhábiles de nómina: cada fecha debe ser válida (dd/mm/aaaa).'],
    [['16/09/2026'], 'Días inhábiles de nómina: cada fecha debe ser válida (dd/mm/aaaa).'],
    [['2026-09-16', '2026-09-16'], 'Días inhábiles de nómina: hay fechas repetidas.'],
  ])('refuses %o in Spanish', (value, message) => {
    expect(messages(value)).toEqual([message]);
  });

  it('refuses more than 60 dates', () => {
    const days = Array.from({ length: 61 }, (_, index) => new Date(Date.UTC(2026, 0, 1 + index)).toISOString().slice(0, 10));
    expect(nonWorkingDaysSchema.safeParse(days.slice(0, 60)).success).toBe(true);
    expect(messages(days)).toEqual(['Días inhábiles de nómina: máximo 60 fechas.']);
  });
});

describe('renewalMinimumNetField', () => {
  it.each([
    ['0', '0.00'],
    ['$12,500.5', '12500.50'],
    [' 7000 ', '7000.00'],
    ['000150', '150.00'],
    ['999999999999.99', '999999999999.99'],
  ])('takes %j as %s', (typed, stored) => {
    expect(renewalMinimumNetField.parse(typed)).toBe(stored);
  });

  it.each([
    ['-1', 'no puede ser negativo'],
    ['-$1,000', 'no puede ser negativo'],
    ['1.234', 'a lo más dos decimales'],
    ['abc', 'escribe un importe en pesos'],
    ['1e5', 'escribe un importe en pesos'],
    ['', 'escribe un importe en pesos'],
    ['1000000000000', 'no puede pasar de $999,999,999,999.99'],
  ])('refuses %j: %s', (typed, message) => {
    const issues = renewalMinimumNetField.safeParse(typed).error?.issues ?? [];
    expect(issues).toHaveLength(1);
    expect(issues[0]!.message).toContain(message);
  });
});
