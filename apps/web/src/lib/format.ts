/** es-MX formats, in the company's time zone, for every screen. */
const dateTime = new Intl.DateTimeFormat('es-MX', { dateStyle: 'short', timeStyle: 'short', timeZone: 'America/Mexico_City' });

const money = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' });

/** "1234.5" (pesos, as the API sends them) → "$1,234.50". */
export function formatMoney(value: string): string {
  return money.format(Number(value));
}

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}
