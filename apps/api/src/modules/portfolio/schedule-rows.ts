import { sql } from 'drizzle-orm';
import { formatCents, parseCents, type Component, type InstallmentState, type ScheduleRow } from '@portal/lending';
import type { INSTALLMENT_STATUSES } from '@portal/contract';
import type { Tx } from '../../db/client';
import { installments } from '../../db/schema/credits';
import { jsonParam, unnestRows, type PlainType } from '../../db/array-param';
import { lateChargesSql } from './late-charges';

/**
 * The schedule row and its codec: one shape in the API, the table's (Drizzle's InstallmentRow); StoredRow is the same
 * columns as SQL names them, for the statements that write many rows from one JSON parameter and for a payment's record
 * of what it changed; packages/lending reads a row as its InstallmentState (toInstallmentState).
 */

export type InstallmentRow = typeof installments.$inferSelect;

/**
 * A row of a schedule packages/lending built, as the table's columns hold it (what a disbursement writes, before
 * anything is paid or charged late).
 */
export const builtRowColumns = (row: ScheduleRow) => ({
  number: row.number,
  dueDate: row.dueDate,
  principal: row.principal,
  interest: row.interest,
  iva: row.iva,
  payment: row.payment,
  balance: row.balance,
  days: row.days ?? null,
});

/**
 * A stored schedule row as packages/lending reads it (payoff, allocation). What a payoff or a prepayment waived is
 * not kept apart: the row's charge is lowered to what is still owed, so the row starts with nothing waived.
 */
export function toInstallmentState(i: InstallmentRow): InstallmentState {
  const state: InstallmentState = {
    number: i.number,
    dueDate: i.dueDate,
    principal: i.principal,
    interest: i.interest,
    iva: i.iva,
    fees: i.fees,
    feesIva: i.feesIva,
    moratoryInterest: i.moratoryInterest,
    moratoryIva: i.moratoryIva,
    paid: {
      principal: i.paidPrincipal,
      interest: i.paidInterest,
      iva: i.paidIva,
      fees: i.paidFees,
      feesIva: i.paidFeesIva,
      moratoryInterest: i.paidMoratoryInterest,
      moratoryIva: i.paidMoratoryIva,
    },
  };
  if (i.days !== null) state.days = i.days;
  if (i.accrualThrough !== null && i.accrualCentDays !== null) state.accrual = { through: i.accrualThrough, centDays: i.accrualCentDays };
  return state;
}

/**
 * An installment's status at the last closed day (the day before the business date): pagada when it owes nothing,
 * vencida once due by then, pendiente before. Derived, never stored: a payday would otherwise rewrite 600,000 rows.
 */
export function installmentStatus(row: { outstanding: string; dueDate: string }, closedDay: string): (typeof INSTALLMENT_STATUSES)[number] {
  if (parseCents(row.outstanding, 'outstanding') === 0n) return 'pagada';
  return row.dueDate <= closedDay ? 'vencida' : 'pendiente';
}

/** Text_with_underscores from camelCase: a column's SQL name from its Drizzle key. */
type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** The columns of a schedule row a payment can change, with the row's key. */
type StoredColumn =
  | 'creditId'
  | 'number'
  | 'principal'
  | 'interest'
  | 'iva'
  | 'moratoryInterest'
  | 'moratoryIva'
  | 'fees'
  | 'feesIva'
  | 'payment'
  | 'balance'
  | 'paidPrincipal'
  | 'paidInterest'
  | 'paidIva'
  | 'paidMoratoryInterest'
  | 'paidMoratoryIva'
  | 'paidFees'
  | 'paidFeesIva'
  | 'accruesFrom'
  | 'accrualThrough'
  | 'accrualCentDays';

/**
 * Those columns of an InstallmentRow as stored (snake_case, for json_populate_recordset): what a payment writes and
 * keeps in its `before` for a revert. The same row, not a fourth shape: its keys and types are the table's.
 */
export type StoredRow = { [K in StoredColumn as SnakeCase<K>]: InstallmentRow[K] };

