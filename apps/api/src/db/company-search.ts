import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { containsPattern } from './like';

/**
 * Searches by name in two steps (decisions 0034, 0035). Under row-level security PostgreSQL cannot take a search's
 * LIKE into the trigram indexes (the operator is not LEAKPROOF, so the policy is tested first): a company's user read
 * every row of the company. A SECURITY DEFINER function per table (migrations 0040, 0043) applies the policies' scope
 * itself and answers the matching ids, up to SEARCH_COUNT_CAP of them, or null for more; the list then reads those ids
 * by key, or, for more, filters as before (a name many rows share is found early in the list's own order) and answers
 * "more than" without counting. Role SA's searches take the same steps: its count by the index gathered every match.
 */

/**
 * The tables whose search by name has such a function, and its name. The clients' answers only clients with a credit
 * (the credits search's, migration 0043): more than the cap of them means more credits too.
 */
const FUNCTIONS = { clients: 'search_credit_client_ids', requests: 'search_request_ids', users: 'search_user_ids' } as const;

/** The ids of `table`'s rows whose search text contains `text` (read without case or accents), or null for over SEARCH_COUNT_CAP. */
export type MatchingIds = readonly string[] | null;

/** The matching ids, in the request's scope (the function reads it from the transaction, as the policies do). */
export async function matchingIds(db: Db, table: keyof typeof FUNCTIONS, text: string): Promise<MatchingIds> {
  const result = await db.execute(sql`select ${sql.raw(FUNCTIONS[table])}(${containsPattern(text)})::text as ids`);
  const { rows } = result as unknown as { rows: { ids: string | null }[] };
  const ids = rows[0]?.ids ?? null;
  if (ids === null) return null;
  return ids === '{}' ? [] : ids.slice(1, -1).split(',');
}
