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
 * The installment's deduction is not en tránsito (the employer holds that money): it ages and accrues. Read through a
 * join on the deduction's key, not an anti-join on the state: the planner's estimate of rows en tránsito comes from
 * statistics taken before the close moved them, and an anti-join planned for one row ran for minutes on 1,000,000
 * credits (bench/portfolio.bench.ts).
 */
const NOT_HELD = sql.raw(`d.state is distinct from 'en tránsito'`);

/** Restricts a statement to some credits (one uuid[] parameter, read through the column's index); without it, every credit of the company. */
const onlyCredits = (column: string, only: readonly string[] | undefined): SQL => (only ? sql`and ${sql.raw(column)} = any(${`{${only.join(',')}}`}::uuid[])` : sql``);

/**
 * Which credits an aging looks at: every credit of the company, some by id (a payment file's), or those a close of
 * `day` can change.
 */
type AgingScope = { kind: 'all' } | { kind: 'ids'; ids: readonly string[] } | { kind: 'close' };

/**
 * The credits a close of day D can change, every credit having been aged at D − 1 (by the previous close, by a
 * payment's or a revert's refresh, by agePortfolio for data that arrives with a history): those that owe something
 * due by D — overdue at D − 1 (late charges accrue on it, its deductions move, its days past due grow) or with their
 * next discount on D or before (it falls due) — and any never aged (no next date while not liquidado). For every other
 * credit nothing falls due, accrues or moves, and the full computation would give what it already holds; at
 * 1,000,000 credits the close then ages the few hundred thousand that owe instead of all of them.
 */
const changedByClose = (alias: string, day: string): SQL => {
  const c = sql.raw(alias);
  return sql`(${c}.overdue_balance > 0 or ${c}.days_past_due > 0 or ${c}.next_discount_date <= ${day}::date or (${c}.next_discount_date is null and ${c}.status <> 'liquidado'))`;
};

function creditsIn(scope: AgingScope, column: string, companyId: string, day: string): SQL {
  if (scope.kind === 'ids') return onlyCredits(column, scope.ids);
  if (scope.kind === 'all') return sql``;
  return sql`and ${sql.raw(column)} in (select k.id from credits k where k.company_id = ${companyId} and ${changedByClose('k', day)})`;
}

/** Expected deductions past their discount date: en tránsito, and no aplicado once past the agreement's lag. */
async function moveDeductions(tx: Tx, companyId: string, day: string): Promise<{ toTransit: number; toNotApplied: number }> {
  const [counts] = rowsOf<{ to_transit: number; to_not_applied: number }>(
    await tx.execute(sql`
      with target as (
        select e.credit_id, e.period,
               case when ${day}::date - e.discount_date > a.remittance_lag_days then 'no aplicado' else 'en tránsito' end as state
        from expected_deductions e
        join credits c on c.id = e.credit_id and c.company_id = ${companyId}
        join agreements a on a.id = c.agreement_id
        where e.company_id = ${companyId} and e.state in ('esperado', 'en tránsito') and e.discount_date <= ${day}::date
      ), moved as (
        update expected_deductions e set state = t.state
        from target t
        where e.company_id = ${companyId} and e.credit_id = t.credit_id and e.period = t.period and e.state <> t.state
        returning e.state
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
        select i.credit_id, i.number, c.iva_rate_pct,
               case when p.moratory_rate_pct > 0 and i.principal > i.paid_principal
                    then round((i.principal - i.paid_principal) * p.moratory_rate_pct / 36000, 2) else 0 end as moratory,
               case when p.late_fee > 0 and i.fees = 0 then p.late_fee else 0 end as fee
        from installments i
        join credits c on c.id = i.credit_id and c.company_id = ${companyId} and ${changedByClose('c', day)}
        join agreement_products p on p.id = c.product_id
        left join expected_deductions d on d.credit_id = i.credit_id and d.period = i.number and d.company_id = ${companyId}
        where i.company_id = ${companyId} and i.outstanding > 0 and i.due_date < ${day}::date and ${NOT_HELD}
      ), charged as (
        update installments i set
          moratory_interest = i.moratory_interest + ch.moratory,
          moratory_iva = i.moratory_iva + round(ch.moratory * ch.iva_rate_pct / 100, 2),
          fees = i.fees + ch.fee,
          fees_iva = i.fees_iva + round(ch.fee * ch.iva_rate_pct / 100, 2)
        from charge ch
        where i.company_id = ${companyId} and i.credit_id = ch.credit_id and i.number = ch.number and (ch.moratory > 0 or ch.fee > 0)
        returning ch.moratory, round(ch.moratory * ch.iva_rate_pct / 100, 2) as moratory_iva, ch.fee
      )
      select coalesce(sum(moratory), 0)::text as moratory, coalesce(sum(moratory_iva), 0)::text as moratory_iva,
             coalesce(sum(fee), 0)::text as fees
      from charged`),
  );
  return { moratory: sums?.moratory ?? '0', moratoryIva: sums?.moratory_iva ?? '0', fees: sums?.fees ?? '0' };
}