const CHARGED: readonly [keyof StoredRow, Component][] = [
  ['principal', 'principal'],
  ['interest', 'interest'],
  ['iva', 'iva'],
  ['moratory_interest', 'moratoryInterest'],
  ['moratory_iva', 'moratoryIva'],
  ['fees', 'fees'],
  ['fees_iva', 'feesIva'],
];
const PAID: readonly [keyof StoredRow, Component][] = CHARGED.map(([column, component]) => [
  `paid_${column}` as keyof StoredRow,
  component,
]);

const cents = (value: string | undefined) => (value === undefined ? 0n : parseCents(value, 'importe'));
const ZERO = '0.00';

/** A row as stored, from its Drizzle shape. */
export function stored(row: InstallmentRow): StoredRow {
  return {
    credit_id: row.creditId,
    number: row.number,
    principal: row.principal,
    interest: row.interest,
    iva: row.iva,
    moratory_interest: row.moratoryInterest,
    moratory_iva: row.moratoryIva,
    fees: row.fees,
    fees_iva: row.feesIva,
    payment: row.payment,
    balance: row.balance,
    paid_principal: row.paidPrincipal,
    paid_interest: row.paidInterest,
    paid_iva: row.paidIva,
    paid_moratory_interest: row.paidMoratoryInterest,
    paid_moratory_iva: row.paidMoratoryIva,
    paid_fees: row.paidFees,
    paid_fees_iva: row.paidFeesIva,
    accrues_from: row.accruesFrom,
    accrual_through: row.accrualThrough,
    accrual_cent_days: row.accrualCentDays,
  };
}

/**
 * The schedule rows as stored after the allocation: what was waived (future interest at a payoff, rows a prepayment
 * no longer needs) is taken off the charge, so each row keeps charged = paid + still owed; payment and balance follow.
 */
export function storedAfter(before: readonly InstallmentRow[], after: readonly InstallmentState[]): StoredRow[] {
  const byNumber = new Map(after.map((state) => [state.number, state]));
  const principals: bigint[] = [];
  let total = 0n;
  const rows = before.map((row) => {
    const state = byNumber.get(row.number)!;
    const paid = state.paid;
    // Each column written by name, in stored()'s order: every row of every schedule paid goes through here.
    const next: StoredRow = {
      credit_id: row.creditId,
      number: row.number,
      principal: chargedAfter(state, 'principal'),
      interest: chargedAfter(state, 'interest'),
      iva: chargedAfter(state, 'iva'),
      moratory_interest: chargedAfter(state, 'moratoryInterest'),
      moratory_iva: chargedAfter(state, 'moratoryIva'),
      fees: chargedAfter(state, 'fees'),
      fees_iva: chargedAfter(state, 'feesIva'),
      payment: row.payment,
      balance: row.balance,
      paid_principal: paid?.principal ?? ZERO,
      paid_interest: paid?.interest ?? ZERO,
      paid_iva: paid?.iva ?? ZERO,
      paid_moratory_interest: paid?.moratoryInterest ?? ZERO,
      paid_moratory_iva: paid?.moratoryIva ?? ZERO,
      paid_fees: paid?.fees ?? ZERO,
      paid_fees_iva: paid?.feesIva ?? ZERO,
      accrues_from: row.accruesFrom,
      accrual_through: state.accrual?.through ?? null,
      accrual_cent_days: state.accrual?.centDays ?? null,
    };
    const principal = cents(next.principal);
    principals.push(principal);
    total += principal;
    if (next.principal !== row.principal || next.interest !== row.interest || next.iva !== row.iva) {
      next.payment = formatCents(principal + cents(next.interest) + cents(next.iva));
    }
    return next;
  });
  let balance = total;
  rows.forEach((row, index) => {
    balance -= principals[index]!;
    row.balance = formatCents(balance);
  });
  return rows;
}

/**
 * A component's charge after the allocation, as stored: what was waived taken off. packages/lending writes amounts as
 * formatCents does, the form numeric(14,2) reads back: an amount nothing waived is taken as it is (most of a schedule's,
 * a payment touches a row or two).
 */
