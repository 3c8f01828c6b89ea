/**
 * Dates and money as people read them in Spanish (es-MX), for messages and printed letters. Written by hand (no locale
 * data) so the text never depends on the server's ICU version.
 */

const MONTHS = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

/** `2027-01-15` → `15 de enero de 2027`. */
export function longDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  return `${day} de ${MONTHS[month! - 1]} de ${year}`;
}

/** `2027-01-15` → `15/01/2027`, the dd/mm/aaaa every screen shows. */
export function shortDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}/${month}/${year}`;
}

/** A decimal string with two decimals (`12345.6`, `12345.67`) → `$12,345.67`. */
export function pesos(amount: string): string {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? amount.slice(1) : amount).split('.');
  const grouped = whole.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${grouped}.${fraction.padEnd(2, '0').slice(0, 2)}`;
}
