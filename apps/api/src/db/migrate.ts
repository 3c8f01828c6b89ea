import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import path from 'node:path';
import { REPO_ROOT } from '../config';

/** The SQL migrations (drizzle-kit's output), found from the repository root so the compiled bundle finds them too. */
export const MIGRATIONS_FOLDER = path.join(REPO_ROOT, 'apps/api/drizzle');

/**
 * One key for the whole portal (any fixed bigint): every process that migrates takes this session-level advisory lock
 * first, so replicas starting together migrate one after the other and the later ones find nothing left to do.
 */
export const MIGRATION_LOCK_KEY = 7_205_112_026;

/** Where drizzle records the migrations it applied (its defaults). */
const APPLIED = 'drizzle.__drizzle_migrations';

/** The database is not at the code's migration: the server must not serve it. */
export class SchemaMismatchError extends Error {}

/** Applies the pending migrations as the connecting (owner) role, holding the advisory lock while it does. */
export async function migrateWithLock(url: string): Promise<{ applied: number }> {
  const owner = new pg.Client({ connectionString: url });
  await owner.connect();
  try {
    await owner.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const before = await appliedMigrations(owner);
      await migrate(drizzle(owner), { migrationsFolder: MIGRATIONS_FOLDER });
      const after = await appliedMigrations(owner);
      return { applied: after.length - before.length };
    } finally {
      await owner.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await owner.end();
  }
}

async function appliedMigrations(client: pg.Client): Promise<{ hash: string; createdAt: number }[]> {
  const exists = await client.query<{ found: string | null }>(`select to_regclass('${APPLIED}') as found`);
  if (!exists.rows[0]?.found) return [];
  const { rows } = await client.query<{ hash: string; created_at: string }>(`select hash, created_at from ${APPLIED} order by created_at`);
  return rows.map((row) => ({ hash: row.hash, createdAt: Number(row.created_at) }));
}

/**
 * Compares the database's applied migrations with the code's: a database behind the code lacks tables or columns the
 * code uses, one ahead of it was migrated by a newer release whose changes this code does not know. Either way the
 * server refuses to start, with a message that says which and what to do.
 */
export async function assertSchemaCurrent(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let applied: { hash: string; createdAt: number }[];
  try {
    applied = await appliedMigrations(client);
  } finally {
    await client.end();
  }
  const code = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  const known = new Set(code.map((migration) => migration.folderMillis));
  const unknown = applied.filter((migration) => !known.has(migration.createdAt));
  if (unknown.length > 0) {
    throw new SchemaMismatchError(
      `La base de datos está adelante del código: tiene ${unknown.length} migración(es) que esta versión no conoce ` +
        `(${applied.length} aplicadas, el código trae ${code.length}). Despliega la versión que la migró o una más nueva.`,
    );
  }
  const lastApplied = applied.at(-1)?.createdAt ?? 0;
  const pending = code.filter((migration) => migration.folderMillis > lastApplied);
  if (pending.length > 0) {
    throw new SchemaMismatchError(
      `La base de datos está atrás del código: faltan ${pending.length} de ${code.length} migraciones. ` +
        'Ejecuta `npm run migrate` (con el mismo DATABASE_URL) antes de iniciar el servidor.',
    );
  }
}
