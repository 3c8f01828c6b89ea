import { writeFile, rm, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

/**
 * Migrates and seeds once per run, so each test file starts from a copy instead of running initdb:
 * a PGlite dump file, and, when PostgreSQL answers, a template database that test files clone. The demo users'
 * passwords are hashed at a low scrypt cost (the stored hash names its own, as the provider reads it), since the tests
 * sign in through the provider many times a run; the portal's own cost is proven in src/idp/passwords.test.ts.
 *
 * The API's files run as two projects of one vitest process (`api` and `api-mocks`, vitest.config.ts), each loading
 * this file: the first to set up builds, the other reuses what it built (both only read it, each file cloning its own
 * database), and the last to tear down drops it. Either project run alone builds its own. The app's modules are
 * imported only to build, so the second project's load of this file stays small.
 */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
    postgresTemplate: string | null;
    postgresAdminUrl: string;
  }
}

interface Built {
  folder: string;
  dumpPath: string;
  template: string | null;
}

/** What one vitest run built, and how many of its projects still use it; kept on the process, not in this module,
 * since each project imports its own copy of this file. */
interface Shared {
  built: Promise<Built>;
  users: number;
}
const SHARED = Symbol.for('portal.api.test.global-setup');
const sharedByRun: WeakMap<object, Shared> = ((globalThis as { [SHARED]?: WeakMap<object, Shared> })[SHARED] ??= new WeakMap());

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

async function seedTools() {
  const [{ openDatabase }, { seedDemo }, { lowCostHash }] = await Promise.all([
    import('../db/client'),
    import('../seed/seed'),
    import('./low-cost-hash'),
  ]);
  return { openDatabase, seedDemo, lowCostHash };
}

async function pgliteDump(folder: string): Promise<string> {
  const { openDatabase, seedDemo, lowCostHash } = await seedTools();
  const embedded = await openDatabase({ kind: 'pglite' }, { migrate: true });
  await seedDemo(embedded.db, lowCostHash);
  const dump = await embedded.pglite!.dumpDataDir('none');
  await embedded.close();
  const dumpPath = path.join(folder, 'seeded.tar');
  await writeFile(dumpPath, Buffer.from(await dump.arrayBuffer()));
  return dumpPath;
}

async function postgresTemplate(): Promise<string | null> {
  if (!(await postgresAnswers())) {
    console.warn(`PostgreSQL no responde en ${POSTGRES_ADMIN_URL}: las pruebas de API corren solo sobre PGlite.`);
    return null;
  }
  const { openDatabase, seedDemo, lowCostHash } = await seedTools();
  const template = `portal_tpl_${process.pid}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${template}`);
  await admin.query(`create database ${template}`);
  await admin.end();
  const server = await openDatabase({ kind: 'postgres', url: databaseUrl(template) }, { migrate: true });
  await seedDemo(server.db, lowCostHash);
  await server.close();
  return template;
}

async function build(): Promise<Built> {
  const folder = await mkdtemp(path.join(tmpdir(), 'portal-api-test-'));
  // Side by side: PGlite works in this process, PostgreSQL mostly in the server's.
  const [dumpPath, template] = await Promise.all([pgliteDump(folder), postgresTemplate()]);
  return { folder, dumpPath, template };
}

async function dropBuilt({ folder, template }: Built): Promise<void> {
  await rm(folder, { recursive: true, force: true });
  if (!template) return;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  // The template and every copy the files made of it (test-app.ts names them after it), even after a crash.
  // starts_with, not like: like's `_` would match another run's pid that begins with this one's.
  const { rows } = await admin.query<{ datname: string }>(
    `select datname from pg_database where starts_with(datname, $1) or datname = $2`,
    [`${template.replace('portal_tpl_', 'portal_t_')}_`, template],
  );
  for (const row of rows) await admin.query(`drop database if exists ${row.datname} with (force)`);
  await admin.end();
}

export default async function setup(project: TestProject) {
  let shared = sharedByRun.get(project.vitest);
  if (!shared) {
    shared = { built: build(), users: 0 };
    sharedByRun.set(project.vitest, shared);
  }
  shared.users += 1;
  const { dumpPath, template } = await shared.built;
  project.provide('pgliteDump', dumpPath);
  project.provide('postgresAdminUrl', POSTGRES_ADMIN_URL);
  project.provide('postgresTemplate', template);

  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    sharedByRun.delete(project.vitest);
    await dropBuilt(await shared.built);
  };
}
