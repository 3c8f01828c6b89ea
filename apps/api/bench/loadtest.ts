/**
 * `npm run loadtest`: the compiled server (`start:prod`: plain node, NODE_ENV=production) on a throwaway PostgreSQL
 * database, as one process and as two, under 50 concurrent connections from autocannon, 127.0.0.1 only and bounded by
 * LOADTEST_SECONDS per scenario. Data: the demo company plus LOADTEST_CREDITS credits and LOADTEST_USERS synthetic
 * users; tokens come from the embedded provider's real sign-in. Prints req/s and p50/p95/p99 per scenario and the idle
 * RSS of each process. Add a scenario to SCENARIOS and it is measured too.
 *
 * LOADTEST_DATABASE=<name> runs on a database that exists already instead, left as it is: e.g. the 1,000,000-credit
 * portfolio with 20,000 users that `npm run loadtest:database -w @portal/api` builds once and keeps (bench/loadtest-database.ts),
 * or the one `BENCH_KEEP=1 BENCH_CREDITS=1000000 npm run bench:portfolio -w @portal/api` keeps (it holds the demo too).
 * LOADTEST_KEEP=1 keeps the database it created and prints its name, for the next runs' LOADTEST_DATABASE.
 * DATABASE_POOL_SIZE, when set, is handed to the servers (each process's connections to PostgreSQL; 20 without it).
 */
import autocannon from 'autocannon';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { REPO_ROOT } from '../src/config';
import { openDatabase } from '../src/db/client';
import { DEMO_ACCOUNTS, seedDemo } from '../src/seed/seed';
import { seedDemoPortfolio } from '../src/seed/seed-portfolio';
import { seedSyntheticUsers } from '../src/seed/seed-users';
import { creditFolio } from '../src/modules/shared/folios';
import { httpTransport, oidcBrowser } from '../src/test/oidc-client';
import { processorMs } from './processor-time';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.LOADTEST_SECONDS ?? 10);
/**
 * LOADTEST_WARMUP seconds of the same load before each scenario's measured seconds, not counted: each process's 20
 * database connections prepare the scenario's statements on first use (db/statement-cache.ts) and V8 compiles the hot
 * paths, which a steady load has done long before.
 */
const WARMUP_SECONDS = Number(process.env.LOADTEST_WARMUP ?? 3);
const CONNECTIONS = 50;
const CREDITS = Number(process.env.LOADTEST_CREDITS ?? 2_000);
const USERS = Number(process.env.LOADTEST_USERS ?? 20_000);
const TOPOLOGIES = (process.env.LOADTEST_PROCESSES ?? '1,2').split(',').map(Number);
const FIRST_PORT = 31050;
/** LOADTEST_ONLY=<text>[|<text>…]: only the scenarios whose name contains one of them (e.g. "credit view|token"). */
const ONLY = process.env.LOADTEST_ONLY?.split('|');
/** LOADTEST_NODE_ARGS: flags for the servers' node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile them under load). */
const NODE_ARGS = process.env.LOADTEST_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const API_ROOT = path.join(REPO_ROOT, 'apps/api');
/**
 * LOADTEST_AGAINST=<folder in apps/api>: a paired comparison instead of the topologies. Two processes under the same
 * load at the same moment, one of this tree's build (dist) and one of the build in that folder (copy dist there from
 * the other version), and each one's figures. On a shared machine whose speed drifts by half within an hour, runs one
 * after the other compare the hours more than the code; two processes measured together share the drift.
 */
const AGAINST = process.env.LOADTEST_AGAINST;

/** A credit from the middle of the portfolio, by its id, its client's CURP and its folio. */
interface Fixture {
  creditId: string;
  curp: string;
  folio: string;
}

/** Who signs in for the scenarios: the administrator (SA, every company) and Demo Cartera (its company's portfolio). */
const demoAccount = (email: string) => DEMO_ACCOUNTS.find((account) => account.email === email)!;
const ACCOUNTS = { admin: demoAccount('admin@demo.mx'), cartera: demoAccount('cartera@demo.mx') };

/**
 * What is measured: one GET each, with a signed-in user's token. The Cartera screens are measured as their users
 * (Demo Cartera, within its company) and, the searches, as the administrator too (across companies).
 */