function chargedAfter(state: InstallmentState, component: Component): string {
  const waived = state.waived?.[component];
  return waived === undefined ? (state[component] ?? ZERO) : formatCents(cents(state[component]) - cents(waived));
}

/** What a stored row still owes, in centavos: every component charged less paid, as `installments.outstanding` is computed. */
export function outstandingCents(row: StoredRow): bigint {
  let owed = 0n;
  for (const [column] of CHARGED) owed += cents(row[column] as string);
  for (const [column] of PAID) owed -= cents(row[column] as string);
  return owed;
}

const WRITTEN_COLUMNS: readonly (keyof StoredRow)[] = [
  ...CHARGED.map(([column]) => column),
  ...PAID.map(([column]) => column),
  'payment',
  'balance',
  'accrues_from',
  'accrual_through',
  'accrual_cent_days',
];
/** Amounts are compared as text: numeric(14,2) reads and formatCents writes the same canonical form ("1234.50"). */
export const changed = (a: StoredRow, b: StoredRow) => WRITTEN_COLUMNS.some((key) => a[key] !== b[key]);

/**
 * The same as `changed(stored(row), next)`, without building the stored row: an application compares every row of each
 * schedule it pays and writes a row or two of them (schedule-rows.test.ts holds the two equal).
 */
export const changedFrom = (row: InstallmentRow, next: StoredRow) =>
  row.principal !== next.principal ||
  row.interest !== next.interest ||
  row.iva !== next.iva ||
  row.moratoryInterest !== next.moratory_interest ||
  row.moratoryIva !== next.moratory_iva ||
  row.fees !== next.fees ||
  row.feesIva !== next.fees_iva ||
  row.paidPrincipal !== next.paid_principal ||
  row.paidInterest !== next.paid_interest ||
  row.paidIva !== next.paid_iva ||
  row.paidMoratoryInterest !== next.paid_moratory_interest ||
  row.paidMoratoryIva !== next.paid_moratory_iva ||
  row.paidFees !== next.paid_fees ||
  row.paidFeesIva !== next.paid_fees_iva ||
  row.payment !== next.payment ||
  row.balance !== next.balance ||
  row.accruesFrom !== next.accrues_from ||
  row.accrualThrough !== next.accrual_through ||
  row.accrualCentDays !== next.accrual_cent_days;

/** The stored rows' schedule and paid amounts, from `x` (a row of the batch): what a payment writes and a revert puts back. */
const SCHEDULE_AND_PAID = sql`
      principal = x.principal, interest = x.interest, iva = x.iva, payment = x.payment, balance = x.balance,
      paid_principal = x.paid_principal, paid_interest = x.paid_interest, paid_iva = x.paid_iva,
      paid_moratory_interest = x.paid_moratory_interest, paid_moratory_iva = x.paid_moratory_iva,
      paid_fees = x.paid_fees, paid_fees_iva = x.paid_fees_iva,
      accrual_through = x.accrual_through, accrual_cent_days = x.accrual_cent_days`;

/** The columns writeScheduleRows sets, each with its array's element type. */
const WRITTEN: readonly (readonly [Exclude<keyof StoredRow, 'credit_id' | 'number'>, PlainType])[] = [
  ['principal', 'numeric'],
  ['interest', 'numeric'],
  ['iva', 'numeric'],
  ['payment', 'numeric'],
  ['balance', 'numeric'],
  ['paid_principal', 'numeric'],
  ['paid_interest', 'numeric'],
  ['paid_iva', 'numeric'],
  ['paid_moratory_interest', 'numeric'],
  ['paid_moratory_iva', 'numeric'],
  ['paid_fees', 'numeric'],
  ['paid_fees_iva', 'numeric'],
  ['accrual_through', 'date'],
  ['accrual_cent_days', 'numeric'],
  ['moratory_interest', 'numeric'],
  ['moratory_iva', 'numeric'],
  ['fees', 'numeric'],
  ['fees_iva', 'numeric'],
  ['accrues_from', 'date'],
];

