import { sql, type SQL } from 'drizzle-orm';
import { addDays, formatCents } from '@portal/lending';
import type { Tx } from '../../db/client';
import { anyOf } from '../../db/any-of';
import { unnestColumns, type UnnestColumn } from '../../db/array-param';
import { rowsOf } from '../../db/rows';
import { lateChargesSql } from './late-charges';
import { inTransitBy, openBy } from './open-deductions';
import { agingBucketSql, creditStatusSql } from '../shared/aging-sql';

/**
 * Aging of the portfolio: the day close's statements (cierre de día, docs/domain.md, "Day close and aging"; DOMAIN.md
 * Algorithm 4) and the refresh of some credits after a payment file or a revert, as set-based SQL over the whole
 * company at once: the same rules as packages/lending `closeBusinessDay` (business-date/close-day.test.ts compares them credit by credit), written as
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
 * runs late charges nor counts as overdue. A probe of the deductions' primary key (credit and period), once per row:
 * OFFSET keeps PostgreSQL from turning it into a join, which it would plan from statistics taken before the close moved
 * the day's deductions (an estimate of one row en tránsito where there are 600,000 on a payday: each installment then
 * scanned them all, and a close ran for hours). Each probe is one lookup whatever the estimate.
 */
const held = (companyId: string): SQL =>
  sql`exists (select 1 from expected_deductions d where d.credit_id = i.credit_id and d.period = i.number and d.company_id = ${companyId} and d.state = 'en tránsito' offset 0)`;

/**
 * The credits' aging written from the statement's `next` (id, status, dpd, bucket, balance, overdue, next_date), each
 * credit by its key; a credit already so is left unwritten. Every aging statement ends in it.
 */
const writeAging = (companyId: string): SQL => sql`
  update credits c set status = n.status, days_past_due = n.dpd, aging_bucket = n.bucket,
         outstanding_balance = n.balance, overdue_balance = n.overdue, next_discount_date = n.next_date
  from next n
  where c.company_id = ${companyId} and c.id = n.id
    and (c.status, c.days_past_due, c.aging_bucket, c.outstanding_balance, c.overdue_balance, c.next_discount_date)
        is distinct from (n.status, n.dpd, n.bucket, n.balance, n.overdue, n.next_date)`;

/**
 * What a statement looks at: every credit of the company (data that arrives with a history), some by id (a payment
 * file's, applied or reverted), or what a close of its day can change.
 */
type Scope = { kind: 'all' } | { kind: 'ids'; ids: readonly string[] } | { kind: 'close' };

/** The close's own tables, dropped at its commit. */
const UNHELD = sql.raw('pg_temp.close_unheld');
const HELD_TODAY = sql.raw('pg_temp.close_held_today');
const FALLING = sql.raw('pg_temp.close_falling');
const AGED_IN_FULL = sql.raw('pg_temp.close_aged_in_full');

async function closeTable(tx: Tx, table: SQL, columns: string): Promise<void> {
  await tx.execute(sql`create temporary table if not exists ${table} (${sql.raw(columns)}) on commit drop`);
  await tx.execute(sql`truncate ${table}`);
}

/**
 * Late charges stop on the rows whose deduction went en tránsito while they ran (one written with an earlier date, or
 * put back by a revert): what ran through `through` is written into the row and it no longer runs. Over `inTransit`,
 * the deductions en tránsito of the scope (credit and period).
 */
function stopLateCharges(companyId: string, through: string, inTransit: SQL): SQL {
  const late = lateChargesSql(through);
  return sql`
    update installments i set moratory_interest = i.moratory_interest + ${late.moratory}, moratory_iva = i.moratory_iva + ${late.moratoryIva}, accrues_from = null
    from (${inTransit}) h, credits c
    where i.company_id = ${companyId} and i.credit_id = h.credit_id and i.number = h.period and i.accrues_from is not null and c.id = i.credit_id`;
}

/** The state a deduction `e` of an agreement `a` past its discount date moves to at a close of `day`. */
const movedState = (day: string): SQL =>
  sql`case when ${day}::date - e.discount_date > a.remittance_lag_days then 'no aplicado' else 'en tránsito' end`;
