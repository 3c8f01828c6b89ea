import { eq, sql, type SQL } from 'drizzle-orm';
import { addDays } from '@portal/lending';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { asSystem } from '../../db/scope';
import { auditEvents } from '../../db/schema/audit';
import { businessDates, dayCloseRuns, dayCloses } from '../../db/schema/portfolio';
import { HttpProblem } from '../../http/errors';
import { lockCompanyPortfolio } from './company-lock';
import { refreshPortfolioFigures } from './portfolio-figures';

/**
 * The day close, cierre de día (docs/domain.md, "Day close and aging"; DOMAIN.md Algorithm 4), as set-based SQL over the whole company at once: the
 * same rules as packages/lending `closeBusinessDay` (close-day.test.ts compares them credit by credit), written as
 * a handful of statements so that a million credits close in one pass each instead of one credit at a time.
 *
 * One transaction per closed day, under the company's portfolio lock: a failure leaves the business date and every
 * credit as they were before that day, and a payment application of the same company waits (or is waited for).
 */

export interface DayCloseFigures {
  businessDate: string;
  creditsProcessed: number;
  newVencidos: number;
  newlyDueInstallments: number;
  toTransit: number;
  toNotApplied: number;
  moratoryAccrued: string;
  moratoryIvaAccrued: string;
  feesAccrued: string;
  durationMs: number;
}

/**
 * The installment `i` is held: its deduction is en tránsito (the employer holds that money), so it neither ages nor
 * accrues nor counts as overdue. A probe of the partial index of the deductions en tránsito, keyed by credit and
 * period, once per row: OFFSET keeps PostgreSQL from turning it into a join, which it would plan from statistics taken
 * before the close moved the day's deductions (an estimate of one row en tránsito where there are 600,000 on a payday:
 * each installment then scanned them all, and a close ran for hours). Each probe is one lookup whatever the estimate.
 */
const held = (companyId: string): SQL =>
  sql`exists (select 1 from expected_deductions d where d.company_id = ${companyId} and d.state = 'en tránsito' and d.credit_id = i.credit_id and d.period = i.number offset 0)`;

/** Restricts a statement to some credits (one uuid[] parameter, read through the column's index); without it, every credit of the company. */
const onlyCredits = (column: string, only: readonly string[] | undefined): SQL => (only ? sql`and ${sql.raw(column)} = any(${`{${only.join(',')}}`}::uuid[])` : sql``);

/**
 * Which credits an aging looks at: every credit of the company, some by id (a payment file's), or those a close of
 * `day` can change.
 */
type AgingScope = { kind: 'all' } | { kind: 'ids'; ids: readonly string[] } | { kind: 'close' };

/**
 * The credits a close of day D ages in full, every credit having been aged at D − 1 (by the previous close, by a
 * payment's or a revert's refresh, by agePortfolio for data that arrives with a history): those that owe something
 * late at D − 1 or were let go by this close (owedLateAtEve: late charges accrue, days past due grow), and those with
 * an installment falling due on D that is not held (no deduction of it went en tránsito: it is overdue from today).
 * Kept in the close's own table (dropped at its commit). Any other credit with an installment falling due on D — on a
 * payday, most of the portfolio — has it held by the employer: its days past due, bucket, status and balances stay as
 * they were and only its next discount date moves (moveNextDiscountDates). Every other credit owes nothing due by D,
 * and the full computation would give what it already holds.
 */
const AGED_IN_FULL = sql.raw('pg_temp.close_aged_in_full');

async function creditsToAge(tx: Tx, companyId: string, day: string): Promise<void> {
  await tx.execute(sql`create temporary table if not exists ${AGED_IN_FULL} (credit_id uuid primary key) on commit drop`);
  await tx.execute(sql`truncate ${AGED_IN_FULL}`);
  // The rows falling due on D are still pendiente here (the close marks them after): their partial index finds them.
  await tx.execute(sql`
    insert into ${AGED_IN_FULL} (credit_id)
    select c.id from credits c where c.company_id = ${companyId} and ${owedLateAtEve('c')}
    union
    select i.credit_id from installments i
    where i.company_id = ${companyId} and i.status = 'pendiente' and i.due_date = ${day}::date and i.outstanding > 0 and not ${held(companyId)}`);
  await tx.execute(sql`analyze ${AGED_IN_FULL}`);
}

