import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, createTestApp, type TestContext } from '../test/test-app';
import { seedSyntheticUsers } from '../seed/seed-users';
import { users } from './schema/users';
import { withScope } from './scope';
import { userFilters, userOrder } from '../modules/users/users.queries';

/**
 * The searches' trigram indexes keep no pending list (decision 0038): rows written after an index was built go into
 * it at once, so the planner reads a search through the index instead of every row of the table.
 */

const SEARCH_INDEXES = ['users_search_trgm_idx', 'users_email_trgm_idx', 'clients_search_trgm_idx', 'requests_search_trgm_idx'];

describe.each(ENGINES)('The searches’ trigram indexes (%s)', (engine) => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp(engine);
    // Users written after the index, as an office adds them, and no VACUUM since (the pending list would hold them all).
    await seedSyntheticUsers(ctx.db, 2_000);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('are stored without a pending list', async () => {
    const rows = await ctx.system(async (tx) => {
      const result = await tx.execute(
        sql`select relname, reloptions from pg_class where relname in (${sql.join(
          SEARCH_INDEXES.map((name) => sql`${name}`),
          sql`, `,
        )}) order by relname`,
      );
      return (result as unknown as { rows: { relname: string; reloptions: string[] | null }[] }).rows;
    });
    expect(rows).toEqual([...SEARCH_INDEXES].sort().map((relname) => ({ relname, reloptions: ['fastupdate=false'] })));
  });

  it('serve the users search by a common name across companies (role SA): its page reads the index, not every user', async () => {
    const plan = await withScope(ctx.db, 'all-companies', async (tx) => {
      const page = tx
        .select({ id: users.id })
        .from(users)
        .where(userFilters({ q: 'maria' }))
        .orderBy(...userOrder(undefined))
        .limit(25);
      const result = await tx.execute(sql`explain (format json) ${page}`);
      return JSON.stringify((result as unknown as { rows: unknown[] }).rows);
    });
    expect(plan).toContain('"Index Name":"users_search_trgm_idx"');
    expect(plan).not.toContain('"Node Type":"Seq Scan"');
  });
});