const SCENARIOS: { name: string; as: keyof typeof ACCOUNTS; path: (fixture: Fixture) => string }[] = [
  { name: 'token check (who am I)', as: 'admin', path: () => '/api/core/user/by_email/admin@demo.mx' },
  /** The view's header and summary, what the screen opens on (its tabs read their parts by their own routes). */
  { name: 'credit view', as: 'cartera', path: (fixture) => `/api/credits/${fixture.creditId}` },
  /** The largest of those parts: the schedule, the Calendario de pagos tab (a build before issue 52's split has no route for it). */
  { name: 'credit schedule (its tab)', as: 'cartera', path: (fixture) => `/api/credits/${fixture.creditId}/installments` },
  /**
   * The floor of a protected read: the same hooks and token check as the credit view, one exchange with PostgreSQL
   * (BEGIN and the company's scope, a read of the company's two agreements, COMMIT) and a 0.2 kB answer.
   */
  { name: 'one small read (agreement options)', as: 'cartera', path: () => '/api/credits/agreement-options' },
  {
    name: 'credits list (bucket 31-60 by days past due, page of 25)',
    as: 'cartera',
    path: () => '/api/credits?bucket=31-60&sort=-daysPastDue&pageSize=25',
  },
  { name: 'credits search by CURP', as: 'cartera', path: (fixture) => `/api/credits?q=${fixture.curp}&pageSize=25` },
  { name: 'credits search by folio', as: 'cartera', path: (fixture) => `/api/credits?q=${fixture.folio}&pageSize=25` },
  { name: 'credits search by CURP, SA', as: 'admin', path: (fixture) => `/api/credits?q=${fixture.curp}&pageSize=25` },
  { name: 'credits search by folio, SA', as: 'admin', path: (fixture) => `/api/credits?q=${fixture.folio}&pageSize=25` },
  { name: 'users list (page of 25)', as: 'admin', path: () => '/api/users?page=1&pageSize=25' },
  { name: 'requests list (page of 25)', as: 'admin', path: () => '/api/requests?page=1&pageSize=25' },
  { name: 'users search (q=maria)', as: 'admin', path: () => '/api/users?q=maria&pageSize=25' },
  { name: 'credits search by name (q=maria)', as: 'cartera', path: () => '/api/credits?q=maria&pageSize=25' },
  { name: 'requests search by name (q=maria)', as: 'admin', path: () => '/api/requests?q=maria&pageSize=25' },
];