/**
 * The next discount date of the credits whose installment fell due on D held (not aged in full): the first owed one
 * after D. Nothing else of theirs changes, and the column is in no index, so each is an update in place.
 */
async function moveNextDiscountDates(tx: Tx, companyId: string, day: string): Promise<void> {
  await tx.execute(sql`
    update credits c set next_discount_date = (
      select min(i.due_date) from installments i where i.company_id = ${companyId} and i.credit_id = c.id and i.due_date > ${day}::date and i.outstanding > 0)
    where c.company_id = ${companyId} and c.next_discount_date <= ${day}::date
      and not exists (select 1 from ${AGED_IN_FULL} f where f.credit_id = c.id)`);
}

/**
 * The credits that can owe an installment due before D and not held: those with an overdue balance at D − 1 (what was
 * due by then, owed and not held), those whose held installment this close let go (`unheld`) and any never aged. Late
 * charges of D look only at them, not at the credits whose installment falls due on D itself (on a payday, most of the
 * portfolio).
 */
const owedLateAtEve = (alias: string): SQL => {
  const c = sql.raw(alias);
  return sql`(${c}.overdue_balance > 0 or ${c}.days_past_due > 0 or (${c}.next_discount_date is null and ${c}.status <> 'liquidado')
    or ${c}.id in (select credit_id from ${UNHELD}))`;
};

/** The close's own table (dropped at its commit) of the credits whose deduction it moved to no aplicado. */
const UNHELD = sql.raw('pg_temp.close_unheld');

function creditsIn(scope: AgingScope, column: string): SQL {
  if (scope.kind === 'ids') return onlyCredits(column, scope.ids);
  if (scope.kind === 'all') return sql``;
  return sql`and ${sql.raw(column)} in (select credit_id from ${AGED_IN_FULL})`;
}

/**
 * Expected deductions past their discount date: en tránsito, and no aplicado once past the agreement's lag. The
 * credits of those it moves to no aplicado are kept in the close's `unheld` table: the installment each held ages and
 * accrues from this day on.
 */
async function moveDeductions(tx: Tx, companyId: string, day: string): Promise<{ toTransit: number; toNotApplied: number }> {
  // One update over the open deductions due by D (their partial index), each reaching its agreement's lag through its
  // credit: no second pass over the table to find the rows again.
  const next = sql`case when ${day}::date - e.discount_date > a.remittance_lag_days then 'no aplicado' else 'en tránsito' end`;
  await tx.execute(sql`create temporary table if not exists ${UNHELD} (credit_id uuid primary key) on commit drop`);
  await tx.execute(sql`truncate ${UNHELD}`);
  const [counts] = rowsOf<{ to_transit: number; to_not_applied: number }>(
    await tx.execute(sql`
      with moved as (
        update expected_deductions e set state = ${next}
        from credits c join agreements a on a.id = c.agreement_id
        where e.company_id = ${companyId} and e.state in ('esperado', 'en tránsito') and e.discount_date <= ${day}::date
          and c.id = e.credit_id and c.company_id = ${companyId} and e.state <> ${next}
        returning e.credit_id, e.state
      ), unheld as (
        insert into ${UNHELD} (credit_id) select distinct credit_id from moved where state = 'no aplicado'
      )
      select count(*) filter (where state = 'en tránsito')::int as to_transit,
             count(*) filter (where state = 'no aplicado')::int as to_not_applied
      from moved`),
  );
  return { toTransit: counts?.to_transit ?? 0, toNotApplied: counts?.to_not_applied ?? 0 };
}

/**
 * Late charges of day D (packages/lending accrueLateCharges from D − 1 to D): one day of moratory interest on the
 * overdue principal of every installment owed and due before D, at the product's annual moratory rate, actual/360,
 * rounded half up, plus its IVA; and the late fee, once per installment, plus its IVA. An installment whose
 * deduction is en tránsito accrues nothing (the employer holds the money). numeric's round() is half away from zero,
 * which is half up for these non-negative amounts; the quotient by 36,000 is exact to far more places than the
 * centavo needs (its expansion repeats a single digit, never 9), so no boundary case rounds differently.
 */
