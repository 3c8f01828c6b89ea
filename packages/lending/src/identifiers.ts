import { bankForCode, type BankParticipant } from './banks.ts';
import { formatDay, isRealDate, parseDay } from './dates.ts';

/**
 * Mexican identifiers: CLABE (interbank account), CURP (population registry key) and RFC (tax id).
 *
 * Each has a `check*` function that says *why* a value is refused (a code and a Spanish message the UI
 * can show next to the field) and an `isValid*` boolean shortcut. Values are taken as written: trim and
 * upper-case with `normalizeIdentifier` first if the input comes from a person.
 */

export interface IdentifierProblem {
  readonly ok: false;
  readonly reason: string;
  readonly message: string;
}

function problem(reason: string, message: string): IdentifierProblem {
  return { ok: false, reason, message };
}

/** Trims, upper-cases and composes accents (so a typed "ñ" becomes the single letter "Ñ"). */
export function normalizeIdentifier(value: string): string {
  return value.normalize('NFC').trim().toUpperCase();
}

// ---------------------------------------------------------------------------------------------- CLABE

const CLABE_RE = /^\d{18}$/;
const CLABE_WEIGHTS = [3, 7, 1] as const;

/** The CLABE control digit of the first 17 digits: weights 3, 7, 1, each product mod 10, summed. */
export function clabeCheckDigit(first17: string): number {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const weight = CLABE_WEIGHTS[i % 3] ?? 0;
    sum += ((first17.charCodeAt(i) - 48) * weight) % 10;
  }
  return (10 - (sum % 10)) % 10;
}

export type ClabeCheck = { readonly ok: true; readonly bank: BankParticipant } | IdentifierProblem;

/**
 * `client-account` (the default) also refuses institutions that hold no client accounts (Banxico itself,
 * CLS, Indeval, CoDi Valida): a disbursement to a borrower can never go there.
 */
export interface ClabeCheckOptions {
  purpose?: 'client-account' | 'any';
}

export function checkClabe(value: string, options: ClabeCheckOptions = {}): ClabeCheck {
  if (typeof value !== 'string' || !CLABE_RE.test(value)) {
    return problem('format', 'La CLABE debe tener exactamente 18 dígitos.');
  }
  if (clabeCheckDigit(value) !== value.charCodeAt(17) - 48) {
    return problem('check-digit', 'El dígito verificador de la CLABE no coincide; revisa que esté bien capturada.');
  }
  const bank = bankForCode(value.slice(0, 3));
  if (bank === undefined) {
    return problem('bank', `La CLABE empieza con ${value.slice(0, 3)}, que no es un participante vigente de SPEI.`);
  }
  if ((options.purpose ?? 'client-account') === 'client-account' && !bank.clientAccounts) {
    return problem(
      'non-client-institution',
      `La CLABE es de ${bank.name}, que no lleva cuentas de clientes; capture la cuenta del acreditado en su banco.`,
    );
  }
  return { ok: true, bank };
}

export function isValidClabe(value: string, options: ClabeCheckOptions = {}): boolean {
  return checkClabe(value, options).ok;
}

// ----------------------------------------------------------------------------------------------- CURP

/**
 * "Palabras inconvenientes" (Instructivo Normativo para la Asignación de la CURP, Anexo 2). RENAPO never
 * issues a CURP that starts with one of them: it replaces the second letter with X.
 */
export const CURP_OFFENSIVE_WORDS: ReadonlySet<string> = new Set([
  'BACA',
  'BAKA',
  'BUEI',
  'BUEY',
  'CACA',
  'CACO',
  'CAGA',
  'CAGO',
  'CAKA',
  'CAKO',
  'COGE',
  'COGI',
  'COJA',
  'COJE',
  'COJI',
  'COJO',
  'COLA',
  'CULO',
  'FALO',
  'FETO',
  'GETA',
  'GUEI',
  'GUEY',
  'JETA',
  'JOTO',
  'KACA',
  'KACO',
  'KAGA',
  'KAGO',
  'KAKA',
  'KAKO',
  'KOGE',
  'KOGI',
  'KOJA',
  'KOJE',
  'KOJI',
  'KOJO',
  'KOLA',
  'KULO',
  'LILO',
  'LOCA',
  'LOCO',
  'LOKA',
  'LOKO',
  'MAME',
  'MAMO',
  'MEAR',
  'MEAS',
  'MEON',
  'MIAR',
  'MION',
  'MOCO',
  'MOKO',
  'MULA',
  'MULO',
  'NACA',
  'NACO',
  'PEDA',
  'PEDO',
  'PENE',
  'PIPI',
  'PITO',
  'POPO',
  'PUTA',
  'PUTO',
  'QULO',
  'RATA',
  'ROBA',
  'ROBE',
  'ROBO',
  'RUIN',
  'SENO',
  'TETA',
  'VACA',
  'VAGA',
  'VAGO',
  'VAKA',
  'VUEI',
  'VUEY',
  'WUEI',
  'WUEY',
]);