/** What a move of deductions (`moved`) counts. */
const MOVED_COUNTS = sql`select count(*) filter (where state = 'en tránsito')::int as to_transit, count(*) filter (where state = 'no aplicado')::int as to_not_applied from moved`;
/**
 * moveDeductions of some credits (a payment file's batch, a revert's), in one statement: their open deductions dated
 * by D read once, each with the state the move gives it, and both writes from that read — the move, and late charges
 * stopped on the rows en tránsito after it (each is one of this read's: the move opens none). The deductions are found
 * first (their keys and the open index) and each one found looks its credit up by key (OFFSET keeps it a lookup):
 * joined, the planner hashed every credit of the company, or, planning for any array, read every deduction of each
 * credit. The write finds each row by its ctid: every writer of deductions holds the company's portfolio lock (the
 * door), so no row moves between this statement's read and its write.
 */
function moveDeductionsOf(companyId: string, day: string, ids: readonly string[]): SQL {
  const next = movedState(day);
  const due = openBy('e', day);
  return sql`
    with due as materialized (
      select e.ctid as row_id, e.credit_id, e.period, e.state, ${next} as next
      from expected_deductions e
      cross join lateral (
        select a.remittance_lag_days from credits c join agreements a on a.id = c.agreement_id
        where c.id = e.credit_id and c.company_id = ${companyId} offset 0) a
      where e.company_id = ${companyId} and ${due} ${creditsIn({ kind: 'ids', ids }, 'e.credit_id')}
    ), moved as (
      update expected_deductions e set state = d.next from due d
      where e.ctid = any(array(select row_id from due where state <> next)) and e.ctid = d.row_id
      returning e.state
    ), stopped as (${stopLateCharges(companyId, day, sql`select credit_id, period from due where next = 'en tránsito'`)})
    ${MOVED_COUNTS}`;
}

/**
 * Expected deductions past their discount date: en tránsito, and no aplicado once past the agreement's lag (lag 0: the
 * discount date only). A close of D looks at the open ones dated by D (esperado or en tránsito: one range of their
 * index, the settled past left out) and moves those due (on any day but a payday a handful, and whatever was written
 * with an earlier date) and those whose lag ended; the esperado to en tránsito move is made in place (the state is in
 * no index). The credits whose deduction a close lets go are kept (`UNHELD`): their installment is late from today;
 * the deductions it moves en tránsito too (`HELD_TODAY`). An installment whose deduction goes en tránsito is held: its
 * late charges, if they ran, stop (the day before a close).
 */
async function moveDeductions(tx: Tx, companyId: string, day: string, scope: Scope): Promise<{ toTransit: number; toNotApplied: number }> {
  const next = movedState(day);
  const due = openBy('e', day);
  const move = (which: SQL) =>
    sql`update expected_deductions e set state = ${next}
        from credits c join agreements a on a.id = c.agreement_id
        where e.company_id = ${companyId} and c.id = e.credit_id and c.company_id = ${companyId} and ${which} and e.state <> ${next}
        returning e.credit_id, e.period, e.discount_date, e.state`;
  const counted = MOVED_COUNTS;
  let result: unknown;
  if (scope.kind === 'close') {
    await closeTable(tx, UNHELD, 'credit_id uuid primary key');
    await closeTable(tx, HELD_TODAY, 'credit_id uuid, period int');
    // Only an esperado deduction dated before D can hold a row whose charges ran: one falling due on D never ran.
    const newlyHeld = sql`select credit_id, period from moved where state = 'en tránsito' and discount_date < ${day}::date`;
    result = await tx.execute(sql`
      with moved as (${move(due)}),
           unheld as (insert into ${UNHELD} (credit_id) select distinct credit_id from moved where state = 'no aplicado'),
           held_today as (insert into ${HELD_TODAY} (credit_id, period) select credit_id, period from moved where state = 'en tránsito'),
           stopped as (${stopLateCharges(companyId, addDays(day, -1), newlyHeld)})
      ${counted}`);
  } else if (scope.kind === 'ids') {
    result = await tx.execute(moveDeductionsOf(companyId, day, scope.ids));
  } else {
    result = await tx.execute(sql`with moved as (${move(sql`${due} ${creditsIn(scope, 'e.credit_id')}`)}) ${counted}`);
    await tx.execute(
      stopLateCharges(
        companyId,
        day,
        sql`select d.credit_id, d.period from expected_deductions d where d.company_id = ${companyId} and ${inTransitBy('d', day)} ${creditsIn(scope, 'd.credit_id')}`,
      ),
    );
  }
  const [moved] = rowsOf<{ to_transit: number; to_not_applied: number }>(result);
  return { toTransit: moved?.to_transit ?? 0, toNotApplied: moved?.to_not_applied ?? 0 };
}

