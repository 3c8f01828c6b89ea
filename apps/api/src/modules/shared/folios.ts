/**
 * The folios people read and quote (PS-000123, SOL-000123, CR-00000123), from each record's number. Shared by the areas
 * that show another area's record (a request shows its pre-request and its credit; a credit shows its request), so it
 * sits here rather than in one of them (docs/architecture.md, "modules/shared").
 */
export const preRequestFolio = (number: number) => `PS-${String(number).padStart(6, '0')}`;
export const requestFolio = (number: number) => `SOL-${String(number).padStart(6, '0')}`;
export const creditFolio = (number: number) => `CR-${String(number).padStart(8, '0')}`;

/** The credit number a typed folio names: "CR-00000123", "cr123", "123" or a zero-padded "0000000123"; null when it is no folio. */
export function creditNumberOf(text: string): number | null {
  const digits = /^(?:CR-?)?0*(\d{1,12})$/i.exec(text.trim())?.[1];
  return digits === undefined ? null : Number(digits);
}
