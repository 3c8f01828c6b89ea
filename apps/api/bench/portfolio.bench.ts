/**
 * Cartera at scale (issue 15): loads N synthetic credits (24-row schedules and their expected deductions) into a
 * throwaway PostgreSQL database with set-based INSERT … SELECT generate_series, then measures through the API:
 * the credits list (a filtered sorted page, a search by CURP, by folio), the credit view, the filtered totals, a
 * 100,000-row export's memory, and a day close over the whole portfolio.
 *
 *   BENCH_CREDITS=1000000 npm run bench:portfolio -w @portal/api
 *
 * BENCH_KEEP=1 keeps the loaded database (its name is printed); BENCH_KEEP_DATABASE=<name> measures it again without
 * loading (the day close then closes its next business date).
 */
import { eq, sql } from 'drizzle-orm';
import { asSystem } from '../src/db/scope';
import { seedDemo } from '../src/seed/seed';
import { agreementProducts, agreements } from '../src/db/schema/agreements';
import { credits } from '../src/db/schema/credits';
import { businessDates } from '../src/db/schema/portfolio';
import { companies } from '../src/db/schema/users';
import { closeDay } from '../src/modules/day-close/close-day';
import { benchApp, postgresDatabase } from './bench-database';

const N = Number(process.env.BENCH_CREDITS ?? 100_000);
const BUSINESS_DATE = '2026-11-23';
const BATCH = 50_000;

const pg = await postgresDatabase();
if (!pg) {
  console.log('PostgreSQL no responde: benchmark de cartera omitido.');
  process.exit(0);
}
const { database, asOwner } = pg;
const ms = (start: number) => Math.round(performance.now() - start);
/** A deterministic id per generated row, shaped as a version-4 UUID (the API validates ids). */
const uid = (kind: string) => sql.raw(`overlay(overlay(md5('${kind}' || g) placing '4' from 13) placing '8' from 17)::uuid`);
/** A CURP-shaped key per row (18 characters, the format the list's search recognises), unique up to 10,000,000. */
const curp = sql.raw(`'BNCH' || lpad((g % 1000000)::text, 6, '0') || 'HJCRRRA' || (g / 1000000)::text`);