async function accrueLateCharges(tx: Tx, companyId: string, day: string): Promise<{ moratory: string; moratoryIva: string; fees: string }> {
  const [sums] = rowsOf<{ moratory: string; moratory_iva: string; fees: string }>(
    await tx.execute(sql`
      with charge as (
        select i.row_id, c.iva_rate_pct,
               case when p.moratory_rate_pct > 0 and i.principal > i.paid_principal
                    then round((i.principal - i.paid_principal) * p.moratory_rate_pct / 36000, 2) else 0 end as moratory,
               case when p.late_fee > 0 and i.fees = 0 then p.late_fee else 0 end as fee
        from credits c
        join agreement_products p on p.id = c.product_id
        -- Each late credit's installments through its key (offset 0 keeps the lookup per credit): a few hundred
        -- thousand rows, where a join the planner is free to choose reads all 24 million to find them.
        cross join lateral (
          select i.*, i.ctid as row_id from installments i
          where i.credit_id = c.id and i.company_id = ${companyId} and i.outstanding > 0 and i.due_date < ${day}::date and not ${held(companyId)}
          offset 0
        ) i
        where c.company_id = ${companyId} and ${owedLateAtEve('c')}
      ), charged as (
        update installments i set
          moratory_interest = i.moratory_interest + ch.moratory,
          moratory_iva = i.moratory_iva + round(ch.moratory * ch.iva_rate_pct / 100, 2),
          fees = i.fees + ch.fee,
          fees_iva = i.fees_iva + round(ch.fee * ch.iva_rate_pct / 100, 2)
        from charge ch
        -- Each row where the charge read it (its ctid; the portfolio lock keeps any other writer out meanwhile), not
        -- found again through the primary key.
        where i.ctid = ch.row_id and (ch.moratory > 0 or ch.fee > 0)
        returning ch.moratory, round(ch.moratory * ch.iva_rate_pct / 100, 2) as moratory_iva, ch.fee
      )
      select coalesce(sum(moratory), 0)::text as moratory, coalesce(sum(moratory_iva), 0)::text as moratory_iva,
             coalesce(sum(fee), 0)::text as fees
      from charged`),
  );
  return { moratory: sums?.moratory ?? '0', moratoryIva: sums?.moratory_iva ?? '0', fees: sums?.fees ?? '0' };
}

/**
 * Installment statuses at D: pagada when nothing is owed, vencida once due (D included), pendiente before. A close
 * looks only at the rows still pendiente and due by D (the partial index on them): every other change of status comes
 * from a payment or a revert, whose refresh marks its credits' rows (refreshCredits), and late charges accrue only on
 * rows already due and owed. Without a close's narrowing the condition's alternatives read every installment.
 */
async function markInstallments(tx: Tx, companyId: string, day: string, scope: AgingScope): Promise<number> {
  const candidates =
    scope.kind === 'close'
      ? sql`i.status = 'pendiente' and i.due_date <= ${day}::date`
      : sql`((i.status = 'pendiente' and i.due_date <= ${day}::date) or (i.outstanding = 0 and i.status <> 'pagada') or (i.outstanding > 0 and i.status = 'pagada'))
          ${scope.kind === 'ids' ? onlyCredits('i.credit_id', scope.ids) : sql``}`;
  const [row] = rowsOf<{ newly_due: number }>(
    await tx.execute(sql`
      with marked as (
        update installments i set status = case when i.outstanding = 0 then 'pagada' when i.due_date <= ${day}::date then 'vencida' else 'pendiente' end
        where i.company_id = ${companyId} and ${candidates}
          and i.status <> case when i.outstanding = 0 then 'pagada' when i.due_date <= ${day}::date then 'vencida' else 'pendiente' end
        returning i.due_date, i.outstanding
      )
      select count(*) filter (where due_date = ${day}::date and outstanding > 0)::int as newly_due from marked`),
  );
  return row?.newly_due ?? 0;
}

/**
 * Days past due, bucket and status of every credit of the company at D, with its balances. Days past due count from
 * the oldest installment still owed and due before D whose deduction is not en tránsito; 90 or more is vencido;
 * nothing owed is liquidado (and owing again after a reverted payment returns to vigente or vencido). The overdue
 * balance is what is owed of the installments due by D whose deduction is not en tránsito either: money the employer
 * holds is neither late nor overdue (the home shows it apart, as money en tránsito), and a payday, when most of the
 * portfolio's installments fall due and their deductions go en tránsito together, leaves every on-time credit's
 * indexed columns as they were (only its next discount date moves: an update in place, no index entries).
 */
