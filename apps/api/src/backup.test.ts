import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { REPO_ROOT } from './config';
import { controlFilePath, restoreEmbedded } from './db/backup';
import { openDatabase } from './db/client';
import { checkCompanyIsolation, withScope } from './db/scope';
import { credits } from './db/schema/credits';
import { companies } from './db/schema/users';
import { asSystem } from './db/scope';
import { seedDemoPortfolio } from './seed/seed-portfolio';
import { fingerprint } from './test/fingerprint';
import { postgresScratch } from './test/test-app';

/** Ports of this file's portal processes (issue 49's range). */
const PORTAL_PORT = 3144;
const API_ROOT = path.join(REPO_ROOT, 'apps/api');
const TSX = path.join(REPO_ROOT, 'node_modules/.bin/tsx');
/** Credits in the seeded portfolio: enough for every money column to hold values, small enough to be quick. */
const CREDITS = 40;

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
function startPortal(env: Record<string, string>): {
  child: ChildProcess;
  ready: Promise<void>;
  stop: () => Promise<number | null>;
  output: () => string;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: API_ROOT,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(PORTAL_PORT), LOG_LEVEL: 'warn', ...env },
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

describe('npm run db:backup / db:restore, embedded (PGlite)', () => {
  let folder: string;
  const cleanups: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'portal-backup-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('copies the database of a running portal through that process, and restores it whole into a new folder', async () => {
    // A data folder with the run's seeded database and a small portfolio (money in every table that keeps some).
    const source = path.join(folder, 'data');
    await restoreEmbedded(source, inject('pgliteDump'));
    const seeded = await openDatabase({ kind: 'pglite', dataDir: source });
    await seedDemoPortfolio(seeded.db, new Date(), CREDITS);
    await seeded.close();

    const portal = startPortal({ DATA_DIR: source });
    cleanups.push(portal.stop);
    await portal.ready;
    const control = JSON.parse(await readFile(controlFilePath(source), 'utf8')) as { pid: number; url: string; token: string };
    // One process: the portal is the process a SIGTERM reaches (tsx's own command would run it as a child, and kill it
    // if it did not acknowledge a relayed signal within 30 ms: on a busy machine, in the middle of its shutdown).
    expect(control).toMatchObject({ pid: portal.child.pid, url: `http://127.0.0.1:${PORTAL_PORT}` });

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

    const target = path.join(folder, 'restaurada');
    const restore = await cli('restore', copy, { DATA_DIR: target });
    expect(restore.output).toContain('aislamiento por empresa en orden');
    expect(restore.code).toBe(0);

    const [original, restored] = [
      await openDatabase({ kind: 'pglite', dataDir: source }),
      await openDatabase({ kind: 'pglite', dataDir: target }),
    ];
    try {
      const expected = await fingerprint(original.db);
      // The seed's credits and the renewals it disburses on top of them.
      expect(expected.credits!.rows).toBeGreaterThan(CREDITS);
      expect(expected.installments!.numeric.principal!.sum).not.toBeNull();
      expect(await fingerprint(restored.db)).toEqual(expected);
      expect(await checkCompanyIsolation(restored.db)).toEqual([]);
    } finally {
      await original.close();
      await restored.close();
    }

    // A folder that is not empty is never written over.
    const again = await cli('restore', copy, { DATA_DIR: target });
    expect(again).toMatchObject({ code: 1, output: expect.stringContaining('no está vacía') });
  }, 240_000);
});

describe.skipIf(!inject('postgresTemplate'))('npm run db:backup / db:restore, PostgreSQL (pg_dump / pg_restore)', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('round-trips a seeded database into an empty one: every row and centavo, the roles and grants, and the API starts on it', async () => {
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
      expect(counts.every((count) => count < CREDITS)).toBe(true);
      const demo = perCompany.find((company) => company.code === 'DEMO')!;
      const demoCredits = await withScope(restored.db, { companyId: demo.id }, (tx) =>
        tx.select({ companyId: credits.companyId }).from(credits).where(eq(credits.companyId, demo.id)),
      );
      expect(demoCredits.length).toBe(counts[perCompany.indexOf(demo)]);
    } finally {
      await restored.close();
    }

    // The API starts on it as it would in production: the schema at the code's migration, every company table isolated.
    const portal = startPortal({ DATABASE_URL: target.url, MIGRATE_ON_START: 'false', SEED_DEMO: 'false' });
    cleanups.push(portal.stop);
    await portal.ready;
    const ready = await fetch(`http://127.0.0.1:${PORTAL_PORT}/api/ready`);
    expect(await ready.json()).toMatchObject({ status: 'ok', database: { ok: true, driver: 'postgres' } });
    expect(await portal.stop()).toBe(0);

    // A database that is not empty is never written over.
    const again = await cli('restore', copy, { DATABASE_URL: target.url });
    expect(again).toMatchObject({ code: 1, output: expect.stringContaining('no está vacía') });
  }, 240_000);
});
