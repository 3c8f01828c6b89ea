/**
 * Reportes operativos at scale (issue 18): a run of "Cartera al día" over BENCH_REPORT_ROWS synthetic credits
 * (default 1,000,000) to xlsx on PostgreSQL, through the run job itself (cursor → exceljs streaming writer → the file's
 * pieces in report_run_chunks), measuring its duration and the process's peak resident memory while it runs.
 * Targets: ≤ 30 s and ≤ 300 MB.
 *
 *   npm run bench:report -w @portal/api            (BENCH_REPORT_ROWS=100000 for a quick one)
 *
 * BENCH_KEEP=1 keeps the loaded database; BENCH_KEEP_DATABASE=<name> runs again on it without loading.
 */
import { eq, sql } from 'drizzle-orm';
import { asSystem } from '../src/db/scope';
import { reportDefinitions, reportRunChunks, reportRuns } from '../src/db/schema/reports';
import { profiles, users } from '../src/db/schema/users';
import { runReportJob } from '../src/modules/reports/reports.service';
import { postgresDatabase } from './bench-database';
import { syntheticPortfolio } from './synthetic-portfolio';

const N = Number(process.env.BENCH_REPORT_ROWS ?? 1_000_000);
const TARGET_SECONDS = 30;
const TARGET_RSS_MB = 300;
const mb = (bytes: number) => bytes / (1024 * 1024);

const pg = await postgresDatabase();
if (!pg) {
  console.log('PostgreSQL no responde: benchmark de reportes omitido.');
  process.exit(0);
}
const { database } = pg;

try {
  const loadStart = performance.now();
  const { companyId } = await syntheticPortfolio(pg, N, { schedules: false });
  {
    // Balances, aging and next discount dates that vary as a portfolio's do (the loader leaves them at their defaults).
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

  const { definitionId, runId, userId } = await asSystem(database.db, async (tx) => {
    const [profile] = await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.name, 'Cartera'));
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, 'cartera@demo.mx'));
    const definition = {
      name: 'Cartera al día (benchmark)',
      dataset: 'cartera-al-dia' as const,
      columns: ['folio', 'client', 'curp', 'agreement', 'disbursementDate', 'principal', 'installment', 'outstandingBalance', 'overdueBalance', 'nextDiscountDate', 'daysPastDue', 'bucket', 'status', 'businessDate'],
      filters: [],
      sort: { field: 'folio', direction: 'asc' as const },
      format: 'xlsx' as const,
    };
    const [created] = await tx.insert(reportDefinitions).values({ ...definition, companyId, profileIds: [profile!.id] }).returning();
    const [run] = await tx
      .insert(reportRuns)
      .values({ companyId, definitionId: created!.id, definitionVersion: 1, definition, parameters: {}, requestedBy: user!.id })
      .returning();
    return { definitionId: created!.id, runId: run!.id, userId: user!.id };
  });

  // Peak resident memory of this process while the run goes (sampled every 50 ms), against what it used before.
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  let peakHeap = 0;
  let peakExternal = 0;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peak = Math.max(peak, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
    peakExternal = Math.max(peakExternal, usage.external);
  }, 50);
  const start = performance.now();
  await runReportJob(database.db, { runId, companyId, retentionDays: 7 }, { now: () => new Date(), concurrentProgress: true });
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);

  const [run] = await asSystem(database.db, (tx) => tx.select().from(reportRuns).where(eq(reportRuns.id, runId)));
  if (run!.status !== 'completado') throw new Error(`La ejecución terminó ${run!.status}: ${run!.error}`);
  const [stored] = await asSystem(database.db, (tx) =>
    tx.select({ pieces: sql<number>`count(*)::int`, bytes: sql<number>`sum(length(${reportRunChunks.data}))::bigint` }).from(reportRunChunks).where(eq(reportRunChunks.runId, runId)),
  );
  console.log(
    `Reporte ${run!.fileName}: ${run!.rowsDone.toLocaleString('es-MX')} filas × 14 columnas, ${mb(run!.size ?? 0).toFixed(1)} MB en ${stored!.pieces} piezas ` +
      `(${mb(Number(stored!.bytes)).toFixed(1)} MB guardados) para ${userId.slice(0, 8)}, definición ${definitionId.slice(0, 8)}`,
  );
  console.log(`Duración: ${seconds.toFixed(1)} s (${Math.round(run!.rowsDone / seconds).toLocaleString('es-MX')} filas/s); meta ≤ ${TARGET_SECONDS} s: ${seconds <= TARGET_SECONDS ? 'cumplida' : 'NO cumplida'}`);
  console.log(
    `Memoria residente: ${mb(before).toFixed(0)} MB antes, pico ${mb(peak).toFixed(0)} MB durante la ejecución (montículo de JS ${mb(peakHeap).toFixed(0)} MB, búferes ${mb(peakExternal).toFixed(0)} MB); meta ≤ ${TARGET_RSS_MB} MB: ${mb(peak) <= TARGET_RSS_MB ? 'cumplida' : 'NO cumplida'}`,
  );
} finally {
  await pg.drop();
}