/**
 * The credits that can owe an installment due before D and not held: those with an overdue balance at D − 1 (what was
 * due by then, owed and not held), those whose held installment this close let go (`UNHELD`) and any never aged (no
 * next discount date while not liquidado: loaded in bulk).
 */
const owedLateAtEve = (alias: string): SQL => {
  const c = sql.raw(alias);
  return sql`(${c}.overdue_balance > 0 or ${c}.days_past_due > 0 or (${c}.next_discount_date is null and ${c}.status <> 'liquidado')
    or ${c}.id in (select credit_id from ${UNHELD}))`;
};

/**
 * The credits a close of day D ages in full, every credit having been aged at D − 1 (by the previous close, by a
 * payment's or a revert's refresh, by agePortfolio for data that arrives with a history): those late at D − 1 or let go
 * by this close (owedLateAtEve: late charges run, days past due grow), and those with an installment falling due on D
 * that is not held (no deduction of it went en tránsito: it is overdue from today). Any other credit with an
 * installment falling due on D — on a payday, most of the portfolio — has it held by the employer: its days past due,
 * bucket, status and balances stay as they were and only its next discount date moves (moveNextDiscountDates). Every
 * other credit owes nothing due by D, and the full computation would give what it already holds. Answers how many
 * installments fall due on D.
 */
async function creditsToAge(tx: Tx, companyId: string, day: string): Promise<number> {
  await closeTable(tx, FALLING, 'credit_id uuid, number int, held boolean');
  await closeTable(tx, AGED_IN_FULL, 'credit_id uuid primary key');
  // A row falling due on D is held when its deduction went en tránsito today (those of D, found by one hash join
  // instead of a probe per row); one held since before (its discount date earlier than its due date) is taken for
  // not held and aged in full: slower, never wrong.
  const [falling] = rowsOf<{ count: number }>(
    await tx.execute(sql`
      with falling as (
        insert into ${FALLING} (credit_id, number, held)
        select i.credit_id, i.number, t.credit_id is not null from installments i
        left join ${HELD_TODAY} t on t.credit_id = i.credit_id and t.period = i.number
        where i.company_id = ${companyId} and i.due_date = ${day}::date and i.outstanding > 0
        returning 1
      )
      select count(*)::int as count from falling`),
  );
  await tx.execute(sql`
    insert into ${AGED_IN_FULL} (credit_id)
    select c.id from credits c where c.company_id = ${companyId} and ${owedLateAtEve('c')}
    union
    select credit_id from ${FALLING} where not held`);
  await tx.execute(sql`analyze ${FALLING}`);
  await tx.execute(sql`analyze ${AGED_IN_FULL}`);
  return falling?.count ?? 0;
}

/**
 * A close of D starts late charges on the installments late and not held whose charges do not run yet
 * (`accrues_from`, see late-charges.ts): from D on, the first day they are late. It looks at the rows that
 * fell due on D − 1 and those whose deduction it let go; every other late row not held already runs, as every writer
 * leaves it (ageCredits starts them from the next day after a payment, a revert or data aged at a day). The late fee
 * is charged by the first close a row runs in (ageCredits).
 */
async function startLateCharges(tx: Tx, companyId: string, day: string): Promise<void> {
  const late = sql`i.outstanding > 0 and i.accrues_from is null and i.due_date < ${day}::date and not ${held(companyId)}`;
  await tx.execute(sql`
    update installments i set accrues_from = ${day}::date
    where ${atRows(sql`
      select i.ctid from installments i where i.company_id = ${companyId} and i.due_date = ${day}::date - 1 and ${late}
      union
      select i.ctid from ${UNHELD} u join installments i on i.credit_id = u.credit_id where i.company_id = ${companyId} and ${late}`)}`);
}

