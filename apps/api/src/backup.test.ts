import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { REPO_ROOT } from './config';
import { controlFilePath, restoreEmbedded, restorePostgres } from './db/backup';
import { openDatabase } from './db/client';
import { checkCompanyIsolation, withScope } from './db/scope';
import { credits } from './db/schema/credits';
import { companies } from './db/schema/users';
import { asSystem } from './db/scope';
import { seedDemoPortfolio } from './seed/seed-portfolio';
import { fingerprint } from './test/fingerprint';
import { postgresScratch } from './test/test-app';

/** Ports of this file's portal processes (issue 49's range): one for each test, since the two run side by side. */
const PORTAL_PORTS = { embedded: 3144, postgres: 3145 } as const;
const API_ROOT = path.join(REPO_ROOT, 'apps/api');
const TSX = path.join(REPO_ROOT, 'node_modules/.bin/tsx');
/**
 * Credits in the seeded portfolio: enough for every money column the seed writes to hold values (20 fill the same 82
 * columns as 40, each engine's seed then half the work), small enough to be quick.
 */
const CREDITS = 20;

/** `npm run db:backup|db:restore -- FILE` as the root package.json runs them, with this environment. */
function cli(command: 'backup' | 'restore', file: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      ['apps/api/src/backup-cli.ts', command, file],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** The portal as `npm start` runs it (`node --import tsx src/main.ts`), ready once it says so. */
function startPortal(
  port: number,
  env: Record<string, string>,
): {
  child: ChildProcess;
  ready: Promise<void>;
  stop: () => Promise<number | null>;
  output: () => string;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: API_ROOT,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', () => output.includes('Portal listo en') && resolve());
    void exited.then((code) => reject(new Error(`the portal exited (${code}) before it was ready:\n${output}`)));
  });
  ready.catch(() => undefined);
  return {
    child,
    ready,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

// The two engines' tests run side by side: each mostly waits on processes of its own (the portal, the CLI, pg_dump), and
// the embedded one's PGlite work in this process fills those waits.
describe.concurrent('npm run db:backup / db:restore, embedded (PGlite)', () => {
  let folder: string;
  const cleanups: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'portal-backup-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('copies the database of a running portal through that process, and restores it whole into a new folder', async ({ expect }) => {
    // A data folder with the run's seeded database and a small portfolio (money in every table that keeps some).
    const source = path.join(folder, 'data');
    const seeded = await openDatabase({ kind: 'pglite', dataDir: source, loadDataDir: new Blob([await readFile(inject('pgliteDump'))]) });
    await seedDemoPortfolio(seeded.db, new Date(), CREDITS);
    await seeded.close();

    const portal = startPortal(PORTAL_PORTS.embedded, { DATA_DIR: source });
    cleanups.push(portal.stop);
    await portal.ready;
    const control = JSON.parse(await readFile(controlFilePath(source), 'utf8')) as { pid: number; url: string; token: string };
    // One process: the portal is the process a SIGTERM reaches (tsx's own command would run it as a child, and kill it
    // if it did not acknowledge a relayed signal within 30 ms: on a busy machine, in the middle of its shutdown).
    expect(control).toMatchObject({ pid: portal.child.pid, url: `http://127.0.0.1:${PORTAL_PORTS.embedded}` });

    // The copy is refused to anyone without the control file's token.
    const stranger = await fetch(`${control.url}/api/backup`, { method: 'POST', headers: { authorization: 'Bearer adivinado' } });
    expect(stranger.status).toBe(401);

    const copy = path.join(folder, 'copia.tar.gz');
    const backup = await cli('backup', copy, { DATA_DIR: source });
    expect(backup.output).toContain(`Copia de la base embebida del portal en marcha (pid ${control.pid})`);
    expect(backup.code).toBe(0);
    // The portal keeps serving; a restore onto its folder is refused while it runs.
    expect((await fetch(`${control.url}/api/ready`)).status).toBe(200);
    const onRunning = await cli('restore', copy, { DATA_DIR: source });
    expect(onRunning).toMatchObject({ code: 1, output: expect.stringContaining('El portal sigue en marcha') });

    expect(await portal.stop()).toBe(0);
    expect(existsSync(controlFilePath(source))).toBe(false);

    // The restore runs in its own process while this one reads the source folder as the portal left it.
    const target = path.join(folder, 'restaurada');
    const restoring = cli('restore', copy, { DATA_DIR: target });
    const original = await openDatabase({ kind: 'pglite', dataDir: source });
    const expected = await fingerprint(original.db).finally(() => original.close());
    // The seed's credits and the renewals it disburses on top of them.
    expect(expected.credits!.rows).toBeGreaterThan(CREDITS);
    expect(expected.installments!.numeric.principal!.sum).not.toBeNull();
    const restore = await restoring;
    expect(restore.output).toContain('aislamiento por empresa en orden');
    expect(restore.code).toBe(0);

    const restored = await openDatabase({ kind: 'pglite', dataDir: target });
    try {
      expect(await fingerprint(restored.db)).toEqual(expected);
      expect(await checkCompanyIsolation(restored.db)).toEqual([]);
    } finally {
      await restored.close();
    }

    // A folder that is not empty is never written over. Asked of the restore itself: the CLI's refusal (its message,
    // exit code 1) is the one proven above on the running portal's folder, and a process start would prove it again.
    await expect(restoreEmbedded(target, copy)).rejects.toThrow('no está vacía');
  }, 600_000);
});