/** Installment statuses at D: pagada when nothing is owed, vencida once due (D included), pendiente before. */
async function markInstallments(tx: Tx, companyId: string, day: string, only?: readonly string[]): Promise<number> {
  const [row] = rowsOf<{ newly_due: number }>(
    await tx.execute(sql`
      with marked as (
        update installments i set status = case when i.outstanding = 0 then 'pagada' when i.due_date <= ${day}::date then 'vencida' else 'pendiente' end
        where i.company_id = ${companyId} ${onlyCredits('i.credit_id', only)}
          and ((i.status = 'pendiente' and i.due_date <= ${day}::date) or (i.outstanding = 0 and i.status <> 'pagada') or (i.outstanding > 0 and i.status = 'pagada'))
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
 * nothing owed is liquidado (and owing again after a reverted payment returns to vigente or vencido).
 */
async function ageCredits(tx: Tx, companyId: string, day: string, scope: AgingScope): Promise<{ newVencidos: number }> {
  const [row] = rowsOf<{ new_vencidos: number }>(
    await tx.execute(sql`
      with owed as (
        select i.credit_id,
               sum(i.outstanding) as balance,
               coalesce(sum(i.outstanding) filter (where i.due_date <= ${day}::date), 0) as overdue,
               min(i.due_date) filter (where i.due_date > ${day}::date) as next_date
        from installments i
        where i.company_id = ${companyId} and i.outstanding > 0 ${creditsIn(scope, 'i.credit_id', companyId, day)}
        group by i.credit_id
      ), late as (
        -- Only the installments owed and due before D meet their deductions: a few of each credit's rows, not all.
        select i.credit_id, min(i.due_date) as oldest_late
        from installments i
        left join expected_deductions d on d.credit_id = i.credit_id and d.period = i.number and d.company_id = ${companyId}
        where i.company_id = ${companyId} and i.outstanding > 0 and i.due_date < ${day}::date and ${NOT_HELD} ${creditsIn(scope, 'i.credit_id', companyId, day)}
        group by i.credit_id
      ), aged as (
        select c.id, c.status as previous, coalesce(${day}::date - l.oldest_late, 0) as dpd, o.credit_id is not null as owes,
               coalesce(o.balance, 0) as balance, coalesce(o.overdue, 0) as overdue, o.next_date
        from credits c left join owed o on o.credit_id = c.id left join late l on l.credit_id = c.id
        where c.company_id = ${companyId} ${scope.kind === 'close' ? sql`and ${changedByClose('c', day)}` : creditsIn(scope, 'c.id', companyId, day)}
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
  await markInstallments(tx, companyId, day);
  await ageCreditsAt(tx, companyId, day);
}

/**
 * Every credit of the company's days past due, bucket, status and balances at `day`, from its installments and
 * deductions as they stand (nothing else moves): what a close takes as its starting point for credits written
 * outside the services, and the full computation a close's narrower one must agree with.
 */
export async function ageCreditsAt(tx: Tx, companyId: string, day: string): Promise<void> {
  await ageCredits(tx, companyId, day, { kind: 'all' });
}

/**
 * The same state for some credits only (their ids), as the last close would have left
 * them at `day`: after a payment file is applied or reverted, its credits' installment statuses, days past due,
 * bucket, balances and status (liquidado when nothing is owed; back to vigente or vencido when a revert owes again).
 */
export async function refreshCredits(tx: Tx, companyId: string, day: string, credits: readonly string[]): Promise<void> {
  await markInstallments(tx, companyId, day, credits);
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
    const deductions = await moveDeductions(tx, companyId, day);
    const charges = await accrueLateCharges(tx, companyId, day);
    const newlyDue = await markInstallments(tx, companyId, day);
    const aging = await ageCredits(tx, companyId, day, { kind: 'close' });
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
