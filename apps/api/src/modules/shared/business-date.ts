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

/** Today in the company's time zone (YYYY-MM-DD). */
export const mexicoToday = (now: Date) => MEXICO_DATE.format(now);

/** The company's business date: the day its next close will close; a company that never closed a day is at `today`. */
export async function businessDateOf(tx: Tx, companyId: string, today: string): Promise<string> {
  const [row] = await tx
    .select({ businessDate: businessDates.businessDate })
    .from(businessDates)
    .where(eq(businessDates.companyId, companyId));
  return row?.businessDate ?? today;
}
