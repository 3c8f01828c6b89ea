import { sql } from 'drizzle-orm';
import pg from 'pg';
import { APP_ROLE, transactionWith, type Db, type TransactionOptions, type Tx } from './client';

/**
 * Whose rows a transaction may see and write. Row-level security (migrations 0005 and 0010) gives the application's
 * role, portal_app, the rows of the transaction's app.company_id only (none without it); every company is the role
 * portal_all, which a transaction takes with SET LOCAL ROLE.
 */
export type DataScope = { companyId: string } | 'all-companies';

/** The role of a transaction across companies (role SA, the system's own work); its policy lets every row through. */
export const ALL_COMPANIES_ROLE_NAME = 'portal_all';

/**
 * Runs `work` in one transaction limited to `scope`. The setting and the role are local to the transaction, so a
 * pooled connection never carries one request's company into the next. On PostgreSQL the scope is set in the same
 * round trip as BEGIN (client.ts, transactionWith). The company is set by `SET LOCAL`, which is what
 * `set_config(…, true)` does, without a select to plan and a row to answer (docs/production-figures.md, "Issue 52,
 * stop 67").
 */
export function withScope<T>(db: Db, scope: DataScope, work: (tx: Tx) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const setup =
    scope === 'all-companies'
      ? `set local role ${ALL_COMPANIES_ROLE_NAME}`
      : `set local app.company_id = ${pg.escapeLiteral(scope.companyId)}`;
  return transactionWith(db, setup, work, options);
}

/**
 * The system's own work, across companies: sign-in and the user lookup before a company is known, the seed, expiry
 * of pre-requests. Never reached from a user's request with that user's rights.
 */
export function asSystem<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return withScope(db, 'all-companies', work);
}

export interface IsolationProblem {
  table: string;
  problem: string;
}

/**
 * Every table with a company_id column must have row-level security on and a policy for the application's role.
 * The API refuses to start otherwise, and a test creates a table without one to see this fail.
 */
export async function checkCompanyIsolation(db: Db): Promise<IsolationProblem[]> {
  const result = await db.execute(sql`
    select c.relname as "table", c.relrowsecurity as rls,
           (select count(*)::int from pg_policies p where p.schemaname = n.nspname and p.tablename = c.relname
              and 'portal_app' = any(p.roles)) as policies
    from information_schema.columns col
    join pg_namespace n on n.nspname = col.table_schema
    join pg_class c on c.relnamespace = n.oid and c.relname = col.table_name and c.relkind in ('r', 'p')
    where col.table_schema = 'public' and col.column_name = 'company_id'
    order by 1`);
  const { rows } = result as unknown as { rows: { table: string; rls: boolean; policies: number }[] };
  return rows.flatMap((row) => [
    ...(row.rls ? [] : [{ table: row.table, problem: 'sin seguridad por fila (ENABLE ROW LEVEL SECURITY)' }]),
    ...(row.policies > 0 ? [] : [{ table: row.table, problem: 'sin política de empresa para portal_app' }]),
  ]);
}

/**
 * Inside a request's scoped transaction, runs a check of a rule that spans companies (the last administrator, a
 * unique e-mail, who else holds a profile), then restores the request's scope. Only for counting and existence
 * checks: what it reads is never returned to the user.
 */
export async function acrossCompanies<D extends Db, T>(tx: D, check: (tx: D) => Promise<T>): Promise<T> {
  const { rows } = (await tx.execute(sql`select current_user as role`)) as unknown as { rows: { role: string }[] };
  const restore = () =>
    tx.execute(sql.raw(`set local role ${rows[0]!.role === ALL_COMPANIES_ROLE_NAME ? ALL_COMPANIES_ROLE_NAME : APP_ROLE}`));
  await tx.execute(sql.raw(`set local role ${ALL_COMPANIES_ROLE_NAME}`));
  let result: T;
  try {
    result = await check(tx);
  } catch (error) {
    // The transaction is aborted after a database error: nothing can run in it, and it will roll back anyway.
    await restore().catch(() => undefined);
    throw error;
  }
  await restore();
  return result;
}
