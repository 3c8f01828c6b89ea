import { LendingInputError } from './errors.ts';
import { isoWeekday } from './calendar.ts';
import { addDays, parseDay } from './dates.ts';

/**
 * ISO 7064 MOD 97-10, the check of the IBAN (ISO 13616) and of the RF creditor reference (ISO 11649): letters are
 * read as two digits (A = 10 … Z = 35), the string as one decimal number, and a string with its check digits is
 * valid when that number mod 97 is 1. It detects every single-character substitution and every transposition of
 * two adjacent characters (docs/decisions/0008-payment-reference-check-digit.md).
 */
export function mod97(value: string): number {
  let remainder = 0;
  for (const char of value) {
    const code = char.charCodeAt(0);
    let digits: number;
    if (code >= 48 && code <= 57) digits = code - 48;
    else if (code >= 65 && code <= 90) digits = code - 55;
    else
      throw new LendingInputError(
        'INVALID_REFERENCE',
        'reference',
        `El carácter «${char}» no puede ir en una referencia (solo dígitos y letras mayúsculas).`,
      );
    remainder = digits >= 10 ? (remainder * 100 + digits) % 97 : (remainder * 10 + digits) % 97;
  }
  return remainder;
}

/** The two check digits ISO 7064 MOD 97-10 appends to `body`: 98 − (body · 100 mod 97), always two characters. */
export function mod97CheckDigits(body: string): string {
  return String(98 - mod97(`${body}00`)).padStart(2, '0');
}

/**
 * The payment reference printed on a settlement letter: the credit's number in 8 digits, the letter's number for that
 * credit in 4, and 2 MOD 97-10 check digits, 14 digits in all (`00000042` `0003` `xx`). Digits only, because the
 * banks' deposit and SPEI reference fields take digits.
 */
export function paymentReference(creditNumber: number, letterNumber: number): string {
  if (!Number.isInteger(creditNumber) || creditNumber < 1 || creditNumber > 99_999_999) {
    throw new LendingInputError('INVALID_REFERENCE', 'creditNumber', 'El número de crédito debe tener de 1 a 8 dígitos.');
  }
  if (!Number.isInteger(letterNumber) || letterNumber < 1 || letterNumber > 9_999) {
    throw new LendingInputError('INVALID_REFERENCE', 'letterNumber', 'Un crédito admite hasta 9,999 cartas.');
  }
  const body = `${String(creditNumber).padStart(8, '0')}${String(letterNumber).padStart(4, '0')}`;
  return `${body}${mod97CheckDigits(body)}`;
}

/** True when `reference` is 14 digits whose MOD 97-10 check holds (the whole number mod 97 is 1). */
export function isValidPaymentReference(reference: string): boolean {
  return /^\d{14}$/.test(reference) && mod97(reference) === 1;
}

/**
 * The date `days` business days after `date`: Monday to Friday count, weekends do not. Bank holidays are not kept (a
 * company sets its own number of days), so across one the window is a business day shorter than the banks' count.
 */
export function addBusinessDays(date: string, days: number): string {
  let current = date;
  let left = days;
  while (left > 0) {
    current = addDays(current, 1);
    if (isoWeekday(parseDay(current, 'date')) <= 5) left--;
  }
  return current;
}
