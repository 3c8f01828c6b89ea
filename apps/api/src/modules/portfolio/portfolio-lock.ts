import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';

/** The advisory-lock class of a company's portfolio (first key of pg_advisory_xact_lock(int, int)). */
const PORTFOLIO_LOCK_CLASS = 15_001;

/**
 * Holds the company's portfolio lock until the transaction ends. The day close takes it for each day it closes, and
 * applying a payment file must take it too: a close and a payment application of the same company then never
 * interleave (DOMAIN.md §4, "a day close that runs while a remittance for the same date is being applied waits for
 * it"), on one PostgreSQL or across several API processes. Other companies are not held up.
 *
 * The same statement gives the rest of the transaction the memory of a change of many credits: the aging's aggregates
 * of a close or of a payment file in memory, not spilled to disk in 64 passes (a 100,000-row file's refresh wrote
 * 210 MB of temporary files and read 300 MB back). Here, once per change and with no round trip of its own: a marker
 * kept per transaction object was also kept for the next transactions on the same pooled connection (client.ts reuses
 * one Drizzle transaction object per connection), which then ran without it.
 */
export async function lockCompanyPortfolio(tx: Tx, companyId: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(${PORTFOLIO_LOCK_CLASS}::int, hashtext(${companyId})), set_config('work_mem', '256MB', true)`,
  );
}