/**
 * Writes a payment's schedule rows: one statement for the batch. The late charges that ran until the payment are
 * written into the rows (their `accrues_from` moves to the next day: chargedThrough), since the principal they run on
 * changes with it; what a payoff waived of them (a row not yet due at the payment's value date) is taken off. The rows
 * go as a typed array per column (unnest), not as JSON objects: PostgreSQL matched each object's 21 keys and read
 * every value twice, as JSON and as its type.
 */
export async function writeScheduleRows(tx: Tx, companyId: string, rows: readonly StoredRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(scheduleRowsSql(companyId, rows));
}

/** writeScheduleRows' statement (one or more rows), for a caller that sends it itself (db/pipeline.ts). */
export const scheduleRowsSql = (companyId: string, rows: readonly StoredRow[]) => sql`
    update installments i set ${SCHEDULE_AND_PAID},
      moratory_interest = x.moratory_interest, moratory_iva = x.moratory_iva, fees = x.fees, fees_iva = x.fees_iva,
      accrues_from = x.accrues_from
    from ${unnestRows(rows, [['credit_id', 'uuid'], ['number', 'int'], ...WRITTEN])}
    where i.company_id = ${companyId} and i.credit_id = x.credit_id and i.number = x.number`;

/** The late charges of a row, which closes write while a payment stands; a revert puts back what the payment waived of them. */
const LATE_CHARGES: readonly Component[] = ['moratoryInterest', 'moratoryIva', 'fees', 'feesIva'];
type LateChargesWaived = Partial<Record<Component, string>>;

/** What a payment waived of each row's late charges, by installment number (its allocation's waiver lines). */
export function lateChargesWaived(
  waived: readonly { installment: number; component: Component; amount: string }[],
): Map<number, LateChargesWaived> {
  const byRow = new Map<number, LateChargesWaived>();
  for (const line of waived) {
    if (!LATE_CHARGES.includes(line.component)) continue;
    const row = byRow.get(line.installment) ?? {};
    row[line.component] = formatCents(cents(row[line.component]) + cents(line.amount));
    byRow.set(line.installment, row);
  }
  return byRow;
}

/** A row to put back: as it was before the payment, with what the payment waived of its late charges. */
export type RestoredRow = StoredRow & { waived: LateChargesWaived };

/**
 * Puts back the schedule rows a payment changed (a revert), at closed day `closedDay`. Principal, interest and what
 * was paid are put back as they were. Late charges are the closes': what they charged since stays, what the payment
 * waived is charged again, and what ran since the payment on the principal it left is written first; then the row runs
 * again from the next day on what it owes once more.
 */
export async function restoreScheduleRows(tx: Tx, companyId: string, closedDay: string, rows: readonly RestoredRow[]): Promise<void> {
  if (rows.length === 0) return;
  const late = lateChargesSql(closedDay);
  const waived = (component: Component) => sql`coalesce((r.value -> 'waived' ->> ${component})::numeric, 0)`;
  await tx.execute(sql`
    update installments i set
      moratory_interest = i.moratory_interest + ${late.moratory} + ${waived('moratoryInterest')},
      moratory_iva = i.moratory_iva + ${late.moratoryIva} + ${waived('moratoryIva')},
      fees = i.fees + ${waived('fees')}, fees_iva = i.fees_iva + ${waived('feesIva')},
      accrues_from = case when i.accrues_from <= ${closedDay}::date then ${closedDay}::date + 1 else i.accrues_from end,
      ${SCHEDULE_AND_PAID}
    from json_array_elements(${jsonParam(rows)}) r cross join lateral json_populate_record(null::installments, r.value) x, credits c
    where i.company_id = ${companyId} and i.credit_id = x.credit_id and i.number = x.number and c.id = i.credit_id`);
}

