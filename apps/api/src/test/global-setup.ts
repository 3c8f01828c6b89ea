import { writeFile, rm, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client';
import { seedDemo } from '../seed/seed';
import { lowCostHash } from './low-cost-hash';

/**
 * Migrates and seeds once per run, so each test file starts from a copy instead of running initdb:
 * a PGlite dump file, and, when PostgreSQL answers, a template database that test files clone. The demo users'
 * passwords are hashed at a low scrypt cost (the stored hash names its own, as the provider reads it), since the tests
 * sign in through the provider many times a run; the portal's own cost is proven in src/idp/passwords.test.ts.
 */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
    postgresTemplate: string | null;
    postgresAdminUrl: string;
  }
}

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function pgliteDump(folder: string): Promise<string> {
  const embedded = await openDatabase({ kind: 'pglite' }, { migrate: true });
  await seedDemo(embedded.db, async (password) => lowCostHash(password));
  const dump = await embedded.pglite!.dumpDataDir('none');
  await embedded.close();
  const dumpPath = path.join(folder, 'seeded.tar');
  await writeFile(dumpPath, Buffer.from(await dump.arrayBuffer()));
  return dumpPath;
}

async function postgresTemplate(project: string): Promise<string | null> {
  if (!(await postgresAnswers())) {
    console.warn(`PostgreSQL no responde en ${POSTGRES_ADMIN_URL}: las pruebas de API corren solo sobre PGlite.`);
    return null;
  }
  // Per project: the API's files run as two projects of one vitest process (vitest.config.ts), each with its own.
  const template = `portal_tpl_${process.pid}_${project.replace(/\W/g, '_')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${template}`);
  await admin.query(`create database ${template}`);
  await admin.end();
  const server = await openDatabase({ kind: 'postgres', url: databaseUrl(template) }, { migrate: true });
  await seedDemo(server.db, async (password) => lowCostHash(password));
  await server.close();
  return template;
}

export default async function setup(project: TestProject) {
  const folder = await mkdtemp(path.join(tmpdir(), 'portal-api-test-'));
  // Side by side: PGlite works in this process, PostgreSQL mostly in the server's.
  const [dumpPath, template] = await Promise.all([pgliteDump(folder), postgresTemplate(project.name)]);
  project.provide('pgliteDump', dumpPath);
  project.provide('postgresAdminUrl', POSTGRES_ADMIN_URL);
  project.provide('postgresTemplate', template);

  return async () => {
    await rm(folder, { recursive: true, force: true });
    if (!template) return;
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where datname like $1 or datname = $2`, [
      `${template.replace('portal_tpl_', 'portal_t_')}_%`,
      template,
    ]);
    for (const row of rows) await admin.query(`drop database if exists ${row.datname} with (force)`);
    await admin.end();
  };
}