/**
 * The installment rows `i` a selection read, by their ctid (the portfolio lock keeps any other writer out meanwhile):
 * one fetch each, as a TID scan of the array. Joined to the selection instead (`i.ctid = r.row_id`), the planner takes
 * a third of a close's rows for fees to charge where one in twenty is, and hashes the whole schedule table: 16 s of a
 * payday's close read 24,000,000 rows to write 100,000.
 */
const atRows = (selection: SQL): SQL => sql`i.ctid = any(array(${selection}))`;

function creditsIn(scope: Scope, column: string): SQL {
  if (scope.kind === 'ids') return sql`and ${anyOf(sql.raw(column), scope.ids)}`;
  if (scope.kind === 'all') return sql``;
  return sql`and ${sql.raw(column)} in (select credit_id from ${AGED_IN_FULL})`;
}

interface Aging {
  newVencidos: number;
  /** Of the day `day` itself (a close's figures): one day of moratory interest and IVA of every running row, and the late fees first charged. */
  moratory: string;
  moratoryIva: string;
  fees: string;
}

/**
 * Days past due, bucket, status and balances of the credits in `scope` at closed day D. Days past due count from the
 * oldest installment still owed and due before D whose deduction is not en tránsito; 90 or more is vencido; nothing
 * owed is liquidado (and owing again after a reverted payment returns to vigente or vencido). What an installment owes
 * includes the late charges run through D; the overdue balance is what is owed of the installments due by D not held:
 * money the employer holds is neither late nor overdue (the home shows it apart, as money en tránsito), and a payday,
 * when most of the portfolio's installments fall due and their deductions go en tránsito together, leaves every
 * on-time credit as it was but for its next discount date. A row whose late charges run by D and whose late fee was
 * not charged yet is charged it here, once (the first close it runs in), with its IVA. Outside a close (a payment's or
 * a revert's credits, data aged at D) the late rows not held whose charges do not run yet start running from D + 1,
 * the next close, in the same pass (a close started its own before, from D).
 */
async function ageCredits(tx: Tx, companyId: string, day: string, scope: Scope): Promise<Aging> {
  const [row] = rowsOf<{ new_vencidos: number; moratory: string; moratory_iva: string; fees: string }>(
    await tx.execute(agingSql(companyId, day, scope)),
  );
  return {
    newVencidos: row?.new_vencidos ?? 0,
    moratory: row?.moratory ?? '0',
    moratoryIva: row?.moratory_iva ?? '0',
    fees: row?.fees ?? '0',
  };
}

/** ageCredits' statement. */
function agingSql(companyId: string, day: string, scope: Scope): SQL {
  const late = lateChargesSql(day);
  const lateFeeIva = sql`round(c.late_fee * c.iva_rate_pct / 100, 2)`;
  return sql`
      with rows as materialized (
        -- The credits' owed installments, each due by D probed once for a deduction en tránsito (those after D are
        -- never held: their discount date has not come).
        select i.ctid as row_id, i.credit_id, i.due_date,
               case when i.due_date <= ${day}::date then not ${held(companyId)} else false end as unheld_due,
               i.accrues_from is null as not_running,
               i.outstanding + ${late.moratory} + ${late.moratoryIva} as owed,
               case when i.accrues_from <= ${day}::date then ${late.dailyMoratory} else 0 end as day_moratory,
               case when i.accrues_from <= ${day}::date then ${late.dailyIva} else 0 end as day_moratory_iva,
               case when i.accrues_from <= ${day}::date and i.fees = 0 then c.late_fee else 0 end as fee,
               case when i.accrues_from <= ${day}::date and i.fees = 0 then ${lateFeeIva} else 0 end as fee_iva
        from credits c
        ${
          scope.kind === 'all'
            ? sql`join installments i on i.credit_id = c.id and i.company_id = ${companyId} and i.outstanding > 0`
            : // Each credit's rows through its key (offset 0 keeps the lookup per credit): a close's few hundred thousand
              // credits read their rows, not a scan of the whole schedule table the planner would rather choose.
              sql`cross join lateral (select i.*, i.ctid from installments i where i.credit_id = c.id and i.company_id = ${companyId} and i.outstanding > 0 offset 0) i`
        }
        where c.company_id = ${companyId} ${creditsIn(scope, 'c.id')}
      ), fees as (
        update installments i set fees = c.late_fee, fees_iva = i.fees_iva + ${lateFeeIva}
        from credits c where ${atRows(sql`select row_id from rows where fee > 0`)} and c.id = i.credit_id
      )${
        scope.kind === 'close'
          ? sql``
          : // Rows disjoint from the fees' (those run already): each row is written by one of the two at most.
            sql`, started as (
                  update installments i set accrues_from = ${addDays(day, 1)}::date
                  where ${atRows(sql`select row_id from rows where unheld_due and not_running`)}
                )`
      }, owed as (
        -- The held ones neither count as overdue nor age.
        select credit_id,
               sum(owed + fee + fee_iva) as balance,
               coalesce(sum(owed + fee + fee_iva) filter (where unheld_due), 0) as overdue,
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
               ${creditStatusSql('owes', 'dpd')} as status, ${agingBucketSql('dpd')} as bucket
        from aged
      ), changed as (
        ${writeAging(companyId)}
        returning n.previous, n.status
      )
      select (select count(*)::int from changed where status = 'vencido' and previous <> 'vencido') as new_vencidos,
             (select coalesce(sum(day_moratory), 0)::text from rows) as moratory,
             (select coalesce(sum(day_moratory_iva), 0)::text from rows) as moratory_iva,
             (select coalesce(sum(fee), 0)::text from rows) as fees`;
}

