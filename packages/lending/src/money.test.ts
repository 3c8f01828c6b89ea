import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LendingInputError } from './errors.ts';
import { divRoundHalfUp, formatCents, parseCanonicalCents, parseCents, parseRate } from './money.ts';
import { daysBetween, addDays } from './dates.ts';

describe('money', () => {
  it.each([
    ['10000.00', 1_000_000n],
    ['12.5', 1250n],
    ['7', 700n],
    ['0.01', 1n],
    ['-0.05', -5n],
    [' 3.10 ', 310n],
  ])('parses %s as %s centavos', (text, value) => {
    expect(parseCents(text, 'x')).toBe(value);
  });

  it.each(['1.005', '1,000.00', '$100', '1e3', '', 'abc', '.50', '1.'])('refuses %s', (text) => {
    expect(() => parseCents(text, 'x')).toThrowError(LendingInputError);
  });

  it.each([
    [0n, '0.00'],
    [5n, '0.05'],
    [-5n, '-0.05'],
    [123456n, '1234.56'],
    [100000000000000n, '1000000000000.00'],
  ])('formats %s centavos as %s', (value, text) => {
    expect(formatCents(value)).toBe(text);
  });

  it('rounds half up at exactly half, and only there', () => {
    expect(divRoundHalfUp(15n, 10n)).toBe(2n); // 1.5 → 2
    expect(divRoundHalfUp(25n, 10n)).toBe(3n); // 2.5 → 3 (not banker's 2)
    expect(divRoundHalfUp(149n, 100n)).toBe(1n);
    expect(divRoundHalfUp(-15n, 10n)).toBe(-2n); // away from zero
    expect(divRoundHalfUp(10005n, 1000n)).toBe(10n);
  });

  it('parses rates exactly', () => {
    expect(parseRate('0.36', 'r')).toEqual({ num: 9n, den: 25n });
    expect(parseRate('0.1234567', 'r')).toEqual({ num: 1234567n, den: 10000000n });
    expect(parseRate('0', 'r')).toEqual({ num: 0n, den: 1n });
  });

  it('property: format then parse is the identity', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), (c) => parseCents(formatCents(c), 'x') === c),
      { numRuns: 2000 },
    );
  });

  // The implementations before the fast paths (a Number's digits, the zero literal), kept as the models they must equal.
  const modelFormat = (cents: bigint): string => {
    const negative = cents < 0n;
    const digits = (negative ? -cents : cents).toString();
    const padded = digits.length < 3 ? digits.padStart(3, '0') : digits;
    const cut = padded.length - 2;
    return (negative ? '-' : '') + padded.slice(0, cut) + '.' + padded.slice(cut);
  };
  const modelCanonical = (value: string): bigint | undefined => {
    const n = value.length;
    if (n < 4 || value.charCodeAt(n - 3) !== 46) return undefined;
    for (let i = 0; i < n; i++) {
      if (i === n - 3) continue;
      const c = value.charCodeAt(i);
      if (c < 48 || c > 57) return undefined;
    }
    return BigInt(value.slice(0, n - 3) + value.slice(n - 2));
  };
  // Amounts of every size: centavos, pesos, a numeric(14,2)'s, past 2^53 and far past it.
  const anyCents = fc.oneof(
    fc.bigInt({ min: -10_000n, max: 10_000n }),
    fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
    fc.bigInt({ min: 2n ** 53n - 1000n, max: 2n ** 53n + 1000n }).map((c) => (c % 2n === 0n ? c : -c)),
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
  );

  it('property: formatCents writes what the bigint digits write, at any size', () => {
    fc.assert(
      fc.property(anyCents, (c) => formatCents(c) === modelFormat(c)),
      { numRuns: 5000 },
    );
    for (const edge of [2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 1n - 2n ** 53n, -(2n ** 53n), 99n, 100n, 101n, -100n, -99n])
      expect(formatCents(edge)).toBe(modelFormat(edge));
  });

  it('property: parseCanonicalCents reads what the bigint parser reads, and refuses the same texts', () => {
    const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
    const texts = fc.oneof(
      anyCents.map((c) => modelFormat(c < 0n ? -c : c)),
      fc.tuple(digits(1, 20), digits(2, 2)).map(([whole, fraction]) => `${whole}.${fraction}`),
      fc.string({ maxLength: 20 }),
      fc.stringMatching(/^[0-9.\- ]{0,18}$/),
    );
    fc.assert(
      fc.property(texts, (text) => parseCanonicalCents(text) === modelCanonical(text)),
      { numRuns: 5000 },
    );
    for (const edge of ['0.00', '00.00', '9007199254740.99', '9007199254740.92', '999999999999999.99', '1234567890123.45', '.000', '-1.00'])
      expect(parseCanonicalCents(edge)).toBe(modelCanonical(edge));
  });

  it('property: half-up rounding is within half a unit and ties go up', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.bigInt({ min: 1n, max: 10n ** 9n }), (n, d) => {
        const q = divRoundHalfUp(n, d);
        const twice = 2n * n - 2n * q * d; // 2·(n/d − q)·d
        return twice >= -d && twice < d;
      }),
      { numRuns: 2000 },
    );
  });
});

describe('dates', () => {
  it('counts days across leap years and adds them back', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2023-02-28', '2023-03-01')).toBe(1);
    expect(daysBetween('1999-12-31', '2000-03-01')).toBe(61);
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(addDays('2100-02-28', 1)).toBe('2100-03-01');
  });

  it('property: addDays agrees with the platform calendar (UTC)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 80_000 }), fc.integer({ min: -5000, max: 5000 }), (start, delta) => {
        const base = new Date(Date.UTC(1950, 0, 1) + start * 86_400_000).toISOString().slice(0, 10);
        const expected = new Date(Date.UTC(1950, 0, 1) + (start + delta) * 86_400_000).toISOString().slice(0, 10);
        return addDays(base, delta) === expected && daysBetween(base, expected) === delta;
      }),
      { numRuns: 2000 },
    );
  });
});
