/**
 * Reportes operativos at scale (issue 18): a run of "Cartera al día" over BENCH_REPORT_ROWS synthetic credits
 * (default 1,000,000) to xlsx on PostgreSQL, through the run job itself (cursor → the xlsx writer → the file's pieces
 * in report_run_chunks), measuring its duration and peak resident memory. The run goes in a process of its own, as an
 * API process runs it: the app built first (routes, queue; the identity provider external, as in production), then the
 * job; its peak is the kernel's maxrss of that process, so neither the loading of the portfolio nor this process's
 * heap count. That process is this script compiled and run by plain node, as production runs the API, or under tsx as
 * `npm start` does with BENCH_REPORT_SOURCE=1. Targets: ≤ 30 s and ≤ 300 MB.
 *
 *   npm run bench:report -w @portal/api            (BENCH_REPORT_ROWS=100000 for a quick one)
 *
 * BENCH_KEEP=1 keeps the loaded database; BENCH_KEEP_DATABASE=<name> runs again on it without loading.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { eq, sql } from 'drizzle-orm';
import { asSystem } from '../src/db/scope';
import { reportDefinitions, reportRunChunks, reportRuns } from '../src/db/schema/reports';
import { profiles, users } from '../src/db/schema/users';
import { runReportJob } from '../src/modules/reports/reports.service';
import { benchApp, postgresDatabase } from './bench-database';
import { syntheticPortfolio } from './synthetic-portfolio';

const N = Number(process.env.BENCH_REPORT_ROWS ?? 1_000_000);
const TARGET_SECONDS = 30;
const TARGET_RSS_MB = 300;
const mb = (bytes: number) => bytes / (1024 * 1024);

/** What the run's process reports on its last line. */
interface Measured {
  seconds: number;
  beforeMb: number;
  maxRssMb: number;
  peakHeapMb: number;
  peakExternalMb: number;
}

const runId = process.env.BENCH_REPORT_RUN;
if (runId) await measureRun(runId);
else await main();

/** This script compiled as build.mjs compiles the API (workspace packages in, npm dependencies left to node_modules). */
async function compiled(): Promise<string> {
  const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const external = [...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)].filter(
    (name) => !name.startsWith('@portal/'),
  );
  // Beside the API's bundle, at the depth its code expects of its own file (config.ts finds the repository from it).
  const outfile = fileURLToPath(new URL('../dist/report-bench.mjs', import.meta.url));
  await build({
    entryPoints: [fileURLToPath(import.meta.url)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    outfile,
    external,
    logLevel: 'warning',
  });
  return outfile;
}

/** The run's process: builds the app on the kept database as main.ts would, then runs the job and says what it took. */
async function measureRun(id: string): Promise<void> {
  const pg = (await postgresDatabase())!;
  const { app } = await benchApp(pg.database);
  await app.ready();
  const [run] = await asSystem(pg.database.db, (tx) =>
    tx.select({ companyId: reportRuns.companyId }).from(reportRuns).where(eq(reportRuns.id, id)),
  );
  const before = process.memoryUsage().rss;
  let peakHeap = 0;
  let peakExternal = 0;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peakHeap = Math.max(peakHeap, usage.heapUsed);
    peakExternal = Math.max(peakExternal, usage.external);
  }, 50);
  const start = performance.now();
  await runReportJob(
    pg.database.db,
    { runId: id, companyId: run!.companyId, retentionDays: 7 },
    { now: () => new Date(), concurrentProgress: true },
  );
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  const measured: Measured = {
    seconds,
    beforeMb: mb(before),
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    peakHeapMb: mb(peakHeap),
    peakExternalMb: mb(peakExternal),
  };
  console.log(JSON.stringify(measured));
  await app.close();
  await pg.drop();
}

