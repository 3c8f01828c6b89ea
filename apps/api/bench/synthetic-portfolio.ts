/**
 * The benchmarks' synthetic portfolio: N credits of the demo company's first agreement (GOB-JAL: quincenal, files
 * by employee number), each with a 24-row schedule and its expected deductions, loaded with set-based INSERT … SELECT
 * generate_series. Employee numbers (E1, E2, …), CURPs (BNCH…) and folios (1000001, …) are unique per credit; the
 * schedules are consistent (principal adds up to the amount lent, each row's payment and balance agree with it), so
 * a payment rewrites only the rows it pays.
 */
import { asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../src/db/client';
import { addDays } from '@portal/lending';
import { asSystem } from '../src/db/scope';
import { ageCreditsAt } from '../src/modules/portfolio/aging';
import { seedDemo } from '../src/seed/seed';
import { agreementProducts, agreements } from '../src/db/schema/agreements';
import { businessDates } from '../src/db/schema/portfolio';
import { companies } from '../src/db/schema/users';
import type { postgresDatabase } from './bench-database';

/** The company's business date after the load (no day closed yet). */
export const BUSINESS_DATE = '2026-11-23';
/** Every synthetic credit's folio is this plus its ordinal (1…N). */
export const FIRST_NUMBER = 1_000_000;
const BATCH = 50_000;

type BenchDatabase = NonNullable<Awaited<ReturnType<typeof postgresDatabase>>>;

export interface SyntheticPortfolio {
  companyId: string;
  agreementId: string;
  productId: string;
}

const ms = (start: number) => Math.round(performance.now() - start);
/** A deterministic id per generated row, shaped as a version-4 UUID (the API validates ids). */
const uid = (kind: string) => sql.raw(`overlay(overlay(md5('${kind}' || g) placing '4' from 13) placing '8' from 17)::uuid`);
/**
 * Disbursements spread over 600 days in steps of 15: every credit's due dates fall on the same quincenal grid, as a
 * payroll agreement's do, and the business date is on it (so a file of that date pays each credit's due installment).
 */
const DISBURSED = sql.raw(`(date '2025-06-01' + 15 * (g % 40))`);
/** A CURP-shaped key per row (18 characters, the format the list's search recognises), unique up to 10,000,000. */
const curp = sql.raw(`'BNCH' || lpad((g % 1000000)::text, 6, '0') || 'HJCRRRA' || (g / 1000000)::text`);

/** The CURP the loader gives the credit of ordinal `g`. */
export const syntheticCurp = (g: number) => `BNCH${String(g % 1_000_000).padStart(6, '0')}HJCRRRA${Math.floor(g / 1_000_000)}`;

/**
 * Seeds the demo and loads `n` credits into a fresh database; a reused one (BENCH_KEEP_DATABASE) is taken as it is.
 * Statistics are refreshed either way.
 */
export async function syntheticPortfolio(pg: BenchDatabase, n: number, options: { schedules?: boolean } = {}): Promise<SyntheticPortfolio> {
  // Without schedules (a report over the credits only) the load skips 48 rows per credit.
  const schedules = options.schedules ?? true;
  const { database, asOwner } = pg;
  if (!pg.reused) await seedDemo(database.db);
  const portfolio = await asSystem(database.db, async (tx) => {
    const [company] = await tx.select().from(companies).where(eq(companies.code, 'DEMO'));
    const [row] = await tx
      .select({ agreementId: agreements.id, productId: agreementProducts.id })
      .from(agreementProducts)
      .innerJoin(agreements, eq(agreements.id, agreementProducts.agreementId))
      .where(eq(agreements.companyId, company!.id))
      .orderBy(asc(agreements.code), asc(agreementProducts.name))
      .limit(1);
    return { companyId: company!.id, ...row! };
  });
  const { companyId, agreementId, productId } = portfolio;
  if (pg.reused) {
    await pg.analyze();
    return portfolio;
  }

  // A bulk load's usual practice: the secondary indexes (those no constraint owns) are dropped first and built once
  // after the rows are in, instead of being updated row by row; the same definitions, read back from the catalogue.
  const secondary = await asOwner<{ name: string; definition: string }>(`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i join pg_class t on t.oid = i.indrelid
    where t.relname in ('clients', 'requests', 'credits', 'installments', 'expected_deductions')
      and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`);
  const loadStart = performance.now();
  for (const index of secondary) await asOwner(`drop index ${index.name}`);
  for (let from = 1; from <= n; from += BATCH) {
    const to = Math.min(n, from + BATCH - 1);
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
        select ${uid('r')}, ${uid('c')}, ${companyId}, ${agreementId}, ${productId},
               (array['Ana', 'Luis', 'María', 'José', 'Sofía', 'Jorge'])[1 + g % 6], (array['García', 'López', 'Pérez', 'Ruiz'])[1 + g % 4],
               'E' || g, 20000, 0,
               10000, 24, 'Calle', '1', 'Centro', 'Guadalajara', 'Jalisco', '44100', '3300000000', 'bench@demo.mx', '[]', '002180000000000000',
               '{}', 540.06, 'dispersada'
        from generate_series(${from}::int, ${to}::int) g`);
      await tx.execute(sql`
        insert into credits (id, number, request_id, client_id, company_id, agreement_id, product_id, employee_number, product_name, annual_rate_pct,
                             iva_rate_pct, opening_fee_pct, opening_fee_financed, moratory_rate_pct, late_fee, frequency, term, amount, opening_fee,
                             principal, net_disbursed, installment, cat, clabe, disbursement_date, first_due_date, last_due_date)
        select ${uid('k')}, ${FIRST_NUMBER} + g, ${uid('r')}, ${uid('c')}, ${companyId}, ${agreementId}, ${productId}, 'E' || g,
               'Bench 24', 36, 16, 0, false, p.moratory_rate_pct, p.late_fee, 'quincenal', 24, 10000, 0, 10000, 10000, 540.06, '47.0',
               '002180000000000000', ${DISBURSED}, ${DISBURSED} + 15, ${DISBURSED} + 360
        from generate_series(${from}::int, ${to}::int) g, agreement_products p where p.id = ${productId}`);
      if (!schedules) return;
      // 24 rows each. Eight credits in ten paid everything due before the business date; the others stopped paying
      // between 0 and 199 days ago, which spreads them over every bucket. Written credit by credit, as a disbursement
      // writes a credit's rows together: its schedule on one or two pages. (Written installment by installment, as
      // the planner chose before the order was given, each credit's 24 rows were on 24 pages, and reading a schedule —
      // a payment, the credit view, the aging of a late credit — read 24 pages, where a payday's rows falling due
      // were packed on few.)
      await tx.execute(sql`
        with rows as (
          select g, ${uid('k')} as credit_id, k, ${DISBURSED} + 15 * k as due, case when k = 24 then 416.59 else 416.67 end as principal,
                 case when g % 10 < 8 then ${BUSINESS_DATE}::date else ${BUSINESS_DATE}::date - (g % 200) end as paid_before
          from generate_series(${from}::int, ${to}::int) g, generate_series(1, 24) k
        ), ins as (
          insert into installments (credit_id, company_id, number, due_date, principal, interest, iva, payment, balance,
                                    paid_principal, paid_interest, paid_iva)
          select credit_id, ${companyId}, k, due, principal, 106.37, 17.02, principal + 123.39, case when k = 24 then 0 else 10000 - 416.67 * k end,
                 case when due < paid_before then principal else 0 end, case when due < paid_before then 106.37 else 0 end,
                 case when due < paid_before then 17.02 else 0 end
          from rows order by g, k
        )
        insert into expected_deductions (credit_id, company_id, period, discount_date, amount, state)
        select credit_id, ${companyId}, k, due, principal + 123.39,
               case when due < paid_before then 'recibido' when due < ${BUSINESS_DATE}::date then 'no aplicado' else 'esperado' end
        from rows order by g, k`);
    });
  }
  await asSystem(database.db, (tx) => tx.insert(businessDates).values({ companyId, businessDate: BUSINESS_DATE }));

  const indexStart = performance.now();
  for (const index of secondary) await asOwner(index.definition);
  console.log(`Índices secundarios (${secondary.length}) construidos en ${(ms(indexStart) / 1000).toFixed(1)} s`);
  const loadMs = ms(loadStart);
  console.log(
    `Carga: ${n.toLocaleString('es-MX')} créditos${schedules ? ' × 24 amortizaciones y descuentos' : ' (sin amortizaciones)'} en ${(loadMs / 1000).toFixed(1)} s (${Math.round((n * 1000) / loadMs).toLocaleString('es-MX')} créditos/s)`,
  );
  await pg.analyze();
  if (schedules) {
    // As data that arrives with a history is: aged at the day before the business date, late charges started.
    const agedStart = performance.now();
    await asSystem(database.db, (tx) => ageCreditsAt(tx, companyId, addDays(BUSINESS_DATE, -1)));
    console.log(`Cartera envejecida al ${addDays(BUSINESS_DATE, -1)} (ageCreditsAt): ${(ms(agedStart) / 1000).toFixed(1)} s`);
    await pg.analyze();
  }
  return portfolio;
}

/**
 * The payroll of the on-time credits (eight in ten: ordinal mod 10 below 8, as the loader built them), received for
 * every installment due before `through`: each such row paid in full, late charges included, and its deduction
 * recibido. Written directly, as the loader writes, to bring a kept portfolio to a later payday in the state its
 * files would have left it; the late two in ten keep owing.
 */
export async function collectOnTimePayroll(tx: Tx, companyId: string, through: string): Promise<void> {
  await tx.execute(sql`
    update installments i set paid_principal = i.principal, paid_interest = i.interest, paid_iva = i.iva,
           paid_moratory_interest = i.moratory_interest, paid_moratory_iva = i.moratory_iva, paid_fees = i.fees, paid_fees_iva = i.fees_iva,
           accrues_from = null
    from credits c
    where c.id = i.credit_id and c.company_id = ${companyId} and (c.number - ${FIRST_NUMBER}) % 10 < 8
      and i.company_id = ${companyId} and i.due_date < ${through}::date and i.outstanding > 0`);
  await tx.execute(sql`
    update expected_deductions e set state = 'recibido'
    from credits c
    where c.id = e.credit_id and c.company_id = ${companyId} and (c.number - ${FIRST_NUMBER}) % 10 < 8
      and e.company_id = ${companyId} and e.discount_date < ${through}::date and e.state <> 'recibido'`);
}
