import pg from 'pg';
import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoPortfolio } from '../seed/seed-portfolio';
import { ENGINES, createTestApp, postgresScratch, type TestContext } from '../test/test-app';
import { withScope } from './scope';
import { credits } from './schema/credits';
import { companies } from './schema/users';
import { cacheStatements } from './statement-cache';

type Rows<T> = { rows: T[] };

/** Prepared statements on PostgreSQL's connections (PGlite has no pool and keeps the unnamed protocol). */
describe.runIf(ENGINES.includes('postgres'))('statements prepared per connection (postgres)', () => {
  let ctx: TestContext;
  let companyId: { DEMO: string; PLUS: string };

  beforeAll(async () => {
    ctx = await createTestApp('postgres');
    await seedDemoPortfolio(ctx.db, ctx.clock.now(), 12);
    const rows = await ctx.system((tx) => tx.select().from(companies));
    companyId = { DEMO: rows.find((row) => row.code === 'DEMO')!.id, PLUS: rows.find((row) => row.code === 'PLUS')!.id };
  });
  afterAll(() => ctx?.close());

  it('keeps row-level security exact when one connection runs a kept statement for each company and for SA', async () => {
    const countIn = (scope: Parameters<typeof withScope>[1]) =>
      withScope(ctx.db, scope, async (tx) => {
        const [row] = await tx
          .select({ total: count() })
          .from(credits)
          .where(sql`${credits.number} > ${0}`);
        const { rows } = (await tx.execute(
          sql`select pg_backend_pid() as pid, (select count(*)::int from pg_prepared_statements) as prepared`,
        )) as unknown as Rows<{ pid: number; prepared: number }>;
        return { total: row!.total, pid: rows[0]!.pid, prepared: rows[0]!.prepared };
      });
    const [perCompany] = await ctx
      .system((tx) =>
        tx.execute(
          sql`select count(*) filter (where ${credits.companyId} = ${companyId.DEMO})::int as demo, count(*) filter (where ${credits.companyId} = ${companyId.PLUS})::int as plus, count(*)::int as every from ${credits}`,
        ),
      )
      .then((result) => (result as unknown as Rows<{ demo: number; plus: number; every: number }>).rows);
    expect(perCompany!.demo).toBeGreaterThan(0);
    expect(perCompany!.plus).toBeGreaterThan(0);

    // One request at a time: the pool hands the same idle connection back, so the kept statement is reused.
    const runs = [];
    for (const scope of [
      { companyId: companyId.DEMO },
      { companyId: companyId.PLUS },
      'all-companies',
      { companyId: companyId.DEMO },
      { companyId: '' },
    ] as const) {
      runs.push(await countIn(scope));
    }
    expect(new Set(runs.map((run) => run.pid)).size).toBe(1);
    expect(runs.map((run) => run.total)).toEqual([perCompany!.demo, perCompany!.plus, perCompany!.every, perCompany!.demo, 0]);
    expect(runs.every((run) => run.prepared > 0)).toBe(true);
  });

  it('keeps at most its capacity of statements on a connection, prepares an evicted one again, and one whose table changed', async () => {
    const scratch = await postgresScratch('empty');
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      cacheStatements(client as pg.PoolClient, 3);
      // Read by TABLE, which the cache leaves unprepared (a SELECT without parameters would take a place in it).
      const prepared = async () =>
        (await client.query<{ statement: string; name: string; prepare_time: Date }>('table pg_prepared_statements')).rows
          .sort(
            (a, b) => a.prepare_time.getTime() - b.prepare_time.getTime() || Number(a.name.split('_')[1]) - Number(b.name.split('_')[1]),
          )
          .map((row) => row.statement);
      for (let value = 1; value <= 5; value += 1) {
        expect((await client.query<{ n: number }>(`select $1::int + ${value} as n`, [1])).rows[0]!.n).toBe(1 + value);
      }
      expect(await prepared()).toEqual(['select $1::int + 3 as n', 'select $1::int + 4 as n', 'select $1::int + 5 as n']);
      expect((await client.query<{ n: number }>('select $1::int + 1 as n', [41])).rows[0]!.n).toBe(42);
      expect(await prepared()).toEqual(['select $1::int + 4 as n', 'select $1::int + 5 as n', 'select $1::int + 1 as n']);

      // A read without parameters is kept too (a list's page, its size and offset in its text); DDL is not.
      expect((await client.query<{ n: number }>('select 40 + 2 as n')).rows[0]!.n).toBe(42);
      expect(await prepared()).toEqual(['select $1::int + 5 as n', 'select $1::int + 1 as n', 'select 40 + 2 as n']);

      // A table's columns change under a kept statement (a newer release migrated): it fails once, then is prepared again.
      await client.query('create table sample (id int primary key, name text)');
      await client.query(`insert into sample values (1, 'uno')`);
      const read = () => client.query('select * from sample where id = $1', [1]).then((result) => result.rows);
      expect(await read()).toEqual([{ id: 1, name: 'uno' }]);
      await client.query(`alter table sample add column note text default 'nota'`);
      await expect(read()).rejects.toThrow(/cached plan must not change result type/);
      expect(await read()).toEqual([{ id: 1, name: 'uno', note: 'nota' }]);
    } finally {
      await client.end();
      await scratch.drop();
    }
  });
});
