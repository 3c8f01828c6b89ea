/**
 * es-MX formats, in the company's time zone, for every screen: dates as dd/mm/aaaa and date-times as
 * dd/mm/aaaa hh:mm (24 h), whatever the browser's language. Grids, detail views, the verdict and the date pickers
 * all go through here, so a date reads the same everywhere.
 */
const DAY = { day: '2-digit', month: '2-digit', year: 'numeric' } as const;
const dateTime = new Intl.DateTimeFormat('es-MX', {
  ...DAY,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'America/Mexico_City',
});

// A calendar date ("2026-02-15") names a day, not an instant: shown as is, never shifted by a time zone.
const date = new Intl.DateTimeFormat('es-MX', { ...DAY, timeZone: 'UTC' });

/** The pattern the date pickers show and accept (dayjs tokens). */
export const DATE_INPUT_FORMAT = 'DD/MM/YYYY';

const money = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' });

/** "1234.5" (pesos, as the API sends them) → "$1,234.50". */
export function formatMoney(value: string): string {
  return money.format(Number(value));
}

/** Parts in a fixed order, so no locale data can turn "15/02/2026 14:05" into "15/2/2026, 2:05 p.m.". */
function partsOf(format: Intl.DateTimeFormat, when: Date): Record<string, string> {
  return Object.fromEntries(format.formatToParts(when).map((part) => [part.type, part.value]));
}

/** An instant → "15/02/2026 14:05" in Mexico City's time. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const p = partsOf(dateTime, new Date(iso));
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

/** "2026-02-15" → "15/02/2026". */
export function formatDate(isoDate: string | null | undefined): string {
  if (!isoDate) return '—';
  const p = partsOf(date, new Date(`${isoDate.slice(0, 10)}T00:00:00Z`));
  return `${p.day}/${p.month}/${p.year}`;
}

const decimal = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 1 });

/** "1 fila válida", "3 filas válidas", "1,250 filas válidas": a count with its noun in the number it takes. */
export function formatCount(count: number, one: string, many: string): string {
  return `${count.toLocaleString('es-MX')} ${count === 1 ? one : many}`;
}

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