/**
 * The next discount date of the credits whose installment fell due on D held (not aged in full): the next row if it is
 * owed (one lookup by key), else the first owed one after D. Nothing else of theirs changes, and the column is in no
 * index, so each is an update in place.
 */
async function moveNextDiscountDates(tx: Tx, companyId: string, day: string): Promise<void> {
  await tx.execute(sql`
    update credits c set next_discount_date = coalesce(
      (select n.due_date from installments n where n.credit_id = f.credit_id and n.number = f.number + 1 and n.outstanding > 0),
      (select min(i.due_date) from installments i where i.company_id = ${companyId} and i.credit_id = f.credit_id and i.due_date > ${day}::date and i.outstanding > 0))
    from ${FALLING} f
    where c.id = f.credit_id and c.company_id = ${companyId} and not exists (select 1 from ${AGED_IN_FULL} a where a.credit_id = f.credit_id)`);
}

/**
 * The portfolio's state at `day` without closing it: deductions past their date moved, late charges started on the
 * late installments not held (they run from the next close), and each credit's days past due, bucket, status and
 * balances. For data that arrives with a history (the demo's seed, a portfolio migrated in); no late charges accrue and
 * the business date does not move. Answers what it moved, for a record of the close that left the data so.
 */
export async function agePortfolio(
  tx: Tx,
  companyId: string,
  day: string,
): Promise<Pick<DayCloseFigures, 'toTransit' | 'toNotApplied' | 'newVencidos' | 'moratoryAccrued' | 'moratoryIvaAccrued' | 'feesAccrued'>> {
  const deductions = await moveDeductions(tx, companyId, day, { kind: 'all' });
  const aging = await ageCredits(tx, companyId, day, { kind: 'all' });
  return {
    ...deductions,
    newVencidos: aging.newVencidos,
    moratoryAccrued: aging.moratory,
    moratoryIvaAccrued: aging.moratoryIva,
    feesAccrued: aging.fees,
  };
}

/**
 * Every credit's days past due, bucket, status and balances at `day`, from the installments and deductions as they
 * stand (no deduction moves), with late charges started on the late rows not held that had none running: what a
 * close takes as its starting point for credits written outside the services, and the full computation a close's
 * narrower one must agree with.
 */
export async function ageCreditsAt(tx: Tx, companyId: string, day: string): Promise<void> {
  await ageCredits(tx, companyId, day, { kind: 'all' });
}

/**
 * A credit's aging at closed day D, known without reading its schedule again: what a payment leaves. After a payment no
 * row of its credit runs late charges through D (the payment wrote what ran into the rows, and they run from D + 1:
 * chargedThrough), so ageCredits charges no late fee and counts no charge beyond what each row owes as written: the
 * balance is what the rows owe, the next discount date the first of them due after D. When nothing owed was due by D
 * (`due` empty: most of a payday's credits), ageCredits finds no row late, held or charged: days past due 0, the bucket
 * of 0 days, nothing overdue, vigente (liquidado when nothing is owed). Otherwise what is left to know is which of the
 * rows owed and due by D are held (their deduction en tránsito): the deductions tell it (lateAgingSql).
 */
