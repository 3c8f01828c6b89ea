/**
 * Cartera at scale (issue 15): loads N synthetic credits (24-row schedules and their expected deductions) into a
 * throwaway PostgreSQL database with set-based INSERT … SELECT generate_series, then measures through the API:
 * the credits list (a filtered sorted page, a search by CURP, by folio), the credit view, the filtered totals, the
 * home's figures, a 100,000-row export's memory, and a day close over the whole portfolio.
 *
 *   BENCH_CREDITS=1000000 npm run bench:portfolio -w @portal/api
 *
 * BENCH_KEEP=1 keeps the loaded database (its name is printed); BENCH_KEEP_DATABASE=<name> measures it again without
 * loading (the day close then closes its next business date; with BENCH_PAYDAY=1, its next payday, the worst day).
 * BENCH_CLOSE_ONLY=1 stops after the close. The PostgreSQL settings that shape a large close (memory, WAL,
 * checkpoints) are printed first: the figures hold for those.
 */
import { and, eq, gte, sql } from 'drizzle-orm';
import { addDays } from '@portal/lending';
import { asSystem } from '../src/db/scope';
import { credits, installments } from '../src/db/schema/credits';
import { businessDates } from '../src/db/schema/portfolio';
import { closeDay } from '../src/modules/business-date/close-day';
import { agePortfolio } from '../src/modules/portfolio/aging';
import { benchApp, postgresDatabase } from './bench-database';
import { FIRST_NUMBER, collectOnTimePayroll, syntheticCurp, syntheticPortfolio } from './synthetic-portfolio';

const N = Number(process.env.BENCH_CREDITS ?? 100_000);

const pg = await postgresDatabase();
if (!pg) {
  console.log('PostgreSQL no responde: benchmark de cartera omitido.');
  process.exit(0);
}
const { database } = pg;
const ms = (start: number) => Math.round(performance.now() - start);

