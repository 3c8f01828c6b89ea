import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type Database } from './client';
import { SchemaMismatchError, assertSchemaCurrent } from './migrate';
import { checkCompanyIsolation, type IsolationProblem } from './scope';

/**
 * Backup and restore (`npm run db:backup -- FILE`, `npm run db:restore -- FILE`, README "Operations").
 *
 * PostgreSQL: pg_dump's custom format of the whole database (the portal's tables, its migration journal, the job
 * queue's schema), restored into an empty database by pg_restore in one transaction. The roles the migrations create
 * (portal_app, portal_all) live in the cluster, not in the dump: the restore creates them when missing.
 *
 * Embedded (PGlite): one process owns the data folder, so a copy taken while the portal runs is asked of that process
 * (POST /api/backup with the token of its control file), which takes it between two statements (PGlite's dumpDataDir);
 * with no portal running the folder is opened and copied directly. A restore writes a new data folder.
 */

export type BackupKind = 'postgres' | 'embedded';

/** pg_dump's custom format starts with PGDMP; PGlite's dump is a gzip-compressed tar. */
export async function backupKind(file: string): Promise<BackupKind> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(5);
    await handle.read(head, 0, 5, 0);
    if (head.toString('latin1') === 'PGDMP') return 'postgres';
    if (head[0] === 0x1f && head[1] === 0x8b) return 'embedded';
  } finally {
    await handle.close();
  }
  throw new BackupError(`${file} no es una copia del portal (ni de pg_dump en formato custom ni de la base embebida).`);
}

export class BackupError extends Error {}

const run = promisify(execFile);

