import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './config';
import { httpTransport, oidcBrowser, type Transport } from './test/oidc-client';
import { postgresScratch } from './test/test-app';

const run = promisify(execFile);
const API_ROOT = path.join(REPO_ROOT, 'apps/api');
/** Ports of their own, away from the e2e ports. */
const PORTS = [31040, 31041] as const;

interface Server {
  child: ChildProcess;
  output: () => string;
  /** Resolves when the server says it is ready; rejects with its output if it exits first. */
  ready: Promise<void>;
  exited: Promise<number | null>;
}

/** `npm run start:prod`'s command: plain node on the bundle, NODE_ENV=production. */
function startCompiled(env: Record<string, string>): Server {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: API_ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', () => {
      if (output.includes('Portal listo en')) resolve();
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}) before it was ready:\n${output}`)));
  });
  // A test that expects the server to refuse never awaits `ready`: its rejection is an answer there, not an error.
  ready.catch(() => undefined);
  return { child, output: () => output, ready, exited };
}

async function stop(server: Server): Promise<number | null> {
  if (server.child.exitCode !== null) return server.child.exitCode;
  server.child.kill('SIGTERM');
  return server.exited;
}

describe.skipIf(!inject('postgresTemplate'))('the compiled server on PostgreSQL', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    await run(process.execPath, ['build.mjs'], { cwd: API_ROOT });
    // The page needs the built SPA; npm start and the e2e run build it too, so usually it is there already.
    if (!existsSync(path.join(REPO_ROOT, 'apps/web/dist/index.html'))) {
      await run('npm', ['run', 'build', '-w', '@portal/web'], { cwd: REPO_ROOT });
    }
  }, 300_000);
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('refuses to start on a database behind its code, naming npm run migrate', async () => {
    const scratch = await postgresScratch('empty');
    cleanups.push(scratch.drop);
    const server = startCompiled({ DATABASE_URL: scratch.url, PORT: String(PORTS[0]), MIGRATE_ON_START: 'false' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('No se inició el portal: La base de datos está atrás del código');
    expect(server.output()).toContain('npm run migrate');
  }, 60_000);

  it('runs as two processes on one database: a sign-in spread over both, API calls with its token on each', async () => {
    const scratch = await postgresScratch('template');
    cleanups.push(scratch.drop);
    const publicUrl = `http://127.0.0.1:${PORTS[0]}`;
    const servers = PORTS.map((port) =>
      startCompiled({ DATABASE_URL: scratch.url, PORT: String(port), PUBLIC_URL: publicUrl, MIGRATE_ON_START: 'false', SEED_DEMO: 'false' }),
    );
    cleanups.push(() => Promise.all(servers.map(stop)));
    await Promise.all(servers.map((server) => server.ready));
    const [first, second] = PORTS.map((port) => httpTransport(`http://127.0.0.1:${port}`)) as [Transport, Transport];

    // Liveness, readiness and the SPA's page from the bundle, with no tsx and no Vite in the process.
    expect((await first({ method: 'GET', url: '/api/health', headers: {} })).json()).toMatchObject({ status: 'ok' });
    expect((await first({ method: 'GET', url: '/api/ready', headers: {} })).json()).toMatchObject({ database: { ok: true, driver: 'postgres' } });
    const page = await second({ method: 'GET', url: '/session/signin', headers: {} });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');

    // A balancer's round robin: each step of the sign-in goes to the other process than the step before.
    let turn = 0;
    const roundRobin: Transport = (request) => (turn++ % 2 === 0 ? first : second)(request);
    const tokens = await oidcBrowser(roundRobin, { publicUrl, audience: `${publicUrl}/api` }).completeSignIn('admin@demo.mx', 'Administrador2026');
    expect(turn).toBeGreaterThanOrEqual(4);

    const headers = { authorization: `Bearer ${tokens.access_token}` };
    const onFirst = await first({ method: 'GET', url: '/api/users?pageSize=5', headers });
    const onSecond = await second({ method: 'GET', url: '/api/users?pageSize=5', headers });
    expect(onFirst.statusCode).toBe(200);
    expect(onSecond.statusCode).toBe(200);
    expect(onSecond.json()).toEqual(onFirst.json());

    // SIGTERM: both drain and close their database, and say so with exit code 0.
    expect(await Promise.all(servers.map(stop))).toEqual([0, 0]);
  }, 120_000);

  it('runs a job queued by one process on another: "Cerrar día" asked of a process without workers, closed by the other', async () => {
    const scratch = await postgresScratch('template');
    cleanups.push(scratch.drop);
    const publicUrl = `http://127.0.0.1:${PORTS[0]}`;
    const common = { DATABASE_URL: scratch.url, PUBLIC_URL: publicUrl, MIGRATE_ON_START: 'false', SEED_DEMO: 'false' };
    const [web, worker] = [
      startCompiled({ ...common, PORT: String(PORTS[0]), JOB_WORKERS: 'false' }),
      startCompiled({ ...common, PORT: String(PORTS[1]) }),
    ] as const;
    cleanups.push(() => Promise.all([web, worker].map(stop)));
    await Promise.all([web.ready, worker.ready]);
    const onWeb = httpTransport(`http://127.0.0.1:${PORTS[0]}`);
    const tokens = await oidcBrowser(onWeb, { publicUrl, audience: `${publicUrl}/api` }).completeSignIn('cartera@demo.mx', 'Cartera2026');
    const headers = { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' };

    const [company] = (await onWeb({ method: 'GET', url: '/api/flow-date/business-dates', headers })).json<{ businessDate: string }[]>();
    const queued = await onWeb({ method: 'POST', url: '/api/flow-date/day-closes', headers, payload: '{}' });
    expect(queued.statusCode, queued.body).toBe(202);
    const run = queued.json<{ id: string }>();
    let progress = { status: 'en espera', daysDone: 0 };
    for (let i = 0; i < 120 && (progress.status === 'en espera' || progress.status === 'en curso'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      progress = (await onWeb({ method: 'GET', url: `/api/flow-date/day-close-runs/${run.id}`, headers })).json();
    }
    expect(progress).toMatchObject({ status: 'completado', daysDone: 1 });
    const [after] = (await onWeb({ method: 'GET', url: '/api/flow-date/business-dates', headers })).json<{ businessDate: string }[]>();
    expect(after!.businessDate > company!.businessDate).toBe(true);
    expect(await Promise.all([web, worker].map(stop))).toEqual([0, 0]);
  }, 120_000);
});
