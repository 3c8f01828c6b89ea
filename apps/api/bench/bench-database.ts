import pg from 'pg';
import type { Database } from '../src/db/client';
import { scratchDatabase } from '../src/db/scratch';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A throwaway PostgreSQL database on BENCH_DATABASE_URL's server (default the local one), or null when none answers. */
export async function postgresDatabase(): Promise<{ database: Database; analyze: () => Promise<void>; drop: () => Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `portal_bench_${process.pid}`;
  await admin.query(`drop database if exists ${name}`);
  await admin.end();
  const { database, drop } = await scratchDatabase(adminUrl, name);
  return {
    database,
    analyze: async () => {
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const owner = new pg.Client({ connectionString: url.toString() });
      await owner.connect();
      await owner.query('analyze');
      await owner.end();
    },
    drop: async () => {
      await database.close();
      await drop();
    },
  };
}