/** Runs a PostgreSQL client tool; its own message (a version mismatch, a refused connection) is the error's. */
async function tool(command: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run(command, args, { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const failure = error as { code?: string; stderr?: string; message: string };
    if (failure.code === 'ENOENT')
      throw new BackupError(
        `No se encontró ${command}: instala el cliente de PostgreSQL (pg_dump y pg_restore de la misma versión mayor que el servidor, o una más nueva).`,
      );
    throw new BackupError(`${command} falló: ${(failure.stderr ?? failure.message).trim()}`);
  }
}

/** Writes `file` only once it is whole: a copy cut short never takes the name of a good one. */
async function writeWhole(file: string, write: (partial: string) => Promise<void>): Promise<void> {
  const partial = `${file}.partial-${process.pid}`;
  try {
    await write(partial);
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

// ------------------------------------------------------------------------------------------------------- PostgreSQL

export async function backupPostgres(url: string, file: string): Promise<void> {
  await writeWhole(file, (partial) => tool('pg_dump', ['--format=custom', `--file=${partial}`, `--dbname=${url}`]).then(() => undefined));
}

/** The roles of migrations 0005 and 0010, and the default grants they give on tables a later migration creates. */
const ROLES = `
  DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'portal_app') THEN CREATE ROLE portal_app NOLOGIN NOBYPASSRLS; END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'portal_all') THEN CREATE ROLE portal_all NOLOGIN NOBYPASSRLS; END IF;
  END $$;
  GRANT portal_app TO CURRENT_USER;
  GRANT portal_all TO CURRENT_USER;`;
const DEFAULT_GRANTS = `
  ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO portal_app;
  ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO portal_app;
  ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO portal_all;
  ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO portal_all;`;

export interface RestoreReport {
  tables: number;
  isolation: IsolationProblem[];
  /** A copy made by another release: what to do before the portal starts on it (migrate, or deploy that release). */
  schema: string | null;
  /** Seconds each step took. */
  steps: Record<string, number>;
}

const since = (start: number) => Math.round((performance.now() - start) / 100) / 10;

/**
 * Restores a pg_dump file into the empty database of `url`, as that URL's role (which then owns the tables, as the
 * role that migrates does): the roles first, then everything in one transaction (a failure leaves the database empty),
 * the default grants for that owner, fresh statistics; then the checks the API makes at start.
 */
export async function restorePostgres(url: string, file: string): Promise<RestoreReport> {
  const steps: Record<string, number> = {};
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'`,
    );
    if (rows[0]!.n > 0) {
      throw new BackupError(
        `La base de datos de DATABASE_URL no está vacía (${rows[0]!.n} tablas): restaura en una base nueva (createdb) y apunta DATABASE_URL a ella.`,
      );
    }
    await client.query(ROLES);
  } finally {
    await client.end();
  }
  // Default privileges name the role that owned the tables where the copy was made: given again below for this one.
  const folder = await mkdtemp(path.join(tmpdir(), 'portal-restore-'));
  try {
    const list = (await tool('pg_restore', ['--list', file]))
      .split('\n')
      .filter((line) => !/ DEFAULT ACL /.test(line))
      .join('\n');
    await writeFile(path.join(folder, 'list'), list);
    const start = performance.now();
    await tool('pg_restore', [
      '--no-owner',
      '--exit-on-error',
      '--single-transaction',
      `--use-list=${path.join(folder, 'list')}`,
      `--dbname=${url}`,
      file,
    ]);
    steps.pg_restore = since(start);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  const owner = new pg.Client({ connectionString: url });
  await owner.connect();
  try {
    await owner.query(DEFAULT_GRANTS);
    // pg_restore brings no planner statistics: without them the first queries plan blind.
    const start = performance.now();
    await owner.query('analyze');
    steps.analyze = since(start);
  } finally {
    await owner.end();
  }
  // A copy of an older release is restored all the same (then migrated); the portal's own start refuses it until then.
  const schema = await assertSchemaCurrent(url).then(
    () => null,
    (error: unknown) => {
      if (error instanceof SchemaMismatchError) return error.message;
      throw error;
    },
  );
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
  try {
    return { ...(await verify(database)), schema, steps };
  } finally {
    await database.close();
  }
}

async function verify(database: Database): Promise<Pick<RestoreReport, 'tables' | 'isolation'>> {
  const isolation = await checkCompanyIsolation(database.db);
  const result = (await database.db.execute(sql`select count(*)::int as n from pg_tables where schemaname = 'public'`)) as unknown as {
    rows: { n: number }[];
  };
  return { tables: result.rows[0]!.n, isolation };
}

// -------------------------------------------------------------------------------------------------------- embedded

/** What a running embedded portal writes beside its DATA_DIR (mode 0600): how to ask it for a copy. */
export interface ControlFile {
  pid: number;
  url: string;
  token: string;
}

export const controlFilePath = (dataDir: string) => `${path.resolve(dataDir)}.portal.json`;

/** A fresh token for this process's control file: whoever may read the file may read the data folder anyway. */
export const backupToken = () => randomBytes(32).toString('base64url');

/** Written by main.ts (PGlite) once it listens; answers a way to remove the file at shutdown. */
export async function writeControlFile(dataDir: string, url: string, token: string): Promise<() => Promise<void>> {
  const file = controlFilePath(dataDir);
  await writeFile(file, JSON.stringify({ pid: process.pid, url, token } satisfies ControlFile), { mode: 0o600 });
  return () => rm(file, { force: true });
}

/** The portal running on `dataDir`, if its control file names a live process. */
export async function runningPortal(dataDir: string): Promise<ControlFile | null> {
  let control: ControlFile;
  try {
    control = JSON.parse(await readFile(controlFilePath(dataDir), 'utf8')) as ControlFile;
  } catch {
    return null;
  }
  try {
    process.kill(control.pid, 0);
    return control;
  } catch (error) {
    // EPERM: alive, but another user's (it still holds the folder).
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? control : null;
  }
}

export async function backupEmbedded(dataDir: string, file: string): Promise<{ from: 'running portal' | 'data folder'; pid?: number }> {
  const running = await runningPortal(dataDir);
  if (running) {
    const response = await fetch(`${running.url}/api/backup`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.token}` },
      signal: AbortSignal.timeout(15 * 60_000),
    });
    if (!response.ok) {
      throw new BackupError(
        `El portal en marcha (pid ${running.pid}, ${running.url}) respondió ${response.status}: ${await response.text()}`,
      );
    }
    const copy = Buffer.from(await response.arrayBuffer());
    await writeWhole(file, (partial) => writeFile(partial, copy));
    return { from: 'running portal', pid: running.pid };
  }
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) throw new BackupError(`${dataDir} no tiene una base de datos embebida (DATA_DIR).`);
  const database = await openDatabase({ kind: 'pglite', dataDir });
  try {
    const copy = Buffer.from(await (await database.pglite!.dumpDataDir('gzip')).arrayBuffer());
    await writeWhole(file, (partial) => writeFile(partial, copy));
  } finally {
    await database.close();
  }
  return { from: 'data folder' };
}

/** Writes a new data folder from a copy: DATA_DIR must not exist or be empty, and no portal may be running on it. */
export async function restoreEmbedded(dataDir: string, file: string): Promise<RestoreReport> {
  const running = await runningPortal(dataDir);
  if (running) throw new BackupError(`El portal sigue en marcha sobre ${dataDir} (pid ${running.pid}): detenlo antes de restaurar.`);
  if (existsSync(dataDir) && (await readdir(dataDir)).length > 0) {
    throw new BackupError(`${dataDir} no está vacía: restaura en una carpeta nueva (DATA_DIR) o mueve la actual a otro lugar.`);
  }
  const copy = await readFile(file);
  const gzip = copy[0] === 0x1f && copy[1] === 0x8b;
  const loaded = await PGlite.create({
    dataDir,
    extensions: { pg_trgm },
    loadDataDir: new Blob([copy], gzip ? { type: 'application/x-gzip' } : {}),
  });
  await loaded.close();
  // The portal migrates an embedded database at start: a copy of an older release needs nothing more.
  const database = await openDatabase({ kind: 'pglite', dataDir });
  try {
    return { ...(await verify(database)), schema: null, steps: {} };
  } finally {
    await database.close();
  }
}

/** A file's size for the command's report. */
export const sizeOf = async (file: string) => (await stat(file)).size;