/** The schedule columns a payment reads, in the order the batch read writes each row's fields. */
const SCHEDULE_COLUMNS = [
  'number',
  'dueDate',
  'principal',
  'interest',
  'iva',
  'payment',
  'balance',
  'days',
  'paidPrincipal',
  'paidInterest',
  'paidIva',
  'moratoryInterest',
  'moratoryIva',
  'fees',
  'feesIva',
  'paidMoratoryInterest',
  'paidMoratoryIva',
  'paidFees',
  'paidFeesIva',
  'outstanding',
  'accruesFrom',
  'accrualThrough',
  'accrualCentDays',
] as const satisfies readonly (keyof InstallmentRow)[];

/**
 * The amounts most rows hold at zero — what was paid of a row not yet paid, the late charges of a row never late —
 * written as nothing instead of "0.00": numeric's text is most of what the read costs the database.
 */
const MOSTLY_ZERO = new Set<(typeof SCHEDULE_COLUMNS)[number]>([
  'paidPrincipal',
  'paidInterest',
  'paidIva',
  'moratoryInterest',
  'moratoryIva',
  'fees',
  'feesIva',
  'paidMoratoryInterest',
  'paidMoratoryIva',
  'paidFees',
  'paidFeesIva',
]);

/**
 * Each row as its columns' text joined by commas — none can hold one: integers, dates and amounts, which keep their two
 * decimals as the driver reads them — a column without a value, or a MOSTLY_ZERO amount at zero, as nothing; the rows
 * joined by semicolons.
 */
export const SCHEDULE_TEXT = sql`concat_ws(',', ${sql.join(
  SCHEDULE_COLUMNS.map((key) =>
    MOSTLY_ZERO.has(key)
      ? sql`coalesce(nullif(${installments[key]}, 0)::text, '')`
      : installments[key].notNull
        ? sql`${installments[key]}::text`
        : sql`coalesce(${installments[key]}::text, '')`,
  ),
  sql`, `,
)})`;
/** A nullable column's value from its text in SCHEDULE_TEXT (written as nothing when null). */
const orNull = (text: string | undefined) => (text === '' || text === undefined ? null : text);
/** A MOSTLY_ZERO amount from its text (written as nothing at zero): numeric(14,2)'s zero as the driver reads it. */
const orZero = (text: string | undefined) => (text === '' || text === undefined ? ZERO : text);

/**
 * A schedule as SCHEDULE_TEXT wrote it, each row one object literal in SCHEDULE_COLUMNS' order (schedule-text.test.ts
 * holds every value equal to the driver's): an application reads a dozen rows or more of 23 columns for each credit it
 * pays, and setting each column by its name from a list cost more processor time than allocating the payment
 * (docs/measurements.md, decision 0018).
 */
export function scheduleFromText(text: string | null, creditId: string, companyId: string): InstallmentRow[] {
  if (text === null) return [];
  return text.split(';').map((line) => {
    const v = line.split(',');
    const days = orNull(v[7]);
    return {
      creditId,
      companyId,
      number: Number(v[0]),
      dueDate: v[1]!,
      principal: v[2]!,
      interest: v[3]!,
      iva: v[4]!,
      payment: v[5]!,
      balance: v[6]!,
      days: days === null ? null : Number(days),
      paidPrincipal: orZero(v[8]),
      paidInterest: orZero(v[9]),
      paidIva: orZero(v[10]),
      moratoryInterest: orZero(v[11]),
      moratoryIva: orZero(v[12]),
      fees: orZero(v[13]),
      feesIva: orZero(v[14]),
      paidMoratoryInterest: orZero(v[15]),
      paidMoratoryIva: orZero(v[16]),
      paidFees: orZero(v[17]),
      paidFeesIva: orZero(v[18]),
      outstanding: v[19]!,
      accruesFrom: orNull(v[20]),
      accrualThrough: orNull(v[21]),
      accrualCentDays: orNull(v[22]),
    } satisfies Pick<InstallmentRow, 'creditId' | 'companyId' | (typeof SCHEDULE_COLUMNS)[number]> as InstallmentRow;
  });
}