export interface KnownAging {
  id: string;
  /** What the rows owe, every component (numeric(14,2) text). */
  balance: string;
  /** The first due date after the day of a row that owes (null: none). */
  nextDiscountDate: string | null;
  /** The rows owed and due by the day, by number: late unless held; a late one whose charges do not run starts them. */
  due: DueRow[];
}

/** A row owed and due by the aging's day, as its writer left it. */
export interface DueRow {
  number: number;
  dueDate: string;
  /** What it owes (numeric(14,2) text). */
  owed: string;
  /** Whether its late charges run (`accrues_from` set, after the day: see KnownAging). */
  running: boolean;
}

/** One schedule row as a writer holds it: its number, due date, what it still owes and whether its late charges run. */
export interface OwedRow {
  number: number;
  dueDate: string;
  /** Centavos: every component charged less paid, as `installments.outstanding` computes it (outstandingCents). */
  owed: bigint;
  /** `accrues_from` is set. */
  running: boolean;
}

/**
 * The credit's aging at `day` (KnownAging) from its whole schedule as a payment just wrote it: no row of it runs late
 * charges through `day`. The same rule as ageCredits for such a credit (payment-files/known-aging.test.ts holds the
 * two equal).
 */
export function knownAging(id: string, rows: readonly OwedRow[], day: string): KnownAging {
  let balance = 0n;
  let nextDiscountDate: string | null = null;
  const due: DueRow[] = [];
  for (const row of rows) {
    if (row.owed <= 0n) continue;
    balance += row.owed;
    if (row.dueDate <= day) due.push({ number: row.number, dueDate: row.dueDate, owed: formatCents(row.owed), running: row.running });
    else if (nextDiscountDate === null || row.dueDate < nextDiscountDate) nextDiscountDate = row.dueDate;
  }
  return { id, balance: formatCents(balance), nextDiscountDate, due };
}

/** A KnownAging's credit as both writers read it: `x(id, balance, next_date)`. */
const KNOWN_COLUMNS: readonly UnnestColumn<KnownAging>[] = [
  ['id', 'uuid', (credit) => credit.id],
  ['balance', 'numeric', (credit) => credit.balance],
  ['next_date', 'date', (credit) => credit.nextDiscountDate],
];

/** Writes the credits' KnownAging with nothing due, each credit by its key, like ageCredits' own update (an unchanged credit is left). */
function knownAgingSql(companyId: string, known: readonly KnownAging[]): SQL {
  return sql`
    with next as (
      select x.id, ${creditStatusSql('x.balance > 0', '0')} as status, 0 as dpd, ${agingBucketSql('0')} as bucket,
             x.balance, 0::numeric as overdue, x.next_date
      from ${unnestColumns(known, KNOWN_COLUMNS)}
    )
    ${writeAging(companyId)}`;
}

/**
 * Writes the KnownAging of credits owing rows due by `day`, as ageCredits would from their whole schedules: only those
 * rows are looked at, each probed once for a deduction en tránsito (held) as ageCredits probes it; the late ones (not
 * held) count as overdue, the oldest due before `day` gives the days past due, and those whose charges do not run start
 * them from the next day (ageCredits' `started`). The rest of each schedule owes what the writer told (`balance`,
 * `nextDiscountDate`): reading it again was most of what aging a late credit cost the database.
 */