async function ageCredits(tx: Tx, companyId: string, day: string, scope: AgingScope): Promise<{ newVencidos: number }> {
  const [row] = rowsOf<{ new_vencidos: number }>(
    await tx.execute(sql`
      with rows as (
        -- The credits' owed installments, each due by D probed once for a deduction en tránsito (those after D are
        -- never held: their discount date has not come).
        select i.credit_id, i.outstanding, i.due_date, case when i.due_date <= ${day}::date then not ${held(companyId)} else false end as unheld_due
        from installments i
        where i.company_id = ${companyId} and i.outstanding > 0 ${creditsIn(scope, 'i.credit_id')}
      ), owed as (
        -- The held ones neither count as overdue nor age.
        select credit_id,
               sum(outstanding) as balance,
               coalesce(sum(outstanding) filter (where unheld_due), 0) as overdue,
               min(due_date) filter (where due_date > ${day}::date) as next_date,
               min(due_date) filter (where unheld_due and due_date < ${day}::date) as oldest_late
        from rows
        group by credit_id
      ), aged as (
        select c.id, c.status as previous, coalesce(${day}::date - o.oldest_late, 0) as dpd, o.credit_id is not null as owes,
               coalesce(o.balance, 0) as balance, coalesce(o.overdue, 0) as overdue, o.next_date
        from credits c left join owed o on o.credit_id = c.id
        where c.company_id = ${companyId} ${creditsIn(scope, 'c.id')}
      ), next as (
        select id, previous, dpd, balance, overdue, next_date,
               case when not owes then 'liquidado' when dpd >= 90 then 'vencido' else 'vigente' end as status,
               case when dpd <= 0 then 'current' when dpd <= 30 then '1-30' when dpd <= 60 then '31-60' when dpd < 90 then '61-89' else '90+' end as bucket
        from aged
      ), changed as (
        update credits c set status = n.status, days_past_due = n.dpd, aging_bucket = n.bucket,
               outstanding_balance = n.balance, overdue_balance = n.overdue, next_discount_date = n.next_date
        from next n
        where c.company_id = ${companyId} and c.id = n.id
          and (c.status, c.days_past_due, c.aging_bucket, c.outstanding_balance, c.overdue_balance, c.next_discount_date)
              is distinct from (n.status, n.dpd, n.bucket, n.balance, n.overdue, n.next_date)
        returning n.previous, n.status
      )
      select count(*)::int as new_vencidos from changed where status = 'vencido' and previous <> 'vencido'`),
  );
  return { newVencidos: row?.new_vencidos ?? 0 };
}

/**
 * The portfolio's state at `day` without closing it: deductions past their date moved, installment statuses and each
 * credit's days past due, bucket, status and balances. For data that arrives with a history (the demo's seed, a
 * portfolio migrated in); no late charges accrue and the business date does not move.
 */
export async function agePortfolio(tx: Tx, companyId: string, day: string): Promise<void> {
  await moveDeductions(tx, companyId, day);
  await ageCreditsAt(tx, companyId, day);
}

/**
 * Every installment's status and every credit's days past due, bucket, status and balances at `day`, from the
 * installments and deductions as they stand (no deduction moves, nothing accrues): what a close takes as its starting
 * point for credits written outside the services, and the full computation a close's narrower one must agree with.
 */
export async function ageCreditsAt(tx: Tx, companyId: string, day: string): Promise<void> {
  await markInstallments(tx, companyId, day, { kind: 'all' });
  await ageCredits(tx, companyId, day, { kind: 'all' });
}

/**
 * The same state for some credits only (their ids), as the last close would have left
 * them at `day`: after a payment file is applied or reverted, its credits' installment statuses, days past due,
 * bucket, balances and status (liquidado when nothing is owed; back to vigente or vencido when a revert owes again).
 */
export async function refreshCredits(tx: Tx, companyId: string, day: string, credits: readonly string[]): Promise<void> {
  await markInstallments(tx, companyId, day, { kind: 'ids', ids: credits });
  await ageCredits(tx, companyId, day, { kind: 'ids', ids: credits });
}