/** Birth-state codes of the CURP (RENAPO), including NE, "nacido en el extranjero". */
export const CURP_STATE_CODES: ReadonlySet<string> = new Set([
  'AS',
  'BC',
  'BS',
  'CC',
  'CL',
  'CM',
  'CS',
  'CH',
  'DF',
  'DG',
  'GT',
  'GR',
  'HG',
  'JC',
  'MC',
  'MN',
  'MS',
  'NT',
  'NL',
  'OC',
  'PL',
  'QT',
  'QR',
  'SP',
  'SL',
  'SR',
  'TC',
  'TS',
  'TL',
  'VZ',
  'YN',
  'ZS',
  'NE',
]);

const CURP_RE = /^[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d$/;
const CURP_ALPHABET = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ';

/** The CURP check digit: alphabet value × (18 − position) over the first 17 characters. */
export function curpCheckDigit(first17: string): number {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    sum += CURP_ALPHABET.indexOf(first17.charAt(i)) * (18 - i);
  }
  return (10 - (sum % 10)) % 10;
}

export type CurpCheck =
  { readonly ok: true; readonly birthDate: string; readonly sex: 'H' | 'M'; readonly state: string } | IdentifierProblem;

/**
 * `asOf` is the date the CURP is checked on (today, or the contracting date): a birth date after it is
 * invalid (docs/domain.md, "Identifiers"), whatever the century rule reads.
 */
export function checkCurp(value: string, asOf: string): CurpCheck {
  if (typeof value !== 'string' || value.length !== 18) {
    return problem('length', 'La CURP debe tener 18 caracteres.');
  }
  if (!CURP_RE.test(value)) {
    const sexChar = value.charAt(10);
    if (/^[A-Z]{4}\d{6}.[A-Z]{5}[0-9A-Z]\d$/.test(value) && sexChar !== 'H' && sexChar !== 'M') {
      return problem('sex', 'El carácter 11 de la CURP debe ser H (hombre) o M (mujer).');
    }
    return problem('format', 'La CURP no tiene el formato oficial: 4 letras, 6 dígitos de fecha, sexo, 5 letras, homoclave y dígito.');
  }
  if (CURP_OFFENSIVE_WORDS.has(value.slice(0, 4))) {
    return problem('offensive-word', 'Las primeras cuatro letras forman una palabra que RENAPO no asigna; revisa la CURP.');
  }
  // The 17th character distinguishes centuries: a digit for births up to 1999, a letter from 2000 on.
  const centuryChar = value.charCodeAt(16);
  const year = (centuryChar <= 57 ? 1900 : 2000) + Number(value.slice(4, 6));
  const month = Number(value.slice(6, 8));
  const day = Number(value.slice(8, 10));
  if (!isRealDate(year, month, day)) {
    return problem('birth-date', 'La fecha de nacimiento de la CURP no existe en el calendario.');
  }
  const mm = value.slice(6, 8);
  const dd = value.slice(8, 10);
  const birthDate = `${year}-${mm}-${dd}`;
  if (birthDate > formatDay(parseDay(asOf, 'asOf'))) {
    return problem('future-birth-date', 'La fecha de nacimiento de la CURP es posterior a hoy; revisa la CURP.');
  }
  const state = value.slice(11, 13);
  if (!CURP_STATE_CODES.has(state)) {
    return problem('state', `La entidad de nacimiento ${state} de la CURP no existe.`);
  }
  if (curpCheckDigit(value) !== value.charCodeAt(17) - 48) {
    return problem('check-digit', 'El dígito verificador de la CURP no coincide; revisa que esté bien capturada.');
  }
  return { ok: true, birthDate, sex: value.charAt(10) === 'H' ? 'H' : 'M', state };
}