function lateAgingSql(companyId: string, day: string, late: readonly KnownAging[]): SQL {
  const rows = late.flatMap((credit) => credit.due.map((row) => ({ credit_id: credit.id, ...row })));
  return sql`
    with due as materialized (
      select i.credit_id, i.number, i.due_date, i.owed, i.running, not ${held(companyId)} as unheld
      from (select * from ${unnestColumns(rows, [
        ['credit_id', 'uuid', (row) => row.credit_id],
        ['number', 'int', (row) => row.number],
        ['due_date', 'date', (row) => row.dueDate],
        ['owed', 'numeric', (row) => row.owed],
        ['running', 'boolean', (row) => String(row.running)],
      ])}) i
    ), started as (
      update installments j set accrues_from = ${addDays(day, 1)}::date
      from due d
      where d.unheld and not d.running and j.company_id = ${companyId} and j.credit_id = d.credit_id and j.number = d.number
    ), owed as (
      select credit_id, coalesce(sum(owed) filter (where unheld), 0) as overdue,
             min(due_date) filter (where unheld and due_date < ${day}::date) as oldest_late
      from due
      group by credit_id
    ), aged as (
      select x.id, coalesce(${day}::date - o.oldest_late, 0) as dpd, x.balance, o.overdue, x.next_date
      from ${unnestColumns(late, KNOWN_COLUMNS)}
      join owed o on o.credit_id = x.id
    ), next as (
      select id, dpd, balance, overdue, next_date, ${creditStatusSql('true', 'dpd')} as status, ${agingBucketSql('dpd')} as bucket
      from aged
    )
    ${writeAging(companyId)}`;
}

/**
 * The same state for some credits only (their ids), as the last close would have left them at `day`: after a payment
 * file is applied or reverted, its credits' deductions (a revert puts back states the days since would have moved),
 * late charges (an installment owed again, or let go, runs from the next close), days past due, bucket, balances and
 * status (liquidado when nothing is owed; back to vigente or vencido when a revert owes again). The credits of `known`
 * (a subset of `credits`) are written as the caller computed them (knownAging) instead of aged again from their rows:
 * their deductions are still moved first, and the rows they owe due by `day` are probed for a hold after the move.
 */
export async function refreshCredits(
  tx: Tx,
  companyId: string,
  day: string,
  credits: readonly string[],
  known: readonly KnownAging[] = [],
): Promise<void> {
  for (const statement of refreshStatements(companyId, day, credits, known)) await tx.execute(statement);
}

/**
 * refreshCredits' statements, in the order they run in `tx`: none needs the answer of another, so a caller on a
 * pipelined connection can send them together (a payment file's batch: db/pipeline.ts).
 */
export function refreshStatements(companyId: string, day: string, credits: readonly string[], known: readonly KnownAging[] = []): SQL[] {
  if (credits.length === 0) return [];
  const statements: SQL[] = [moveDeductionsOf(companyId, day, credits)];
  const knownIds = new Set(known.map((credit) => credit.id));
  const aged = knownIds.size === 0 ? credits : credits.filter((id) => !knownIds.has(id));
  if (aged.length > 0) statements.push(agingSql(companyId, day, { kind: 'ids', ids: aged }));
  const onTime = known.filter((credit) => credit.due.length === 0);
  const late = known.filter((credit) => credit.due.length > 0);
  if (onTime.length > 0) statements.push(knownAgingSql(companyId, onTime));
  if (late.length > 0) statements.push(lateAgingSql(companyId, day, late));
  return statements;
}

/**
 * The statements a close of `day` runs over the company's portfolio (the caller holds the portfolio lock: closeDay,
 * through changePortfolio): deductions moved, late charges started, the credits that can change aged in full and the
 * rest's next discount date moved. Answers the close's figures of the portfolio.
 */
export async function closePortfolioDay(
  tx: Tx,
  companyId: string,
  day: string,
): Promise<Omit<DayCloseFigures, 'businessDate' | 'durationMs'>> {
  const close: Scope = { kind: 'close' };
  const deductions = await moveDeductions(tx, companyId, day, close);
  const newlyDue = await creditsToAge(tx, companyId, day);
  await startLateCharges(tx, companyId, day);
  const aging = await ageCredits(tx, companyId, day, close);
  await moveNextDiscountDates(tx, companyId, day);
  // Every credit of the company stands at D after the close, aged or left as it was.
  const [counted] = rowsOf<{ total: number }>(
    await tx.execute(sql`select count(*)::int as total from credits where company_id = ${companyId}`),
  );
  return {
    creditsProcessed: counted?.total ?? 0,
    newVencidos: aging.newVencidos,
    newlyDueInstallments: newlyDue,
    toTransit: deductions.toTransit,
    toNotApplied: deductions.toNotApplied,
    moratoryAccrued: aging.moratory,
    moratoryIvaAccrued: aging.moratoryIva,
    feesAccrued: aging.fees,
  };
}
