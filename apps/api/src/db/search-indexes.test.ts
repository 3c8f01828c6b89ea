import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENGINES, createTestApp, type TestContext } from '../test/test-app';
import { seedSyntheticUsers } from '../seed/seed-users';
import { users } from './schema/users';
import { withScope } from './scope';
import { listUsers, userFilters, userOrder } from '../modules/users/users.queries';

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
  it('sort the users search’s matches on users alone and join the names of the page’s 25 only (decision 0039)', async () => {
    const { plan, page, everyMatch } = await withScope(ctx.db, 'all-companies', async (tx) => {
      // The page's statement as the list sends it, run again under EXPLAIN ANALYZE with the same values.
      const prepare = vi.spyOn(tx._.session, 'prepareQuery');
      const page = await listUsers(tx, { q: 'maria', page: 2, pageSize: 25 }, true);
      const sent = prepare.mock.calls.map(([query]) => query).find((query) => query.sql.includes('"profiles"'))!;
      prepare.mockRestore();
      const explained = await tx._.session
        .prepareQuery({ sql: `explain (analyze, format json) ${sent.sql}`, params: sent.params }, undefined, undefined, false)
        .execute();
      const everyMatch = await tx.select({ email: users.email, name: users.name }).from(users);
      return { plan: JSON.stringify((explained as unknown as { rows: unknown[] }).rows), page, everyMatch };
    });
    // Over 25 users match (so the page has a choice to make), and the page is the second 25 of them by e-mail.
    const plain = (text: string) =>
      text
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase();
    const matching = everyMatch
      .filter((user) => plain(`${user.email} ${user.name ?? ''}`).includes('maria'))
      .map((user) => user.email)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(matching.length).toBeGreaterThan(100);
    expect(page.items.map((item) => item.email)).toEqual(matching.slice(25, 50));
    // Every join of the plan (the page's ids with users, then profiles and companies) carries at most the page's rows.
    const joins = [...plan.matchAll(/"Node Type":"(?:Nested Loop|Hash Join|Merge Join)"[^{]*?"Actual Rows":(\d+)/g)].map((match) =>
      Number(match[1]),
    );
    expect(joins.length).toBeGreaterThan(0);
    expect(Math.max(...joins)).toBeLessThanOrEqual(25);
  });
});