export interface CloseDayOptions {
  runId?: string;
  closedBy?: string | null;
  /** A hook between the statements and the commit; tests use it to fail a close midway. */
  beforeCommit?: (tx: Tx) => Promise<void>;
  now?: () => Date;
}

/** Closes the company's current business date `day`, in one transaction. Refuses a day that is not the current one. */
export async function closeDay(db: Db, companyId: string, day: string, options: CloseDayOptions = {}): Promise<DayCloseFigures> {
  const now = options.now ?? (() => new Date());
  return asSystem(db, async (tx) => {
    const started = Date.now();
    await lockCompanyPortfolio(tx, companyId);
    const [current] = await tx.select().from(businessDates).where(eq(businessDates.companyId, companyId)).for('update');
    if (!current || current.businessDate !== day) {
      throw new HttpProblem(409, 'Día ya cerrado', current && day < current.businessDate
        ? `El día ${day} ya está cerrado: la fecha flujo es ${current.businessDate}.`
        : `Solo se puede cerrar la fecha flujo actual${current ? ` (${current.businessDate})` : ''}, no el ${day}.`);
    }
    // The aging's aggregates over hundreds of thousands of credits: in memory, not spilled to disk in 64 passes.
    await tx.execute(sql`set local work_mem = '256MB'`);
    const deductions = await moveDeductions(tx, companyId, day);
    await creditsToAge(tx, companyId, day);
    const charges = await accrueLateCharges(tx, companyId, day);
    const newlyDue = await markInstallments(tx, companyId, day, { kind: 'close' });
    const aging = await ageCredits(tx, companyId, day, { kind: 'close' });
    await moveNextDiscountDates(tx, companyId, day);
    // Every credit of the company stands at D after the close, aged or left as it was.
    const [counted] = rowsOf<{ total: number }>(await tx.execute(sql`select count(*)::int as total from credits where company_id = ${companyId}`));
    const next = addDays(day, 1);
    await tx.update(businessDates).set({ businessDate: next, updatedAt: now() }).where(eq(businessDates.companyId, companyId));
    await refreshPortfolioFigures(tx, companyId, next, now());
    const figures: DayCloseFigures = {
      businessDate: day,
      creditsProcessed: counted?.total ?? 0,
      newVencidos: aging.newVencidos,
      newlyDueInstallments: newlyDue,
      toTransit: deductions.toTransit,
      toNotApplied: deductions.toNotApplied,
      moratoryAccrued: charges.moratory,
      moratoryIvaAccrued: charges.moratoryIva,
      feesAccrued: charges.fees,
      durationMs: Date.now() - started,
    };
    await tx.insert(dayCloses).values({ ...figures, companyId, runId: options.runId ?? null, closedBy: options.closedBy ?? null, closedAt: now() });
    await tx.insert(auditEvents).values({
      occurredAt: now(),
      actorId: options.closedBy ?? null,
      action: 'day.close',
      entity: 'business_date',
      entityId: companyId,
      before: { businessDate: day },
      after: { ...figures, businessDate: next },
    });
    if (options.beforeCommit) await options.beforeCommit(tx);
    return figures;
  });
}

/**
 * Closes every day from the company's business date through `throughDate`, in order, one transaction each (missed
 * days replay); `onDay` reports progress after each committed day. A failure stops at the failed day, whose
 * transaction rolled back: the days before it stay closed.
 */
export async function closeDays(
  db: Db,
  companyId: string,
  throughDate: string,
  options: CloseDayOptions & { onDay?: (figures: DayCloseFigures, done: number) => Promise<void> } = {},
): Promise<DayCloseFigures[]> {
  const closed: DayCloseFigures[] = [];
  for (;;) {
    const [current] = await asSystem(db, (tx) => tx.select().from(businessDates).where(eq(businessDates.companyId, companyId)));
    if (!current || current.businessDate > throughDate) break;
    const figures = await closeDay(db, companyId, current.businessDate, options);
    closed.push(figures);
    if (options.onDay) await options.onDay(figures, closed.length);
  }
  return closed;
}

/** The run's row, read by the screen's progress bar. */
export async function markRun(db: Db, runId: string, values: Partial<typeof dayCloseRuns.$inferInsert>): Promise<void> {
  await asSystem(db, (tx) => tx.update(dayCloseRuns).set(values).where(eq(dayCloseRuns.id, runId)));
}
