import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { businessDates } from '../../db/schema/portfolio';

/**
 * The dates the portfolio works with. Payroll dates are civil dates in Mexico; the portfolio's figures (days past due,
 * payoff, reports) are at each company's business date, the fecha flujo (docs/domain.md, "Day close and aging"), never
 * at the server's clock. Shared by origination (today's date for a quote) and Cartera (the credits, the day close).
 */

/** One formatter for every call: `toLocaleDateString` with options builds a new one each time, which is slow. */
const MEXICO_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' });

/**
 * Today in the company's time zone (YYYY-MM-DD). The formatter costs some 10 µs a call and every Cartera request asks
 * it, so the last answer is kept for its UTC minute: a zone's offset is whole minutes, so its date never changes within
 * one.
 */
export function mexicoToday(now: Date): string {
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== lastMinute) {
    lastDate = MEXICO_DATE.format(now);
    lastMinute = minute;
  }
  return lastDate;
}
let lastMinute = Number.NaN;
let lastDate = '';

/** The company's business date: the day its next close will close; a company that never closed a day is at `today`. */
export async function businessDateOf(tx: Tx, companyId: string, today: string): Promise<string> {
  const [row] = await tx
    .select({ businessDate: businessDates.businessDate })
    .from(businessDates)
    .where(eq(businessDates.companyId, companyId));
  return row?.businessDate ?? today;
}