export function isValidCurp(value: string, asOf: string): boolean {
  return checkCurp(value, asOf).ok;
}

// ------------------------------------------------------------------------------------------------ RFC

/**
 * "Palabras inconvenientes" of the SAT for the RFC of a person: the SAT replaces the last letter with X,
 * so an RFC whose four letters form one of these words was not issued.
 */
export const RFC_OFFENSIVE_WORDS: ReadonlySet<string> = new Set([
  'BUEI',
  'BUEY',
  'CACA',
  'CACO',
  'CAGA',
  'CAGO',
  'CAKA',
  'CAKO',
  'COGE',
  'COJA',
  'COJE',
  'COJI',
  'COJO',
  'CULO',
  'FETO',
  'GUEY',
  'JOTO',
  'KACA',
  'KACO',
  'KAGA',
  'KAGO',
  'KAKA',
  'KOGE',
  'KOJO',
  'KULO',
  'MAME',
  'MAMO',
  'MEAR',
  'MEAS',
  'MEON',
  'MION',
  'MOCO',
  'MULA',
  'PEDA',
  'PEDO',
  'PENE',
  'PUTA',
  'PUTO',
  'QULO',
  'RATA',
  'RUIN',
]);

const RFC_PERSON_RE = /^[A-ZÑ&]{4}\d{6}[A-Z0-9]{2}[0-9A]$/;
const RFC_COMPANY_RE = /^[A-ZÑ&]{3}\d{6}[A-Z0-9]{2}[0-9A]$/;
const RFC_ALPHABET = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ';

/**
 * The RFC check digit of the RFC without its last character: left-padded with spaces to 12, value ×
 * (13 − i) for i = 0…11, check = (11 − sum mod 11) mod 11 with 10 written as "A".
 */
export function rfcCheckDigit(withoutCheck: string): string {
  const padded = withoutCheck.padStart(12, ' ');
  let sum = 0;
  for (let i = 0; i < 12; i++) {
    // Weights 13 down to 2 (docs/domain.md, "Identifiers"; the SAT's GODE561231GR8 → 8).
    sum += RFC_ALPHABET.indexOf(padded.charAt(i)) * (13 - i);
  }
  const digit = (11 - (sum % 11)) % 11;
  return digit === 10 ? 'A' : String(digit);
}

export type RfcCheck =
  | {
      readonly ok: true;
      readonly kind: 'persona-fisica' | 'persona-moral';
      /** False on about 1.5 % of RFCs in real use: show a warning, do not block. */
      readonly checkDigitMatches: boolean;
    }
  | IdentifierProblem;

export function checkRfc(value: string): RfcCheck {
  if (typeof value !== 'string' || (value.length !== 12 && value.length !== 13)) {
    return problem('length', 'El RFC debe tener 13 caracteres (persona física) o 12 (persona moral).');
  }
  const person = value.length === 13;
  if (!(person ? RFC_PERSON_RE : RFC_COMPANY_RE).test(value)) {
    return problem(
      'format',
      person
        ? 'El RFC de persona física debe tener 4 letras, 6 dígitos de fecha y 3 caracteres de homoclave.'
        : 'El RFC de persona moral debe tener 3 letras, 6 dígitos de fecha y 3 caracteres de homoclave.',
    );
  }
  const letters = person ? 4 : 3;
  if (person && RFC_OFFENSIVE_WORDS.has(value.slice(0, 4))) {
    return problem('offensive-word', 'Las primeras cuatro letras del RFC forman una palabra que el SAT no asigna.');
  }
  const yy = Number(value.slice(letters, letters + 2));
  const month = Number(value.slice(letters + 2, letters + 4));
  const day = Number(value.slice(letters + 4, letters + 6));
  // The century is not written; 29 February is real when yy is a multiple of 4 in either century
  // (2000 is a leap year, so "00" works for both).
  if (!isRealDate(2000 + yy, month, day)) {
    return problem('date', 'La fecha del RFC no existe en el calendario.');
  }
  const checkDigitMatches = rfcCheckDigit(value.slice(0, -1)) === value.slice(-1);
  return { ok: true, kind: person ? 'persona-fisica' : 'persona-moral', checkDigitMatches };
}

export function isValidRfc(value: string, options?: { checkDigit?: boolean }): boolean {
  const result = checkRfc(value);
  if (!result.ok) return false;
  return options?.checkDigit === true ? result.checkDigitMatches : true;
}
