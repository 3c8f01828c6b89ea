import { z } from 'zod';

/**
 * What people type, cleaned up before it is checked: the one parser the shared schemas (browser and API alike)
 * and the live previews use, so "30,000", "$12,500.00" and "33 1234 5678" are accepted, not refused.
 */

/** Digits grouped by commas in threes ("1,234,567.5"): the commas are thousands separators, not decimals. */
const GROUPED = /^\d{1,3}(,\d{3})+(\.\d*)?$/;

/** "$12,500.00" → "12500.00", " 30,000 " → "30000"; anything that is not an amount comes back as typed (trimmed). */
export function cleanMoney(value: string): string {
  const bare = value
    .trim()
    .replace(/^\$\s*/, '')
    .replace(/\s*(MXN|pesos)$/i, '')
    .replace(/\s+/g, '');
  return GROUPED.test(bare) ? bare.replace(/,/g, '') : bare;
}

/** Pesos as typed, cleaned and checked: "12500.00", or null when it is not an amount. */
export function parseMoney(value: string): string | null {
  const clean = cleanMoney(value);
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(clean)) return null;
  return clean.includes('.') ? clean.padEnd(clean.indexOf('.') + 3, '0') : `${clean}.00`;
}

/** "33 1234 5678", "(33) 1234-5678", "+52 33 1234 5678" → "3312345678": a Mexican number's ten digits. */
export function cleanPhone(value: string): string {
  const digits = value.trim().replace(/[\s().-]/g, '');
  return /^\+?52\d{10}$/.test(digits) ? digits.slice(-10) : digits;
}

/** Pesos as typed ("10000", "10,000", "$10,000.5"), validated and answered with exactly two decimals ("10000.50"). */
export const moneyField = (label: string, example: string) =>
  z
    .string()
    .transform(cleanMoney)
    .pipe(z.string().regex(/^\d{1,12}(\.\d{1,2})?$/, `${label}: escribe un importe en pesos, por ejemplo ${example} o ${example}.50.`))
    .transform((value) => parseMoney(value)!);

/** A Mexican phone number: ten digits, typed with or without spaces, dashes, parentheses or +52. */
export const phoneField = (label: string) =>
  z
    .string()
    .transform(cleanPhone)
    .pipe(z.string().regex(/^\d{10}$/, `${label}: escribe los 10 dígitos, por ejemplo 33 1234 5678.`));

/**
 * The dates the business can have: a birth date, a disbursement, a payday, a filter's bound. PostgreSQL's `date`
 * refuses year 0 (`0000-02-29` passes a calendar check: 0 is a multiple of 400) and its cast errors reached SQL as
 * 500s and cut exports (issue 44), so every date a route takes — query, body, filter, multipart field — is this one
 * schema, and nothing outside the range reaches SQL.
 */
export const DATE_MIN = '1900-01-01';
export const DATE_MAX = '2100-12-31';

/** Fixed-width ISO dates compare as strings, so the range check needs no Date (and no time zone). */
export const isDateInRange = (value: string): boolean => value >= DATE_MIN && value <= DATE_MAX;

/**
 * An ISO calendar date (AAAA-MM-DD, a real day) between 1900-01-01 and 2100-12-31; `label` names the field, `invalid`
 * replaces the sentence for a value that is not a date (a form may say it in the dd/mm/aaaa its clerk types). A value
 * that is not a date gets that one sentence, not the range's too.
 */
export const dateField = (label = 'Fecha', invalid = `${label}: fecha no válida (AAAA-MM-DD).`) =>
  z.iso.date({ message: invalid, abort: true }).refine(isDateInRange, `${label}: usa una fecha entre el 01/01/1900 y el 31/12/2100.`);
