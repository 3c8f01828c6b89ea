/** es-MX formats, in the company's time zone, for every screen. */
const dateTime = new Intl.DateTimeFormat('es-MX', { dateStyle: 'short', timeStyle: 'short', timeZone: 'America/Mexico_City' });

// A calendar date ("2026-02-15") names a day, not an instant: shown as is, never shifted by a time zone.
const date = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeZone: 'UTC' });

const money = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' });

/** "1234.5" (pesos, as the API sends them) → "$1,234.50". */
export function formatMoney(value: string): string {
  return money.format(Number(value));
}

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

/** "2026-02-15" → "15 feb 2026". */
export function formatDate(isoDate: string | null | undefined): string {
  return isoDate ? date.format(new Date(`${isoDate}T00:00:00Z`)) : '—';
}

const decimal = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 1 });

/** A file's size: "350 KB", "4.8 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${decimal.format(Math.max(1, Math.round(bytes / 1024)))} KB`;
  return `${decimal.format(bytes / (1024 * 1024))} MB`;
}

const isoDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' });

/** Today's calendar date ("2026-02-15") in the company's time zone, for when the API's business date is not at hand. */
export function todayInMexico(): string {
  return isoDay.format(new Date());
}
