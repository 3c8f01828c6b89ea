import pg from 'pg';
import { openDatabase, type Database } from './client';

async function runAsAdmin(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * A throwaway database on the PostgreSQL server of `adminUrl`, for tests and benchmarks: freshly migrated, or a copy
 * of `template`. `drop` removes it (force-closing what is still connected); close its pool first.
 */
export async function scratchDatabase(
  adminUrl: string,
  name: string,
  template?: string,
): Promise<{ database: Database; url: string; drop: () => Promise<void> }> {
  await runAsAdmin(adminUrl, `create database ${name}${template ? ` template ${template}` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // An empty database is migrated; a copy of a template already is.
  const database = await openDatabase({ kind: 'postgres', url: url.toString() }, { migrate: !template });
  return { database, url: url.toString(), drop: () => runAsAdmin(adminUrl, `drop database if exists ${name} with (force)`) };
}
