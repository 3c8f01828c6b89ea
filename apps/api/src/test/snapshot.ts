import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';

/** Where a test database keeps its copy of the application's tables, out of the application's reach (schema public). */
const SNAPSHOT_SCHEMA = 'test_snapshot';

/**
 * Runs `work` as the session's own user, the superuser that owns the tables (the connection's role is the application's
 * otherwise, see APP_ROLE): only the owner reads the copy, and only a superuser may skip the foreign-key triggers.
 */
function asOwner<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local role none`);
    return work(tx);
  });
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Copies every table and sequence of schema public into a schema of its own, with a function that puts them back:
 * `restore` then returns the database to this moment in one round trip. The equivalent of a rolled-back transaction
 * around each test, except that a test's requests commit for real: concurrent requests, row locks and what one pooled
 * connection sees of another's work behave as they do in production.
 */
export async function takeSnapshot(db: Db): Promise<{ restore(): Promise<void> }> {
  await asOwner(db, async (tx) => {
    // Each table with the columns it stores: a generated column (installments.outstanding) is computed again on insert.
    const { rows: tables } = (await tx.execute(sql`
      select c.relname as name, string_agg(quote_ident(a.attname), ', ' order by a.attnum) as columns
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      where n.nspname = 'public' and c.relkind in ('r', 'p') group by c.relname order by 1`)) as unknown as {
      rows: { name: string; columns: string }[];
    };
    const { rows: sequences } = (await tx.execute(sql`
      select sequencename as name, coalesce(last_value, start_value)::text as value, last_value is not null as called
      from pg_sequences where schemaname = 'public' order by 1`)) as unknown as {
      rows: { name: string; value: string; called: boolean }[];
    };
    await tx.execute(sql.raw(`create schema ${SNAPSHOT_SCHEMA}`));
    for (const { name } of tables) {
      await tx.execute(sql.raw(`create table ${SNAPSHOT_SCHEMA}.${quoted(name)} as table public.${quoted(name)}`));
    }
    const body = [
      // Foreign keys are checked by triggers that a replica skips: the copies go back in any order. DELETE rather than
      // TRUNCATE: for a few hundred rows it is far cheaper on PostgreSQL (TRUNCATE makes new files per table).
      `perform set_config('session_replication_role', 'replica', true);`,
      ...tables.map(({ name }) => `delete from public.${quoted(name)};`),
      ...tables.map(
        ({ name, columns }) => `insert into public.${quoted(name)} (${columns}) select ${columns} from ${SNAPSHOT_SCHEMA}.${quoted(name)};`,
      ),
      // Folios are numbered by sequences: the next test draws the same numbers again.
      ...sequences.map(({ name, value, called }) => `perform setval('public.${quoted(name)}', ${value}, ${called});`),
    ].join('\n');
    await tx.execute(
      sql.raw(`create function ${SNAPSHOT_SCHEMA}.restore() returns void language plpgsql as $body$ begin\n${body}\nend $body$`),
    );
  });
  return { restore: () => asOwner(db, (tx) => tx.execute(sql.raw(`select ${SNAPSHOT_SCHEMA}.restore()`))).then(() => undefined) };
}