async function admin<T extends pg.QueryResultRow>(url: string, statement: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(statement)).rows;
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function prepareDatabase(name: string): Promise<Fixture> {
  await admin(ADMIN_URL, `drop database if exists ${name} with (force)`);
  await admin(ADMIN_URL, `create database ${name}`);
  const url = databaseUrl(name);
  const started = performance.now();
  const database = await openDatabase({ kind: 'postgres', url }, { migrate: true });
  await seedDemo(database.db);
  await seedDemoPortfolio(database.db, new Date(), CREDITS);
  await seedSyntheticUsers(database.db, USERS);
  await database.close();
  await admin(url, 'analyze');
  console.log(`datos: demo + ${CREDITS} créditos + ${USERS} usuarios en ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return fixtureOf(url);
}

async function fixtureOf(url: string): Promise<Fixture> {
  const [credit] = await admin<{ id: string; number: number; curp: string; total: number }>(
    url,
    `with demo as (select id from companies where code = 'DEMO')
     select c.id, c.number, k.curp, (select count(*) from credits)::int as total
     from credits c join clients k on k.id = c.client_id
     where c.company_id = (select id from demo)
     order by c.number offset (select count(*) / 2 from credits where company_id = (select id from demo)) limit 1`,
  );
  console.log(`cartera: ${credit!.total.toLocaleString('es-MX')} créditos`);
  return { creditId: credit!.id, curp: credit!.curp, folio: creditFolio(credit!.number) };
}

function startServer(port: number, env: Record<string, string>, build = 'dist'): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...NODE_ARGS, `${build}/main.js`], {
    cwd: API_ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Portal listo en')) resolve(child);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`el servidor terminó (${code}):\n${output}`)));
  });
}

/** The servers, one per port; if any fails to start, the others are stopped before the failure is reported. */
async function startServers(ports: number[], env: Record<string, string>, builds: string[]): Promise<ChildProcess[]> {
  const started = await Promise.allSettled(ports.map((port, index) => startServer(port, env, builds[index])));
  const failed = started.find((result) => result.status === 'rejected');
  if (!failed) return started.map((result) => (result as PromiseFulfilledResult<ChildProcess>).value);
  await Promise.all(started.flatMap((result) => (result.status === 'fulfilled' ? [stopServer(result.value)] : [])));
  throw failed.reason;
}

function stopServer(server: ChildProcess): Promise<unknown> {
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  return exited;
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/**
 * The whole machine's CPU time so far, in ms, from /proc/stat: busy (every core's user, system, interrupts: the servers,
 * PostgreSQL, autocannon, the kernel's network) and stolen (taken by the machine's host for other machines).
 */
async function machineMs(): Promise<{ busy: number; steal: number }> {
  const [user, nice, system, , , irq, softirq, steal] = (await readFile('/proc/stat', 'utf8'))
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return { busy: (user! + nice! + system! + irq! + softirq!) * 10, steal: steal! * 10 };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** A scenario's answers a second, latency percentiles and the servers' CPU per answer. */
interface Figures {
  cpuPerRequest: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

/** One scenario against every process at once, the connections split among them; exact percentiles over all answers. */
async function measure(origins: string[], pids: number[], requestPath: string, authorization: string, seconds = SECONDS) {
  const latencies: number[][] = origins.map(() => []);
  const cpuBefore = await Promise.all(pids.map(processorMs));
  const machineBefore = await machineMs();
  let failures = 0;
  let bytes = 0;
  const runs = origins.map(
    (origin, index) =>
      new Promise<void>((resolve, reject) => {
        const instance = autocannon(
          { url: `${origin}${requestPath}`, connections: CONNECTIONS / origins.length, duration: seconds, headers: { authorization } },
          (error, result) => {
            if (error) return reject(error);
            failures += result.errors + result.timeouts;
            resolve();
          },
        );
        instance.on('response', (_client, statusCode, responseBytes, responseTime) => {
          if (statusCode !== 200) failures += 1;
          bytes += responseBytes;
          latencies[index]!.push(responseTime);
        });
      }),
  );
  await Promise.all(runs);
  const cpuAfter = await Promise.all(pids.map(processorMs));
  const machineAfter = await machineMs();
  const figures = (answers: number[], cpu: number): Figures => {
    const sorted = [...answers].sort((a, b) => a - b);
    return {
      /** The servers' CPU per answer: what a change to the request's own work moves, whatever the machine's noise. */
      cpuPerRequest: cpu / Math.max(1, sorted.length),
      rps: Math.round(sorted.length / seconds),
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
    };
  };
  const all = latencies.flat();
  return {
    ...figures(
      all,
      cpuAfter.reduce((sum, after, index) => sum + after - cpuBefore[index]!, 0),
    ),
    /** Each process's own figures, in the order of `pids`. */
    perProcess: latencies.map((answers, index) => figures(answers, cpuAfter[index]! - cpuBefore[index]!)),
    /** The machine's CPU per answer, everything included: on two cores, what bounds the answers a second. */
    machinePerRequest: (machineAfter.busy - machineBefore.busy) / Math.max(1, all.length),
    /** The answer's size on the wire (headers and body): what the servers write, the kernel carries and autocannon reads. */
    kbPerAnswer: bytes / 1024 / Math.max(1, all.length),
    /** The share of the measured time the host took the cores for other machines. */
    stealPct: (100 * (machineAfter.steal - machineBefore.steal)) / (seconds * 1000 * availableParallelism()),
    failures,
  };
}

type Run = Awaited<ReturnType<typeof measure>>;

/** A line of the final table: processes (or a build), the scenario, its figures and, for a whole run, the machine's. */
function tableRow(label: string | number, name: string, own: Figures, run?: Run): string {
  const machine = run
    ? `| ${run.machinePerRequest.toFixed(2)} | ${run.stealPct.toFixed(0)} | ${run.kbPerAnswer.toFixed(1)} | ${run.failures} |`
    : '| | | | |';
  return `| ${label} | ${name} | ${own.rps} | ${own.p50.toFixed(0)} | ${own.p95.toFixed(0)} | ${own.p99.toFixed(0)} | ${own.cpuPerRequest.toFixed(2)} ${machine}`;
}

/**
 * The machine's yardstick: a bare node:http server answering a fixed 1 kB of JSON, under the same autocannon load. Machines
 * of this kind differ by 2–3 times in what they serve (decision 0022); the scenarios' figures are read against it.
 */
async function yardstick(): Promise<string> {
  const port = FIRST_PORT - 1;
  const script = `const body = JSON.stringify({ items: Array.from({ length: 20 }, (_, n) => ({ n, name: 'x'.repeat(32) })) });
    require('node:http').createServer((_, res) => { res.setHeader('content-type', 'application/json'); res.end(body); })
      .listen(${port}, '127.0.0.1', () => console.log('listo'));`;
  const server = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise((resolve, reject) => {
      server.stdout!.once('data', resolve);
      server.once('exit', (code) => reject(new Error(`el servidor de referencia terminó (${code})`)));
    });
    const origin = `http://127.0.0.1:${port}`;
    if (WARMUP_SECONDS > 0) await measure([origin], [server.pid!], '/', 'none', WARMUP_SECONDS);
    const result = await measure([origin], [server.pid!], '/', 'none');
    const line = tableRow(1, 'bare node:http server, 1 kB (yardstick)', result, result);
    console.log(`\nvara de medir (esta máquina):\n${line}`);
    return line;
  } finally {
    await stopServer(server);
  }
}

