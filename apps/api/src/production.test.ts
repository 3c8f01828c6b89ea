import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { REPO_ROOT } from './config';
import { httpTransport, oidcBrowser, type Transport } from './test/oidc-client';
import pg from 'pg';
import { openDatabase } from './db/client';
import { seedDemoPortfolio } from './seed/seed-portfolio';
import { postgresScratch } from './test/test-app';
import { startSmtpPeer } from './test/smtp-peer';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { until } from './test/until';

const run = promisify(execFile);
const API_ROOT = path.join(REPO_ROOT, 'apps/api');
/** Ports of their own, away from the e2e ports: each test its own, since they run side by side. */
const PORTS = { refuses: 31040, pair: [31041, 31042], queue: [31043, 31044], crash: 31045 } as const;

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

// The tests run side by side, each on a database of its own: most of their time is the servers' starts and the mail
// sender's next round, waits that the others' work fills.
describe.skipIf(!inject('postgresTemplate')).concurrent('the compiled server on PostgreSQL', () => {
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

  it('refuses to start on a database behind its code, naming npm run migrate', async ({ expect }) => {
    const scratch = await postgresScratch('empty');
    cleanups.push(scratch.drop);
    const server = startCompiled({ DATABASE_URL: scratch.url, PORT: String(PORTS.refuses), MIGRATE_ON_START: 'false' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('No se inició el portal: La base de datos está atrás del código');
    expect(server.output()).toContain('npm run migrate');
  });

  it('runs as two processes on one database: a sign-in spread over both, API calls with its token on each, each mail sent once', async ({
    expect,
  }) => {
    const scratch = await postgresScratch('template');
    cleanups.push(scratch.drop);
    // Both processes send mail through one SMTP server (STARTTLS, its certificate trusted as an operator would).
    const smtp = await startSmtpPeer();
    cleanups.push(() => smtp.close());
    const folder = await mkdtemp(path.join(tmpdir(), 'portal-ca-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    await writeFile(path.join(folder, 'ca.pem'), smtp.ca);
    const publicUrl = `http://127.0.0.1:${PORTS.pair[0]}`;
    const servers = PORTS.pair.map((port) =>
      startCompiled({
        DATABASE_URL: scratch.url,
        PORT: String(port),
        PUBLIC_URL: publicUrl,
        MIGRATE_ON_START: 'false',
        SEED_DEMO: 'false',
        SMTP_URL: smtp.url(),
        MAIL_FROM: 'avisos@financiera.test',
        NODE_EXTRA_CA_CERTS: path.join(folder, 'ca.pem'),
      }),
    );
    cleanups.push(() => Promise.all(servers.map(stop)));
    await Promise.all(servers.map((server) => server.ready));
    const [first, second] = PORTS.pair.map((port) => httpTransport(`http://127.0.0.1:${port}`)) as [Transport, Transport];

    // Liveness, readiness and the SPA's page from the bundle, with no tsx and no Vite in the process.
    expect((await first({ method: 'GET', url: '/api/health', headers: {} })).json()).toMatchObject({ status: 'ok' });
    expect((await first({ method: 'GET', url: '/api/ready', headers: {} })).json()).toMatchObject({
      database: { ok: true, driver: 'postgres' },
    });
    const page = await second({ method: 'GET', url: '/session/signin', headers: {} });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');

    // A balancer's round robin: each step of the sign-in goes to the other process than the step before.
    let turn = 0;
    const roundRobin: Transport = (request) => (turn++ % 2 === 0 ? first : second)(request);
    const tokens = await oidcBrowser(roundRobin, { publicUrl, audience: `${publicUrl}/api` }).completeSignIn(
      'admin@demo.mx',
      'Administrador2026',
    );
    expect(turn).toBeGreaterThanOrEqual(4);

    const headers = { authorization: `Bearer ${tokens.access_token}` };
    const onFirst = await first({ method: 'GET', url: '/api/users?pageSize=5', headers });
    const onSecond = await second({ method: 'GET', url: '/api/users?pageSize=5', headers });
    expect(onFirst.statusCode).toBe(200);
    expect(onSecond.statusCode).toBe(200);
    expect(onSecond.json()).toEqual(onFirst.json());

    // Password resets asked of either process: both send mail, and each message reaches the server once.
    const accounts = ['admin@demo.mx', 'originacion@demo.mx', 'cartera@demo.mx', 'mesa@demo.mx', 'tesoreria@demo.mx', 'plus@demo.mx'];
    for (const [index, email] of accounts.entries()) {
      const asked = await (index % 2 === 0 ? first : second)({
        method: 'POST',
        url: '/oidc/forgot-password',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `email=${encodeURIComponent(email)}`,
      });
      expect(asked.statusCode).toBe(200);
    }
    await smtp.waitFor(accounts.length);
    const owner = new pg.Client({ connectionString: scratch.url });
    await owner.connect();
    cleanups.push(() => owner.end());
    const delivered = async () =>
      (await owner.query<{ n: number }>(`select count(*)::int as n from outbox where status = 'sent' and attempts = 1`)).rows[0]!.n;
    // The server has them; each sender records its outcome right after the server's answer.
    await until(async () => (await delivered()) >= accounts.length);
    expect(await delivered()).toBe(accounts.length);
    expect(smtp.received.map((mail) => mail.parsed.to && 'value' in mail.parsed.to && mail.parsed.to.value[0]!.address).sort()).toEqual(
      [...accounts].sort(),
    );
    expect(new Set(smtp.received.map((mail) => mail.parsed.messageId)).size).toBe(accounts.length);
    expect(smtp.received.every((mail) => mail.secure && mail.parsed.subject === 'Restablece tu contraseña del portal')).toBe(true);

    // SIGTERM: both drain and close their database, and say so with exit code 0.
    expect(await Promise.all(servers.map(stop))).toEqual([0, 0]);
  });

  it('runs a job queued by one process on another: "Cerrar día" asked of a process without workers, closed by the other', async ({
    expect,
  }) => {
    const scratch = await postgresScratch('template');
    cleanups.push(scratch.drop);
    const publicUrl = `http://127.0.0.1:${PORTS.queue[0]}`;
    const common = { DATABASE_URL: scratch.url, PUBLIC_URL: publicUrl, MIGRATE_ON_START: 'false', SEED_DEMO: 'false' };
    const [web, worker] = [
      startCompiled({ ...common, PORT: String(PORTS.queue[0]), JOB_WORKERS: 'false' }),
      startCompiled({ ...common, PORT: String(PORTS.queue[1]) }),
    ] as const;
    cleanups.push(() => Promise.all([web, worker].map(stop)));
    await Promise.all([web.ready, worker.ready]);
    const onWeb = httpTransport(publicUrl);
    const tokens = await oidcBrowser(onWeb, { publicUrl, audience: `${publicUrl}/api` }).completeSignIn('cartera@demo.mx', 'Cartera2026');
    const headers = { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' };

    const [company] = (await onWeb({ method: 'GET', url: '/api/flow-date/business-dates', headers })).json<{ businessDate: string }[]>();
    const queued = await onWeb({ method: 'POST', url: '/api/flow-date/day-closes', headers, payload: '{}' });
    expect(queued.statusCode, queued.body).toBe(202);
    const run = queued.json<{ id: string }>();
    let progress = { status: 'en espera', daysDone: 0 };
    await until(async () => {
      if (progress.status !== 'en espera' && progress.status !== 'en curso') return true;
      progress = (await onWeb({ method: 'GET', url: `/api/flow-date/day-close-runs/${run.id}`, headers })).json();
      return false;
    });
    expect(progress).toMatchObject({ status: 'completado', daysDone: 1 });
    const [after] = (await onWeb({ method: 'GET', url: '/api/flow-date/business-dates', headers })).json<{ businessDate: string }[]>();
    expect(after!.businessDate > company!.businessDate).toBe(true);
    expect(await Promise.all([web, worker].map(stop))).toEqual([0, 0]);
  });
  it('leaves nothing applied when the process dies in the middle of applying a payment file, and applies it whole after a restart', async ({
    expect,
  }) => {
    const scratch = await postgresScratch('template');
    cleanups.push(scratch.drop);
    const seeded = await openDatabase({ kind: 'postgres', url: scratch.url });
    await seedDemoPortfolio(seeded.db, new Date(), 120);
    await seeded.close();
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    cleanups.push(() => admin.end());
    const publicUrl = `http://127.0.0.1:${PORTS.crash}`;
    const env = {
      DATABASE_URL: scratch.url,
      PUBLIC_URL: publicUrl,
      MIGRATE_ON_START: 'false',
      SEED_DEMO: 'false',
      PORT: String(PORTS.crash),
    };
    const signIn = async () => {
      const tokens = await oidcBrowser(httpTransport(publicUrl), { publicUrl, audience: `${publicUrl}/api` }).completeSignIn(
        'cartera@demo.mx',
        'Cartera2026',
      );
      return { authorization: `Bearer ${tokens.access_token}` };
    };

    // A Jalisco payroll file of its latest payday with a seeded file (another agreement's date is no payday of it),
    // paying one deduction of each open credit disbursed by then (the agreement identifies rows by employee number).
    const {
      rows: [payday],
    } = await admin.query<{ d: string }>(`
      select max(f.discount_date)::text as d from payment_files f join agreements a on a.id = f.agreement_id where a.code = 'GOB-JAL'`);
    const { rows: open } = await admin.query<{
      id: string;
      agreement_id: string;
      company_id: string;
      employee_number: string;
      curp: string;
      installment: string;
    }>(
      `
      select c.id, c.agreement_id, c.company_id, c.employee_number, k.curp, c.installment::text as installment
      from credits c join clients k on k.id = c.client_id join agreements a on a.id = c.agreement_id
      where a.code = 'GOB-JAL' and c.status <> 'liquidado' and c.disbursement_date <= $1::date
        and c.employee_number in (select employee_number from credits group by employee_number having count(*) = 1)
      order by c.number`,
      [payday!.d],
    );
    expect(open.length).toBeGreaterThan(5);
    const paidState = async () =>
      (
        await admin.query<{ paid: string; overpaid: string; owed: string; received: number; payments: number }>(`
        select (select sum(paid_principal + paid_interest + paid_iva + paid_moratory_interest + paid_moratory_iva + paid_fees + paid_fees_iva)::text from installments) as paid,
               (select coalesce(sum(overpayment), 0)::text from payments) as overpaid,
               (select sum(outstanding_balance)::text from credits) as owed,
               (select count(*)::int from expected_deductions where state = 'recibido') as received,
               (select count(*)::int from payments where status = 'aplicado') as payments`)
      ).rows[0]!;
    const before = await paidState();
    const csv = [
      'empleado,curp,importe,periodo,referencia',
      ...open.map((c) => `${c.employee_number},${c.curp},${c.installment},1,CAIDA`),
    ].join('\r\n');

    let server = startCompiled(env);
    cleanups.push(() => stop(server));
    await server.ready;
    let headers = await signIn();
    const body = new FormData();
    body.set('agreementId', open[0]!.agreement_id);
    body.set('discountDate', payday!.d);
    body.set('file', new Blob([csv]), 'nomina-caida.csv');
    const uploaded = await fetch(`${publicUrl}/api/payment-files`, { method: 'POST', headers, body });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const file = (await uploaded.json()) as { id: string; rowsValid: number };
    expect(file.rowsValid).toBe(open.length);

    // Another session holds the last credit's row: the application writes schedules, payments and deductions, then
    // waits for that row at the credits' update, inside its transaction. Then the process is killed.
    const holder = new pg.Client({ connectionString: scratch.url });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('begin');
    // NO KEY UPDATE: the payments' foreign-key checks pass, the update of the credit's own columns waits.
    await holder.query('select 1 from credits where id = $1 for no key update', [open.at(-1)!.id]);
    const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const started = await fetch(`${publicUrl}/api/payment-files/${file.id}/apply`, { method: 'POST', headers });
    expect(started.status).toBe(202);
    // Whichever statement it is: the server's transaction waits for the holder's lock (not for the company's advisory lock).
    const waiting = async () =>
      (
        await admin.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))`, [
          holderPid,
        ])
      ).rows[0]!.n;
    await until(async () => (await waiting()) > 0);
    expect(await waiting()).toBe(1);
    server.child.kill('SIGKILL');
    await server.exited;
    await holder.query('commit');
    // The orphaned transaction ends (rolled back) once PostgreSQL sees its client gone: the company's lock is free again.
    await until(
      async () =>
        (await admin.query<{ ok: boolean }>(`select pg_try_advisory_lock(15001, hashtext($1)) as ok`, [open[0]!.company_id])).rows[0]!.ok,
    );
    await admin.query(`select pg_advisory_unlock(15001, hashtext($1))`, [open[0]!.company_id]);
    expect(await paidState()).toEqual(before);
    expect((await admin.query<{ status: string }>('select status from payment_files where id = $1', [file.id])).rows[0]!.status).toBe(
      'validado',
    );

    // After a restart the clerk applies it again: all of it, once.
    server = startCompiled(env);
    await server.ready;
    headers = await signIn();
    const again = await fetch(`${publicUrl}/api/payment-files/${file.id}/apply`, { method: 'POST', headers });
    expect(again.status, await again.clone().text()).toBe(202);
    let state = { status: 'validado', applyState: 'en espera' };
    await until(async () => {
      if (state.status === 'aplicado' || state.applyState === 'fallido') return true;
      state = (await (await fetch(`${publicUrl}/api/payment-files/${file.id}`, { headers })).json()) as typeof state;
      return false;
    });
    expect(state.status).toBe('aplicado');
    const after = await paidState();
    expect(after.payments - before.payments).toBe(open.length);
    const applied = open.reduce((sum, c) => sum + Math.round(Number(c.installment) * 100), 0);
    // Every peso is in a schedule row or, beyond what a credit owed, a sobrepago.
    const cents = (state: typeof before) => Math.round(Number(state.paid) * 100) + Math.round(Number(state.overpaid) * 100);
    expect(cents(after) - cents(before)).toBe(applied);
    expect(await stop(server)).toBe(0);
  });
});