try {
  if (!pg.reused) await seedDemo(database.db);
  const { companyId, agreementId, productId } = await asSystem(database.db, async (tx) => {
    const [company] = await tx.select().from(companies).where(eq(companies.code, 'DEMO'));
    const [row] = await tx
      .select({ agreementId: agreements.id, productId: agreementProducts.id })
      .from(agreementProducts)
      .innerJoin(agreements, eq(agreements.id, agreementProducts.agreementId))
      .where(eq(agreements.companyId, company!.id))
      .limit(1);
    return { companyId: company!.id, ...row! };
  });

  async function load(): Promise<void> {
    // ------------------------------------------------------------------ load
    // A bulk load's usual practice: the secondary indexes (those no constraint owns) are dropped first and built once
    // after the rows are in, instead of being updated row by row; the same definitions, read back from the catalogue.
    const secondary = await asOwner<{ name: string; definition: string }>(`
      select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
      from pg_index i join pg_class t on t.oid = i.indrelid
      where t.relname in ('clients', 'requests', 'credits', 'installments', 'expected_deductions')
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`);
    const loadStart = performance.now();
    for (const index of secondary) await asOwner(`drop index ${index.name}`);
    for (let from = 1; from <= N; from += BATCH) {
      const to = Math.min(N, from + BATCH - 1);
      // As the session's (owner, superuser) role with foreign-key triggers off for the batch: the generated rows point
      // at each other by construction, and checking 48 references per credit row by row is most of a bulk load's time.
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('role', session_user, true), set_config('session_replication_role', 'replica', true)`);
        await tx.execute(sql`
          insert into clients (id, company_id, curp, rfc, first_names, last_name_1, last_name_2, birth_date, sex)
          select ${uid('c')}, ${companyId}, ${curp}, 'BNCH' || lpad(g::text, 9, '0'),
                 (array['Ana', 'Luis', 'María', 'José', 'Sofía', 'Jorge'])[1 + g % 6], (array['García', 'López', 'Pérez', 'Ruiz'])[1 + g % 4],
                 'Sánchez', date '1975-01-01' + (g % 9000), case when g % 2 = 0 then 'H' else 'M' end
          from generate_series(${from}::int, ${to}::int) g`);
        await tx.execute(sql`
          insert into requests (id, client_id, company_id, agreement_id, product_id, first_names, last_name_1, employee_number, net_salary,
                                other_deductions, amount, term, street, exterior_number, neighborhood, municipality, state, postal_code,
                                phone, email, "references", clabe, simulation, installment, status)
          select ${uid('r')}, ${uid('c')}, ${companyId}, ${agreementId}, ${productId}, 'Ana', 'García', 'E' || g, 20000, 0,
                 10000, 24, 'Calle', '1', 'Centro', 'Guadalajara', 'Jalisco', '44100', '3300000000', 'bench@demo.mx', '[]', '002180000000000000',
                 '{}', 540.28, 'dispersada'
          from generate_series(${from}::int, ${to}::int) g`);
        await tx.execute(sql`
          insert into credits (id, number, request_id, client_id, company_id, agreement_id, product_id, employee_number, product_name, annual_rate_pct,
                               iva_rate_pct, opening_fee_pct, opening_fee_financed, frequency, term, amount, opening_fee, principal, net_disbursed,
                               installment, cat, clabe, disbursement_date, first_due_date, last_due_date)
          select ${uid('k')}, 1000000 + g, ${uid('r')}, ${uid('c')}, ${companyId}, ${agreementId}, ${productId}, 'E' || g,
                 'Bench 24', 36, 16, 0, false, 'quincenal', 24, 10000, 0, 10000, 10000, 540.28, '47.0', '002180000000000000',
                 date '2025-06-01' + (g % 600), date '2025-06-01' + (g % 600) + 15, date '2025-06-01' + (g % 600) + 360
          from generate_series(${from}::int, ${to}::int) g`);
        // 24 rows each. Eight credits in ten paid everything due before the business date; the others stopped paying
        // between 0 and 199 days ago, which spreads them over every bucket.
        await tx.execute(sql`
          with rows as (
            select ${uid('k')} as credit_id, k, date '2025-06-01' + (g % 600) + 15 * k as due,
                   case when g % 10 < 8 then ${BUSINESS_DATE}::date else ${BUSINESS_DATE}::date - (g % 200) end as paid_before
            from generate_series(${from}::int, ${to}::int) g, generate_series(1, 24) k
          ), ins as (
            insert into installments (credit_id, company_id, number, due_date, principal, interest, iva, payment, balance,
                                      paid_principal, paid_interest, paid_iva, status)
            select credit_id, ${companyId}, k, due, 416.67, 106.37, 17.02, 540.06, 10000 - 416.67 * k,
                   case when due < paid_before then 416.67 else 0 end, case when due < paid_before then 106.37 else 0 end,
                   case when due < paid_before then 17.02 else 0 end, case when due < paid_before then 'pagada' else 'pendiente' end
            from rows
          )
          insert into expected_deductions (credit_id, company_id, period, discount_date, amount, state)
          select credit_id, ${companyId}, k, due, 540.06,
                 case when due < paid_before then 'recibido' when due < ${BUSINESS_DATE}::date then 'no aplicado' else 'esperado' end
          from rows`);
      });
    }
    await asSystem(database.db, (tx) => tx.insert(businessDates).values({ companyId, businessDate: BUSINESS_DATE }));
    const indexStart = performance.now();
    for (const index of secondary) await asOwner(index.definition);
    console.log(`Índices secundarios (${secondary.length}) construidos en ${(ms(indexStart) / 1000).toFixed(1)} s`);
    const loadMs = ms(loadStart);
    console.log(`Carga: ${N.toLocaleString('es-MX')} créditos × 24 amortizaciones y descuentos en ${(loadMs / 1000).toFixed(1)} s (${Math.round((N * 1000) / loadMs).toLocaleString('es-MX')} créditos/s)`);
  }

  if (!pg.reused) await load();
  await pg.analyze();

  // ------------------------------------------------------------------ day close
  const closeStart = performance.now();
  const [current] = await asSystem(database.db, (tx) => tx.select().from(businessDates).where(eq(businessDates.companyId, companyId)));
  const figures = await closeDay(database.db, companyId, current!.businessDate);
  console.log(`Cierre de día sobre ${figures.creditsProcessed.toLocaleString('es-MX')} créditos: ${(ms(closeStart) / 1000).toFixed(1)} s (nuevos vencidos ${figures.newVencidos}, moratorios ${figures.moratoryAccrued})`);
  await pg.analyze();

  // ------------------------------------------------------------------ API
  const { app, token } = await benchApp(database);
  const headers = { authorization: `Bearer ${await token('cartera@demo.mx')}` };
  const [sample] = await asSystem(database.db, (tx) => tx.select({ id: credits.id, number: credits.number }).from(credits).where(eq(credits.number, 1_000_000 + Math.ceil(N / 2))));
  const p95 = async (label: string, url: string, runs = 60) => {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      const response = await app.inject({ method: 'GET', url, headers });
      times.push(performance.now() - start);
      if (response.statusCode !== 200) throw new Error(`${url} respondió ${response.statusCode}: ${response.body.slice(0, 200)}`);
    }
    times.sort((a, b) => a - b);
    console.log(`${label}: p95 ${times[Math.floor(runs * 0.95) - 1]!.toFixed(1)} ms (mediana ${times[Math.floor(runs / 2)]!.toFixed(1)} ms)`);
  };
  await p95('Lista filtrada y ordenada (tramo 31-60, por días de atraso)', '/api/credits?bucket=31-60&sort=-daysPastDue&pageSize=25');
  const half = Math.ceil(N / 2);
  await p95('Búsqueda por CURP', `/api/credits?q=BNCH${String(half % 1_000_000).padStart(6, '0')}HJCRRRA${Math.floor(half / 1_000_000)}`);
  await p95('Búsqueda por folio', `/api/credits?q=CR-${String(sample!.number).padStart(8, '0')}`);
  await p95('Vista del crédito', `/api/credits/${sample!.id}`);
  await p95('Totales filtrados (vigentes)', '/api/credits/totals?status=vigente', 20);

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