async function main(): Promise<void> {
  await promisify(execFile)(process.execPath, ['build.mjs'], { cwd: API_ROOT });
  const measuringStick = await yardstick();
  const kept = process.env.LOADTEST_DATABASE;
  const name = kept ?? `portal_load_${process.pid}`;
  const fixture = kept ? await fixtureOf(databaseUrl(kept)) : await prepareDatabase(name);
  const url = databaseUrl(name);
  const rows: string[] = [];
  try {
    for (const count of AGAINST ? [2] : TOPOLOGIES) {
      const ports = Array.from({ length: count }, (_, index) => FIRST_PORT + index);
      const builds = AGAINST ? ['dist', AGAINST] : ports.map(() => 'dist');
      const publicUrl = `http://127.0.0.1:${ports[0]}`;
      const env = {
        DATABASE_URL: url,
        PUBLIC_URL: publicUrl,
        MIGRATE_ON_START: 'false',
        SEED_DEMO: 'false',
        ...(process.env.DATABASE_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE } : {}),
      };
      const servers = await startServers(ports, env, builds);
      try {
        const origins = ports.map((port) => `http://127.0.0.1:${port}`);
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        const idle = await Promise.all(servers.map((server) => rssMb(server.pid!)));
        const authorization: Record<string, string> = {};
        for (const [who, account] of Object.entries(ACCOUNTS)) {
          const tokens = await oidcBrowser(httpTransport(origins[0]!), { publicUrl, audience: `${publicUrl}/api` }).completeSignIn(
            account.email,
            account.password,
          );
          authorization[who] = `Bearer ${tokens.access_token}`;
        }
        console.log(`\n${count} proceso(s): RSS en reposo ${idle.map((mb) => `${mb.toFixed(0)} MB`).join(', ')}`);
        const pids = servers.map((server) => server.pid!);
        for (const scenario of SCENARIOS.filter((candidate) => !ONLY || ONLY.some((part) => candidate.name.includes(part)))) {
          if (WARMUP_SECONDS > 0) await measure(origins, pids, scenario.path(fixture), authorization[scenario.as]!, WARMUP_SECONDS);
          const result = await measure(origins, pids, scenario.path(fixture), authorization[scenario.as]!);
          const report = (line: string) => {
            console.log(line);
            rows.push(line);
          };
          report(tableRow(count, scenario.name, result, result));
          // Each process's own figures: the machine's and the failures are the run's, above.
          if (AGAINST) for (const [index, own] of result.perProcess.entries()) report(tableRow(builds[index]!, scenario.name, own));
        }
        const loaded = await Promise.all(servers.map((server) => rssMb(server.pid!)));
        console.log(`RSS después de la carga: ${loaded.map((mb) => `${mb.toFixed(0)} MB`).join(', ')}`);
      } finally {
        await Promise.all(servers.map(stopServer));
      }
    }
  } finally {
    if (!kept && process.env.LOADTEST_KEEP === '1') console.log(`Base conservada: LOADTEST_DATABASE=${name}`);
    else if (!kept) await admin(ADMIN_URL, `drop database if exists ${name} with (force)`);
  }
  console.log(
    `\n| procesos | escenario | req/s | p50 ms | p95 ms | p99 ms | CPU ms/req | máquina ms/req | robado % | kB/respuesta | no 200 |\n|---|---|---|---|---|---|---|---|---|---|---|\n${measuringStick}\n${rows.join('\n')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