try {
  const settings = await pg.asOwner<{ name: string; value: string }>(
    `select name, current_setting(name) as value from pg_settings where name in ('shared_buffers', 'max_wal_size', 'checkpoint_timeout', 'wal_compression', 'bgwriter_lru_maxpages', 'work_mem') order by name`,
  );
  console.log(`PostgreSQL: ${settings.map((s) => `${s.name}=${s.value}`).join(', ')}`);
  const { companyId } = await syntheticPortfolio(pg, N);

  // ------------------------------------------------------------------ day close
  if (process.env.BENCH_PAYDAY === '1') {
    // The worst day: the portfolio's next payday, when every credit has an installment falling due and a deduction
    // going en tránsito. The days before it are not closed one by one: the portfolio is aged at the day before, as
    // data that arrives with its history is (agePortfolio), and the business date set to the payday.
    const ageStart = performance.now();
    const payday = await asSystem(database.db, async (tx) => {
      const [date] = await tx.select().from(businessDates).where(eq(businessDates.companyId, companyId));
      const [next] = await tx
        .select({ day: sql<string>`min(${installments.dueDate})::text` })
        .from(installments)
        .where(and(eq(installments.companyId, companyId), gte(installments.dueDate, date!.businessDate)));
      // A kept portfolio closed before: its on-time eight in ten pay what fell due since, as their employers' files
      // would, so that each payday measured meets the same mix of on-time and late credits as the first.
      await collectOnTimePayroll(tx, companyId, next!.day);
      await agePortfolio(tx, companyId, addDays(next!.day, -1));
      await tx.update(businessDates).set({ businessDate: next!.day }).where(eq(businessDates.companyId, companyId));
      return next!.day;
    });
    console.log(`Cartera llevada a la víspera del día de pago ${payday} (agePortfolio): ${(ms(ageStart) / 1000).toFixed(1)} s`);
    // What autovacuum does in the fortnight before a payday: the schedule and the deductions after the previous
    // payday's file (migration 0024's 1 % threshold), the credits after that payday's close (the default 20 %). The
    // close then prunes none of their pages (decision 0014).
    const vacuumStart = performance.now();
    await pg.asOwner('vacuum installments, expected_deductions, credits');
    console.log(`VACUUM entre días de pago (el trabajo de autovacuum): ${(ms(vacuumStart) / 1000).toFixed(1)} s`);
    await pg.analyze();
  }
  // A day passes between two closes, and checkpoints with it: a close's first change to each page after one writes
  // the whole page to the WAL (680,000 pages, 2.2 GB, on a payday over 1,000,000 credits). Measured minutes after the
  // load or the payday's preparation, with no checkpoint in between, a close would skip that and look faster than
  // any real one.
  await pg.asOwner('checkpoint');
  const closeStart = performance.now();
  const [current] = await asSystem(database.db, (tx) => tx.select().from(businessDates).where(eq(businessDates.companyId, companyId)));
  const figures = await closeDay(database.db, companyId, current!.businessDate);
  console.log(
    `Cierre de día sobre ${figures.creditsProcessed.toLocaleString('es-MX')} créditos: ${(ms(closeStart) / 1000).toFixed(1)} s (${figures.newlyDueInstallments.toLocaleString('es-MX')} cuotas que vencen, ${figures.toTransit.toLocaleString('es-MX')} descuentos a tránsito, ${figures.toNotApplied.toLocaleString('es-MX')} a no aplicado, nuevos vencidos ${figures.newVencidos}, moratorios ${figures.moratoryAccrued})`,
  );
  if (process.env.BENCH_CLOSE_ONLY === '1') process.exit(0);

  // ------------------------------------------------------------------ API
  const { app, token } = await benchApp(database);
  const headers = { authorization: `Bearer ${await token('cartera@demo.mx')}` };
  const [sample] = await asSystem(database.db, (tx) =>
    tx
      .select({ id: credits.id, number: credits.number })
      .from(credits)
      .where(eq(credits.number, FIRST_NUMBER + Math.ceil(N / 2))),
  );
  async function p95Of(label: string, url: string, runs = 60) {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      const response = await app.inject({ method: 'GET', url, headers });
      times.push(performance.now() - start);
      if (response.statusCode !== 200) throw new Error(`${url} respondió ${response.statusCode}: ${response.body.slice(0, 200)}`);
    }
    times.sort((a, b) => a - b);
    console.log(
      `${label}: p95 ${times[Math.floor(runs * 0.95) - 1]!.toFixed(1)} ms (mediana ${times[Math.floor(runs / 2)]!.toFixed(1)} ms)`,
    );
  }
  // Right after the close, the pages of the credits it updated are no longer all-visible: the totals visit them.
  await p95Of('Totales filtrados (vigentes) recién cerrado el día, antes de VACUUM', '/api/credits/totals?status=vigente', 20);
  // What autovacuum does after a close (its updates pass the credits table's 20 % threshold): the visibility map set
  // again lets the totals read their index alone.
  const vacuumStart = performance.now();
  await pg.asOwner('vacuum (analyze) credits');
  console.log(`VACUUM de créditos tras el cierre (el trabajo de autovacuum): ${(ms(vacuumStart) / 1000).toFixed(1)} s`);
  await pg.analyze();
  await p95Of('Lista filtrada y ordenada (tramo 31-60, por días de atraso)', '/api/credits?bucket=31-60&sort=-daysPastDue&pageSize=25');
  const half = Math.ceil(N / 2);
  await p95Of('Búsqueda por CURP', `/api/credits?q=${syntheticCurp(half)}`);
  await p95Of('Búsqueda por folio', `/api/credits?q=CR-${String(sample!.number).padStart(8, '0')}`);
  await p95Of('Vista del crédito', `/api/credits/${sample!.id}`);
  await p95Of('Totales filtrados (vigentes), tras VACUUM', '/api/credits/totals?status=vigente', 20);
  await p95Of('Inicio: cifras de la cartera', '/api/home/summary', 20);

  // Disbursement dates spread evenly over 600 days: a window of days that holds about 100,000 credits.
  const windowDays = Math.max(1, Math.round((600 * Math.min(N, 100_000)) / N));
  const exportFilter = `disbursedFrom=2025-06-01&disbursedTo=${new Date(Date.UTC(2025, 5, 1 + windowDays - 1)).toISOString().slice(0, 10)}`;
  const counted = await app.inject({ method: 'GET', url: `/api/credits/totals?${exportFilter}`, headers });
  const exportRows = counted.json<{ count: number }>().count;
  const before = process.memoryUsage().rss;
  let peak = before;
  const watch = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const exportStart = performance.now();
  const exported = await app.inject({ method: 'GET', url: `/api/credits/export.xlsx?${exportFilter}`, headers });
  clearInterval(watch);
  console.log(
    // The peak includes the answer itself, which inject keeps whole in memory (a browser receives it streamed).
    `Exportación de ${exportRows.toLocaleString('es-MX')} filas: ${(ms(exportStart) / 1000).toFixed(1)} s, ${(exported.rawPayload.length / 1e6).toFixed(1)} MB, memoria máxima +${Math.round((peak - before) / 1e6)} MB`,
  );
  await app.close();
} finally {
  await pg.drop();
}