async function main(): Promise<void> {
  const pg = await postgresDatabase();
  if (!pg) {
    console.log('PostgreSQL no responde: benchmark de reportes omitido.');
    return;
  }
  const { database } = pg;
  const databaseName = new URL(pg.ownerUrl).pathname.slice(1);
  try {
    const loadStart = performance.now();
    const { companyId } = await syntheticPortfolio(pg, N, { schedules: false });
    if (!process.env.BENCH_KEEP_DATABASE) {
      // Balances, aging and next discount dates that vary as a portfolio's do (the loader leaves them at their
      // defaults; a kept database has them already).
      await pg.asOwner(`
        update credits set
          outstanding_balance = 10000 - 416.67 * (number % 24),
          overdue_balance = case when number % 10 = 0 then 540.06 * (1 + number % 4) else 0 end,
          days_past_due = case when number % 10 = 0 then 15 * (1 + number % 8) else 0 end,
          aging_bucket = case when number % 10 <> 0 then 'current' when number % 8 < 2 then '1-30' when number % 8 < 4 then '31-60' when number % 8 < 6 then '61-89' else '90+' end,
          next_discount_date = date '2026-11-30' + ((number % 2) * 15)::int`);
      await pg.analyze();
    }
    console.log(`Cartera lista: ${N.toLocaleString('es-MX')} créditos en ${((performance.now() - loadStart) / 1000).toFixed(1)} s`);

    const {
      definitionId,
      runId: id,
      userId,
    } = await asSystem(database.db, async (tx) => {
      const [profile] = await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.name, 'Cartera'));
      const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, 'cartera@demo.mx'));
      const definition = {
        name: 'Cartera al día (benchmark)',
        dataset: 'cartera-al-dia' as const,
        columns: [
          'folio',
          'client',
          'curp',
          'agreement',
          'disbursementDate',
          'principal',
          'installment',
          'outstandingBalance',
          'overdueBalance',
          'nextDiscountDate',
          'daysPastDue',
          'bucket',
          'status',
          'businessDate',
        ],
        filters: [],
        sort: { field: 'folio', direction: 'asc' as const },
        format: 'xlsx' as const,
      };
      const [created] = await tx
        .insert(reportDefinitions)
        .values({ ...definition, companyId, profileIds: [profile!.id] })
        .returning();
      const [run] = await tx
        .insert(reportRuns)
        .values({ companyId, definitionId: created!.id, definitionVersion: 1, definition, parameters: {}, requestedBy: user!.id })
        .returning();
      return { definitionId: created!.id, runId: run!.id, userId: user!.id };
    });

    // The run in a process of its own (this script again, told which run), on the same database: compiled as
    // `npm run build` compiles the API and run by plain node, as production runs it, or under tsx as `npm start` does
    // (BENCH_REPORT_SOURCE=1).
    const fromSource = process.env.BENCH_REPORT_SOURCE === '1';
    const runner = fromSource ? [...process.execArgv, process.argv[1]!] : [await compiled()];
    const measured = await new Promise<Measured>((resolve, reject) => {
      const child = spawn(process.execPath, runner, {
        env: {
          ...process.env,
          BENCH_REPORT_RUN: id,
          BENCH_KEEP_DATABASE: databaseName,
          BENCH_KEEP: '1',
          ...(fromSource ? {} : { NODE_ENV: 'production' }),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => {
        const last = output
          .trim()
          .split('\n')
          .find((line) => line.startsWith('{'));
        if (code === 0 && last) resolve(JSON.parse(last) as Measured);
        else reject(new Error(`El proceso de la ejecución terminó con ${code}:\n${output}`));
      });
    });

    const [run] = await asSystem(database.db, (tx) => tx.select().from(reportRuns).where(eq(reportRuns.id, id)));
    if (run!.status !== 'completado') throw new Error(`La ejecución terminó ${run!.status}: ${run!.error}`);
    const [stored] = await asSystem(database.db, (tx) =>
      tx
        .select({ pieces: sql<number>`count(*)::int`, bytes: sql<number>`sum(length(${reportRunChunks.data}))::bigint` })
        .from(reportRunChunks)
        .where(eq(reportRunChunks.runId, id)),
    );
    console.log(
      `Reporte ${run!.fileName}: ${run!.rowsDone.toLocaleString('es-MX')} filas × 14 columnas, ${mb(run!.size ?? 0).toFixed(1)} MB en ${stored!.pieces} piezas ` +
        `(${mb(Number(stored!.bytes)).toFixed(1)} MB guardados) para ${userId.slice(0, 8)}, definición ${definitionId.slice(0, 8)}`,
    );
    const { seconds } = measured;
    console.log(
      `Duración: ${seconds.toFixed(1)} s (${Math.round(run!.rowsDone / seconds).toLocaleString('es-MX')} filas/s); meta ≤ ${TARGET_SECONDS} s: ${seconds <= TARGET_SECONDS ? 'cumplida' : 'NO cumplida'}`,
    );
    console.log(
      `Memoria residente del proceso que la ejecutó (${fromSource ? 'tsx, como npm start' : 'compilado, node como en producción'}; la API construida, luego la ejecución): ${measured.beforeMb.toFixed(0)} MB antes, pico ${measured.maxRssMb.toFixed(0)} MB ` +
        `(montículo de JS ${measured.peakHeapMb.toFixed(0)} MB, búferes ${measured.peakExternalMb.toFixed(0)} MB); meta ≤ ${TARGET_RSS_MB} MB: ${measured.maxRssMb <= TARGET_RSS_MB ? 'cumplida' : 'NO cumplida'}`,
    );
  } finally {
    await pg.drop();
  }
}
