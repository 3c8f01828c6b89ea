import pg from 'pg';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ENGINES, createTestApp, type TestContext } from '../test/test-app';
import { APP_ROLE } from './client';
import { checkCompanyIsolation, withScope } from './scope';
import { credits } from './schema/credits';
import { companies, profiles, users } from './schema/users';
import { seedDemoPortfolio } from '../seed/seed-portfolio';

/** The message of a failed query and of what caused it (Drizzle wraps the driver's error). */
function errorText(error: unknown): string {
  const parts: string[] = [];
  for (let current = error; current instanceof Error; current = (current as Error & { cause?: unknown }).cause) parts.push(current.message);
  return parts.join(' | ');
}

async function failure(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    return errorText(error);
  }
  throw new Error('expected the statement to fail');
}

type Rows<T> = { rows: T[] };

describe.each(ENGINES)('Company scope in the database (%s)', (engine) => {
  let ctx: TestContext;
  let companyId: { DEMO: string; PLUS: string };

  beforeAll(async () => {
    ctx = await createTestApp(engine);
    await seedDemoPortfolio(ctx.db, ctx.clock.now(), 24);
    const rows = await ctx.system((db) => db.select().from(companies));
    companyId = { DEMO: rows.find((row) => row.code === 'DEMO')!.id, PLUS: rows.find((row) => row.code === 'PLUS')!.id };
  });
  afterAll(() => ctx?.close());

  /**
   * Runs DDL as the tables' owner, which the application's role is not: on PostgreSQL through an admin connection to
   * the test's database; on PGlite (one connection) by leaving APP_ROLE for the statement and taking it back.
   */
  async function asOwner(statement: string): Promise<void> {
    if (engine === 'pglite') {
      await ctx.db.execute(sql`reset role`);
      try {
        await ctx.db.execute(sql.raw(statement));
      } finally {
        await ctx.db.execute(sql.raw(`set role ${APP_ROLE}`));
      }
      return;
    }
    const { rows } = (await ctx.db.execute(sql`select current_database() as name`)) as unknown as Rows<{ name: string }>;
    const url = new URL(inject('postgresAdminUrl'));
    url.pathname = `/${rows[0]!.name}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  }

  const currentUser = async () =>
    ((await ctx.db.execute(sql`select current_user as name`)) as unknown as Rows<{ name: string }>).rows[0]!.name;

  it('runs the application as the app role, which cannot create a table nor switch row-level security off', async () => {
    expect(await currentUser()).toBe(APP_ROLE);
    expect(await failure(ctx.db.execute(sql`create table sin_permiso (company_id uuid)`))).toMatch(/permission denied/);
    expect(await failure(ctx.db.execute(sql`alter table credits disable row level security`))).toMatch(/must be (the )?owner/);
    expect(await failure(ctx.db.execute(sql`drop policy company_scope on users`))).toMatch(/must be (the )?owner/);
  });

  it.runIf(engine === 'postgres')(
    'runs without JIT compilation nor parallel workers, whatever the server says (decision 0015)',
    async () => {
      const { rows } = (await ctx.db.execute(
        sql`select current_setting('jit') as jit, current_setting('max_parallel_workers_per_gather') as workers`,
      )) as unknown as Rows<{ jit: string; workers: string }>;
      expect(rows[0]).toEqual({ jit: 'off', workers: '0' });
    },
  );

  it('finds no company-owned table without row-level security and a policy for the app role', async () => {
    expect(await checkCompanyIsolation(ctx.db)).toEqual([]);
  });

  it('reports a new table with company_id until it has row-level security and a policy for the app role', async () => {
    await asOwner('create table scope_probe (id serial primary key, company_id uuid not null, note text)');
    try {
      expect(await currentUser()).toBe(APP_ROLE);
      expect(await checkCompanyIsolation(ctx.db)).toEqual([
        { table: 'scope_probe', problem: 'sin seguridad por fila (ENABLE ROW LEVEL SECURITY)' },
        { table: 'scope_probe', problem: 'sin política de empresa para portal_app' },
      ]);

      await asOwner('alter table scope_probe enable row level security');
      expect(await checkCompanyIsolation(ctx.db)).toEqual([{ table: 'scope_probe', problem: 'sin política de empresa para portal_app' }]);

      await asOwner(`create policy company_scope on scope_probe to ${APP_ROLE}
        using (company_id = nullif(current_setting('app.company_id', true), '')::uuid or current_setting('app.all_companies', true) = 'on')
        with check (company_id = nullif(current_setting('app.company_id', true), '')::uuid or current_setting('app.all_companies', true) = 'on')`);
      expect(await checkCompanyIsolation(ctx.db)).toEqual([]);
    } finally {
      await asOwner('drop table if exists scope_probe');
    }
    expect(await currentUser()).toBe(APP_ROLE);
    expect(await checkCompanyIsolation(ctx.db)).toEqual([]);
  });

  it('shows the app role no company-owned row when no scope is set', async () => {
    const total = async (table: 'credits' | 'users' | 'agreements' | 'requests') =>
      ((await ctx.db.execute(sql`select count(*)::int as total from ${sql.identifier(table)}`)) as unknown as Rows<{ total: number }>)
        .rows[0]!.total;
    // The rows are there, for the system.
    const [all] = await ctx.system((db) => db.select({ total: count() }).from(credits));
    expect(all!.total).toBeGreaterThan(0);
    for (const table of ['credits', 'users', 'agreements', 'requests'] as const) expect(await total(table), table).toBe(0);
    // Nor in a transaction that set nothing, nor with an empty company.
    const inTransaction = await ctx.db.transaction(async (tx) => (await tx.select({ total: count() }).from(users))[0]!.total);
    expect(inTransaction).toBe(0);
    const empty = await withScope(ctx.db, { companyId: '' }, async (tx) => (await tx.select({ total: count() }).from(credits))[0]!.total);
    expect(empty).toBe(0);
  });

  it("shows, under one company's scope, that company's rows only", async () => {
    for (const table of [credits, users] as const) {
      const [expected] = await ctx.system((db) => db.select({ total: count() }).from(table).where(eq(table.companyId, companyId.PLUS)));
      expect(expected!.total).toBeGreaterThan(0);
      const seen = await withScope(ctx.db, { companyId: companyId.PLUS }, (tx) =>
        tx.select({ companyId: table.companyId, total: count() }).from(table).groupBy(table.companyId),
      );
      expect(seen).toEqual([{ companyId: companyId.PLUS, total: expected!.total }]);
    }
  });

  it("refuses, under one company's scope, writing a row of the other company", async () => {
    const [profile] = await ctx.system((db) => db.select().from(profiles).where(eq(profiles.name, 'Sin permisos')));
    const insert = withScope(ctx.db, { companyId: companyId.PLUS }, (tx) =>
      tx.insert(users).values({ email: 'intruso@demo.mx', name: 'Intruso', profileId: profile!.id, companyId: companyId.DEMO }),
    );
    expect(await failure(insert)).toMatch(/row-level security/);

    // Moving one's own row into the other company is refused the same way.
    const move = withScope(ctx.db, { companyId: companyId.PLUS }, (tx) =>
      tx.update(users).set({ companyId: companyId.DEMO }).where(eq(users.email, 'plus@demo.mx')),
    );
    expect(await failure(move)).toMatch(/row-level security/);

    // The other company's rows are not there to update or delete.
    const touched = await withScope(ctx.db, { companyId: companyId.PLUS }, async (tx) => ({
      updated: await tx.update(users).set({ name: 'Cambiado' }).where(eq(users.companyId, companyId.DEMO)).returning({ id: users.id }),
      deleted: await tx.delete(credits).where(eq(credits.companyId, companyId.DEMO)).returning({ id: credits.id }),
    }));
    expect(touched).toEqual({ updated: [], deleted: [] });

    const [intruder] = await ctx.system((db) => db.select({ total: count() }).from(users).where(eq(users.email, 'intruso@demo.mx')));
    expect(intruder!.total).toBe(0);
    const [moved] = await ctx.system((db) => db.select({ companyId: users.companyId }).from(users).where(eq(users.email, 'plus@demo.mx')));
    expect(moved!.companyId).toBe(companyId.PLUS);
    const renamed = await ctx.system((db) => db.select({ total: count() }).from(users).where(eq(users.name, 'Cambiado')));
    expect(renamed[0]!.total).toBe(0);
  });
});