describe.skipIf(!inject('postgresTemplate')).concurrent('npm run db:backup / db:restore, PostgreSQL (pg_dump / pg_restore)', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('round-trips a seeded database into an empty one: every row and centavo, the roles and grants, and the API starts on it', async ({
    expect,
  }) => {
    const source = await postgresScratch('template');
    cleanups.push(source.drop);
    const seeded = await openDatabase({ kind: 'postgres', url: source.url });
    await seedDemoPortfolio(seeded.db, new Date(), CREDITS);
    const expected = await fingerprint(seeded.db);
    await seeded.close();
    // The seed's credits and the renewals it disburses on top of them.
    expect(expected.credits!.rows).toBeGreaterThan(CREDITS);

    const folder = await mkdtemp(path.join(tmpdir(), 'portal-backup-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const copy = path.join(folder, 'portal.dump');
    const backup = await cli('backup', copy, { DATABASE_URL: source.url });
    expect(backup.output).toContain('Copia de PostgreSQL (pg_dump, formato custom)');
    expect(backup.code).toBe(0);
    expect((await readFile(copy)).subarray(0, 5).toString('latin1')).toBe('PGDMP');

    const target = await postgresScratch('empty');
    cleanups.push(target.drop);
    const restore = await cli('restore', copy, { DATABASE_URL: target.url });
    expect(restore.output).toContain('aislamiento por empresa en orden');
    expect(restore.code).toBe(0);

    const restored = await openDatabase({ kind: 'postgres', url: target.url, poolSize: 2 });
    try {
      expect(await fingerprint(restored.db)).toEqual(expected);
      expect(await checkCompanyIsolation(restored.db)).toEqual([]);
      // The application's role reads through row-level security as before: each company its own credits.
      const perCompany = await asSystem(restored.db, (tx) => tx.select({ id: companies.id, code: companies.code }).from(companies));
      const counts = await Promise.all(
        perCompany.map((company) =>
          withScope(restored.db, { companyId: company.id }, (tx) => tx.select({ id: credits.id }).from(credits)).then(
            (rows) => rows.length,
          ),
        ),
      );
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(expected.credits!.rows);
      expect(counts.every((count) => count < expected.credits!.rows)).toBe(true);
      const demo = perCompany.find((company) => company.code === 'DEMO')!;
      const demoCredits = await withScope(restored.db, { companyId: demo.id }, (tx) =>
        tx.select({ companyId: credits.companyId }).from(credits).where(eq(credits.companyId, demo.id)),
      );
      expect(demoCredits.length).toBe(counts[perCompany.indexOf(demo)]);
    } finally {
      await restored.close();
    }

    // The API starts on it as it would in production: the schema at the code's migration, every company table isolated.
    const portal = startPortal(PORTAL_PORTS.postgres, { DATABASE_URL: target.url, MIGRATE_ON_START: 'false', SEED_DEMO: 'false' });
    cleanups.push(portal.stop);
    await portal.ready;
    const ready = await fetch(`http://127.0.0.1:${PORTAL_PORTS.postgres}/api/ready`);
    expect(await ready.json()).toMatchObject({ status: 'ok', database: { ok: true, driver: 'postgres' } });
    expect(await portal.stop()).toBe(0);

    // A database that is not empty is never written over (asked of the restore itself, as the embedded test does).
    await expect(restorePostgres(target.url, copy)).rejects.toThrow('no está vacía');
  }, 600_000);
});
