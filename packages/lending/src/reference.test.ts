import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LendingInputError } from './errors.ts';
import { addBusinessDays, isValidPaymentReference, mod97, mod97CheckDigits, paymentReference } from './reference.ts';

/** IBAN check (ISO 13616): the first four characters moved to the end, then MOD 97-10. */
const ibanRearranged = (iban: string) => `${iban.slice(4)}${iban.slice(0, 4)}`;

describe('ISO 7064 MOD 97-10 against published examples', () => {
  // The IBAN examples of ISO 13616 / the ECBS "IBAN: Standard Implementation Guidelines", and the SWIFT IBAN registry.
  it.each([
    ['GB82WEST12345698765432', '82'],
    ['DE89370400440532013000', '89'],
    ['FR1420041010050500013M02606', '14'],
    ['NL91ABNA0417164300', '91'],
  ])('the IBAN %s is valid and its check digits are %s', (iban, check) => {
    expect(mod97(ibanRearranged(iban))).toBe(1);
    // The check digits computed over the IBAN with "00" in their place, as ISO 13616 describes.
    expect(mod97CheckDigits(`${iban.slice(4)}${iban.slice(0, 2)}`)).toBe(check);
  });

  it('finds a wrong IBAN: GB82WEST12345698765432 with one digit changed', () => {
    expect(mod97(ibanRearranged('GB82WEST12345698765433'))).not.toBe(1);
    expect(mod97(ibanRearranged('GB28WEST12345698765432'))).not.toBe(1);
  });

  it('gives the check digits of the ISO 11649 creditor reference example RF18 5390 0754 7034', () => {
    expect(mod97CheckDigits('539007547034RF')).toBe('18');
    expect(mod97('539007547034RF18')).toBe(1);
  });

  it('refuses characters that are not digits or capital letters', () => {
    expect(() => mod97('12-34')).toThrow(LendingInputError);
  });
});

describe('payment reference (docs/decisions/0008)', () => {
  it('is the credit number in 8 digits, the letter number in 4 and two check digits', () => {
    const reference = paymentReference(42, 3);
    // By hand: body 000000420003; 420003 × 100 = 42,000,300; 97 × 432,992 = 42,000,224, remainder 76; 98 − 76 = 22.
    expect(reference).toBe('00000042000322');
    expect(isValidPaymentReference(reference)).toBe(true);
  });

  it('refuses numbers that do not fit', () => {
    expect(() => paymentReference(0, 1)).toThrow(LendingInputError);
    expect(() => paymentReference(100_000_000, 1)).toThrow(LendingInputError);
    expect(() => paymentReference(1, 10_000)).toThrow(LendingInputError);
  });

  const references = fc
    .tuple(fc.integer({ min: 1, max: 99_999_999 }), fc.integer({ min: 1, max: 9_999 }))
    .map(([credit, letter]) => paymentReference(credit, letter));

  it('property: every reference it makes passes the check, with BigInt arithmetic as a second implementation', () => {
    fc.assert(
      fc.property(references, (reference) => {
        expect(isValidPaymentReference(reference)).toBe(true);
        expect(BigInt(reference) % 97n).toBe(1n);
      }),
    );
  });

  it('property: any single-digit change is detected', () => {
    fc.assert(
      fc.property(references, fc.integer({ min: 0, max: 13 }), fc.integer({ min: 1, max: 9 }), (reference, position, shift) => {
        const changed = (Number(reference[position]) + shift) % 10;
        const altered = `${reference.slice(0, position)}${changed}${reference.slice(position + 1)}`;
        expect(altered).not.toBe(reference);
        expect(isValidPaymentReference(altered)).toBe(false);
      }),
    );
  });

  it('property: any transposition of two adjacent different digits is detected', () => {
    fc.assert(
      fc.property(references, fc.integer({ min: 0, max: 12 }), (reference, position) => {
        const [a, b] = [reference[position]!, reference[position + 1]!];
        fc.pre(a !== b);
        const swapped = `${reference.slice(0, position)}${b}${a}${reference.slice(position + 2)}`;
        expect(isValidPaymentReference(swapped)).toBe(false);
      }),
    );
  });
});

describe('addBusinessDays', () => {
  it.each([
    // 2027-01-15 is a Friday (a calendar says so): 1 business day later is Monday the 18th, 5 later Friday the 22nd.
    ['2027-01-15', 1, '2027-01-18'],
    ['2027-01-15', 5, '2027-01-22'],
    // From a Saturday: Monday is the first business day.
    ['2027-01-16', 1, '2027-01-18'],
    ['2027-01-13', 0, '2027-01-13'],
    ['2026-12-31', 3, '2027-01-05'],
  ])('%s + %i business days = %s', (from, days, expected) => {
    expect(addBusinessDays(from, days)).toBe(expected);
  });
});
