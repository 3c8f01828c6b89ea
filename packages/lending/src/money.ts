import { LendingInputError } from './errors.ts';

/**
 * Exact money and rates.
 *
 * Amounts are integer centavos held in `bigint`; rates are exact rationals `num / den` (also `bigint`).
 * Nothing here touches binary floating point. Rounding is half up, applied only where the caller asks
 * (docs/domain.md: interest, IVA, installment, proration).
 */
export type Cents = bigint;

/** An exact non-negative rational, always with `den > 0`. */
export interface Ratio {
  readonly num: bigint;
  readonly den: bigint;
}

const AMOUNT_RE = /^(-)?(\d+)(?:\.(\d{1,2}))?$/;
const RATE_RE = /^(\d+)(?:\.(\d+))?$/;

/**
 * Parses a peso amount written as a decimal string ("10000.00", "12.5", "7") into centavos.
 * More than two decimals is refused rather than rounded: an amount that is not a whole number of
 * centavos is a bug upstream, not something to paper over.
 */
export function parseCents(value: string, field: string): Cents {
  const canonical = parseCanonicalCents(value);
  if (canonical !== undefined) return canonical;
  if (typeof value !== 'string') {
    throw new LendingInputError('INVALID_AMOUNT', field, `El campo ${field} debe ser un importe en pesos con hasta dos decimales.`);
  }
  const m = AMOUNT_RE.exec(value.trim());
  if (m === null) {
    throw new LendingInputError(
      'INVALID_AMOUNT',
      field,
      `El importe "${value}" del campo ${field} no es válido: use pesos con hasta dos decimales, por ejemplo 10000.00.`,
    );
  }
  const whole = BigInt(m[2] ?? '0');
  const frac = BigInt((m[3] ?? '').padEnd(2, '0'));
  const cents = whole * 100n + frac;
  return m[1] === '-' ? -cents : cents;
}

/**
 * Fast path for the canonical form every amount in this package is written in ("1234.56"): digits, a
 * dot, two digits. Checked character by character; up to 15 digits (any amount a numeric(14,2) holds) are summed
 * as a Number, exact below 2^53, and made a bigint in one step — no string is cut or joined, and the zeros that fill
 * most of a schedule's columns take the literal 0n (a payment file reads some 300 amounts for each credit it pays).
 */
export function parseCanonicalCents(value: string): Cents | undefined {
  if (typeof value !== 'string') return undefined;
  const n = value.length;
  if (n < 4 || value.charCodeAt(n - 3) !== 46) return undefined;
  if (n > 16) return parseLongCanonical(value, n);
  let cents = 0;
  for (let i = 0; i < n; i++) {
    if (i === n - 3) continue;
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
    cents = cents * 10 + (c - 48);
  }
  return cents === 0 ? 0n : BigInt(cents);
}

/** The canonical form past 15 digits, through the bigint's own parser. */
function parseLongCanonical(value: string, n: number): Cents | undefined {
  for (let i = 0; i < n; i++) {
    if (i === n - 3) continue;
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  return BigInt(value.slice(0, n - 3) + value.slice(n - 2));
}

/** Parses an amount that must be zero or more. */
export function parseNonNegativeCents(value: string, field: string): Cents {
  const c = parseCents(value, field);
  if (c < 0n) {
    throw new LendingInputError('NEGATIVE_AMOUNT', field, `El importe del campo ${field} no puede ser negativo.`);
  }
  return c;
}

/** Parses an amount that must be more than zero. */
export function parsePositiveCents(value: string, field: string): Cents {
  const c = parseCents(value, field);
  if (c <= 0n) {
    throw new LendingInputError('NON_POSITIVE_AMOUNT', field, `El importe del campo ${field} debe ser mayor que cero.`);
  }
  return c;
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Formats centavos as a decimal string with exactly two decimals: 123456n → "1234.56", -5n → "-0.05". Below 2^53 (every
 * amount but the unreal) through a Number, whose digits V8 writes without the bigint's runtime call.
 */
export function formatCents(cents: Cents): string {
  if (cents === 0n) return '0.00';
  if (cents < SAFE && cents > -SAFE) {
    const value = Number(cents);
    const size = value < 0 ? -value : value;
    const fraction = size % 100;
    const whole = (size - fraction) / 100;
    return (value < 0 ? '-' : '') + whole + (fraction < 10 ? '.0' : '.') + fraction;
  }
  return formatBigCents(cents);
}

/** The same for any bigint, through its digits. */
function formatBigCents(cents: Cents): string {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString();
  const padded = digits.length < 3 ? digits.padStart(3, '0') : digits;
  const cut = padded.length - 2;
  return (negative ? '-' : '') + padded.slice(0, cut) + '.' + padded.slice(cut);
}

/**
 * Divides and rounds half up (ties away from zero, the commercial rule; amounts here are never negative
 * in practice, so "half up" and "half away from zero" coincide). `den` must be positive.
 */
export function divRoundHalfUp(num: bigint, den: bigint): bigint {
  if (num >= 0n) return (2n * num + den) / (2n * den);
  return -((2n * -num + den) / (2n * den));
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) {
    const t = x % y;
    x = y;
    y = t;
  }
  return x;
}

/** Builds a ratio in lowest terms. */
export function ratio(num: bigint, den: bigint): Ratio {
  if (den <= 0n) throw new RangeError('ratio denominator must be positive');
  const g = gcd(num, den);
  return g > 1n ? { num: num / g, den: den / g } : { num, den };
}

/**
 * Parses a rate written as a decimal fraction ("0.36" = 36 %, "0.16" = 16 %) into an exact ratio.
 * Any number of decimals is kept exactly. Negative rates and anything that is not a plain decimal
 * number ("abc", "1e-3", "", "36%") are refused.
 */
export function parseRate(value: string, field: string): Ratio {
  const m = typeof value === 'string' ? RATE_RE.exec(value.trim()) : null;
  if (m === null) {
    throw new LendingInputError(
      'INVALID_RATE',
      field,
      `La tasa "${String(value)}" del campo ${field} no es un número válido: escríbala como fracción decimal, por ejemplo 0.36 para 36 %.`,
    );
  }
  const decimals = m[2] ?? '';
  return ratio(BigInt((m[1] ?? '0') + decimals), 10n ** BigInt(decimals.length));
}

export function minCents(a: Cents, b: Cents): Cents {
  return a < b ? a : b;
}

export function maxCents(a: Cents, b: Cents): Cents {
  return a > b ? a : b;
}
