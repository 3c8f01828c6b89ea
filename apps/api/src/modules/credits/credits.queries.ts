import { and, asc, eq, gte, lte, or, sql, type SQL } from 'drizzle-orm';
import { addDays, formatCents, parseCents } from '@portal/lending';
import type {
  Credit,
  CreditComponents,
  CreditDeduction,
  CreditHistory,
  CreditInstallment,
  CreditListItem,
  CreditListQuery,
  CreditPayment,
  CreditTotals,
} from '@portal/contract';
import type { Tx } from '../../db/client';
import { fixedSelect } from '../../db/fixed-select';
import { jsonList, jsonObject, jsonStatement, jsonSubquery, type JsonPart } from '../../db/json-list';
import { searchMatches } from '../../db/like';
import { anyOf } from '../../db/any-of';
import type { MatchingIds } from '../../db/company-search';
import { trimNumeric } from '../../db/numeric';
import { agreements } from '../../db/schema/agreements';
import { credits, expectedDeductions, installments } from '../../db/schema/credits';
import { businessDates } from '../../db/schema/portfolio';
import { clients, requests } from '../../db/schema/origination';
import { companies, users } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { fixedCount, listAfter, listOrder } from '../../http/pagination';
import { auditHistoryOf } from '../audit/audit';
import { creditFolio, creditNumberOf, requestFolio } from '../shared/folios';
import { labelHistoryOf, letterCountOf, paymentCountOf, paymentsOf } from './credit-view-parts';
import { installmentStatus, type InstallmentRow } from '../portfolio/schedule-rows';
import { storedCredit } from '../portfolio/stored-credit';
import { chargedThrough, ranThrough, type RunningRow } from '../portfolio/late-charges';

/** Cartera's reads: the credits list (search, filters, sort, totals), one credit's view and the parts its tabs read. */

const fullName = sql<string>`(${clients.firstNames} || ' ' || ${clients.lastName1} || ' ' || coalesce(${clients.lastName2}, ''))`;

/** What the list's search `q` looks for: a CURP, an RFC, a folio's number, or a name (besides an employee number). */
function searchKind(q: string): 'curp' | 'rfc' | 'folio' | 'name' {
  const text = q.trim().toUpperCase();
  if (/^[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d$/.test(text)) return 'curp';
  if (/^[A-Z&Ñ]{3,4}\d{6}[A-Z0-9]{3}$/.test(text)) return 'rfc';
  return creditNumberOf(text) === null ? 'name' : 'folio';
}

/** Whether the list's search reads clients by name (it asks the matching clients first, decisions 0034 and 0035). */
export const searchesByName = (q: string | undefined): boolean => q !== undefined && q.trim() !== '' && searchKind(q) === 'name';

/**
 * The list's search: a folio (CR-00000042 or 42) by number, an 18-character CURP or a 12/13-character RFC exactly
 * (their indexes), otherwise an employee number exactly or any part of the client's name (trigram index). `clientIds`,
 * when given, are the clients whose name matches (company-search.ts, up to SEARCH_COUNT_CAP; null for more): their credits by
 * `credits_client_idx`, or for more the list's own order walked with one client read by key per credit.
 */
function searchCondition(q: string, clientIds: MatchingIds | undefined): SQL {
  const text = q.trim().toUpperCase();
  // The client's columns are read in a subquery, so the list's count and totals never join the clients table.
  const clientWhere = (condition: SQL) => sql`${credits.clientId} in (select ${clients.id} from ${clients} where ${condition})`;
  const kind = searchKind(q);
  if (kind === 'curp') return clientWhere(eq(clients.curp, text));
  if (kind === 'rfc') return clientWhere(eq(clients.rfc, text));
  const alternatives: SQL[] = [eq(credits.employeeNumber, q.trim())];
  if (kind === 'folio') alternatives.push(eq(credits.number, creditNumberOf(text)!));
  else {
    const matches = searchMatches(clients.searchText, q.trim());
    if (clientIds === undefined) alternatives.push(clientWhere(matches));
    else if (clientIds !== null) alternatives.push(anyOf(credits.clientId, clientIds));
    // `offset 0` keeps the test per credit: without it PostgreSQL hashes every matching client before the first page.
    else alternatives.push(sql`exists (select 1 from ${clients} where ${clients.id} = ${credits.clientId} and ${matches} offset 0)`);
  }
  return or(...alternatives)!;
}

export type CreditFilters = Omit<CreditListQuery, 'page' | 'pageSize' | 'sort'> & {
  /** The clients a search by name matches, asked first (decisions 0034, 0035); absent: read in the filter. */
  clientIds?: MatchingIds;
};

export function creditFilters(query: CreditFilters): SQL | undefined {
  return and(
    query.q ? searchCondition(query.q, query.clientIds) : undefined,
    query.agreementId ? eq(credits.agreementId, query.agreementId) : undefined,
    query.status ? eq(credits.status, query.status) : undefined,
    query.bucket ? eq(credits.agingBucket, query.bucket) : undefined,
    query.label ? sql`${credits.labels} @> array[${query.label}]::text[]` : undefined,
    query.liquidation === 'renovacion' ? sql`${credits.liquidationReason} = 'renovacion'` : undefined,
    query.liquidation === 'pago' ? sql`${credits.status} = 'liquidado' and ${credits.liquidationReason} is null` : undefined,
    query.disbursedFrom ? gte(credits.disbursementDate, query.disbursedFrom) : undefined,
    query.disbursedTo ? lte(credits.disbursementDate, query.disbursedTo) : undefined,
  );
}

const CREDIT_SORT = {
  folio: credits.number,
  disbursementDate: credits.disbursementDate,
  daysPastDue: credits.daysPastDue,
  outstandingBalance: credits.outstandingBalance,
  bucket: credits.agingBucket,
};
const DEFAULT_SORT = { field: 'folio' };

/** The sort, with the folio as tie-breaker so pages never overlap (each pair has an index per company). */
export const creditOrder = (sort: string | undefined): SQL[] => listOrder(CREDIT_SORT, sort, DEFAULT_SORT, credits.number);

/** The credits after `last` in `creditOrder(sort)`: the export reads the list a batch at a time through its index. */
export const creditsAfter = (sort: string | undefined, last: Readonly<Record<string, unknown>>): SQL =>
  listAfter(CREDIT_SORT, sort, DEFAULT_SORT, credits.number, {
    valueOf: (field) => (field === 'folio' ? last.number : last[field]),
    tie: last.number,
  });

const creditList = fixedSelect(
  {
    id: credits.id,
    number: credits.number,
    clientName: fullName,
    curp: clients.curp,
    agreement: agreements.name,
    company: companies.name,
    principal: credits.principal,
    outstandingBalance: credits.outstandingBalance,
    installment: credits.installment,
    nextDiscountDate: credits.nextDiscountDate,
    daysPastDue: credits.daysPastDue,
    bucket: credits.agingBucket,
    status: credits.status,
    labels: credits.labels,
    disbursementDate: credits.disbursementDate,
  },
  (select) =>
    select
      .from(credits)
      .innerJoin(clients, eq(clients.id, credits.clientId))
      .innerJoin(agreements, eq(agreements.id, credits.agreementId))
      .innerJoin(companies, eq(companies.id, credits.companyId)),
);

export const creditListSelect = (tx: Tx) => creditList.in(tx);

type CreditListRow = Awaited<ReturnType<typeof creditListSelect>>[number];

export function toCreditListItem(row: CreditListRow): CreditListItem {
  const { number, ...rest } = row;
  return { ...rest, clientName: rest.clientName.trim(), folio: creditFolio(number) };
}

/** How many credits match: the list's total. */
const matchingCredits = fixedCount((select) => select.from(credits));
export const creditCount = (tx: Tx, filters: CreditFilters) => matchingCredits.in(tx).where(creditFilters(filters));

/** The totals bar: count, balance and overdue balance of the filtered set, summed over the kept columns. */
export async function creditTotals(tx: Tx, filters: CreditFilters): Promise<CreditTotals> {
  const [row] = await tx
    .select({
      count: sql<number>`count(*)::int`,
      outstandingBalance: sql<string>`coalesce(sum(${credits.outstandingBalance}), 0)::numeric(14,2)::text`,
      overdueBalance: sql<string>`coalesce(sum(${credits.overdueBalance}), 0)::numeric(14,2)::text`,
    })
    .from(credits)
    .where(creditFilters(filters));
  return row!;
}

/** The agreements the user's company has (every company's for SA), for the list's filter. */
export const agreementOptions = (tx: Tx) =>
  tx.select({ id: agreements.id, name: agreements.name }).from(agreements).orderBy(asc(agreements.name));

/** The company's business date (fecha flujo), a column of a select from credits; none for a company that never closed a day. */
const BUSINESS_DATE = sql<
  string | null
>`(select ${businessDates.businessDate}::text from ${businessDates} where ${businessDates.companyId} = ${credits.companyId})`;

/** The components of a row's amounts, in the order their sums are kept. */
const COMPONENTS = ['principal', 'interest', 'iva', 'moratoryInterest', 'moratoryIva', 'fees', 'feesIva'] as const;
type Component = (typeof COMPONENTS)[number];

/** Each component's amount on a schedule row and what was paid of it, as installments' columns. */
const CHARGED_AND_PAID = {
  principal: [installments.principal, installments.paidPrincipal],
  interest: [installments.interest, installments.paidInterest],
  iva: [installments.iva, installments.paidIva],
  moratoryInterest: [installments.moratoryInterest, installments.paidMoratoryInterest],
  moratoryIva: [installments.moratoryIva, installments.paidMoratoryIva],
  fees: [installments.fees, installments.paidFees],
  feesIva: [installments.feesIva, installments.paidFeesIva],
} as const satisfies Record<Component, readonly [unknown, unknown]>;

/** The components whose charged and paid sums the schedule's pass reads, in COMPONENTS' order; the last is derived. */
const SUMMED = COMPONENTS.slice(0, -1);
/** Those that are 0 on most rows (late charges, fees): summed over the rows where they are not. */
const MOSTLY_ZERO: ReadonlySet<Component> = new Set(['moratoryInterest', 'moratoryIva', 'fees']);

/** What the rows still owe of one component: its charged sum less its paid sum, as text (null: no row). */
function owedSum(key: Component): SQL {
  const [charged, paid] = CHARGED_AND_PAID[key];
  if (!MOSTLY_ZERO.has(key)) return sql`(sum(${charged}) - sum(${paid}))::text`;
  // Each sum leaves out the rows where its column is 0 (they add nothing); a filtered sum of no row is null, so 0.
  const nonZero = (column: unknown) => sql`coalesce(sum(${column}) filter (where ${column} <> 0), 0)`;
  return sql`(${nonZero(charged)} - ${nonZero(paid)})::text`;
}

/**
 * The credit's schedule as the view needs it, in one pass over its rows (installments' primary key):
 * - what the rows still owe of each component as stored (the charged sum less the paid sum: two sums cost less per row
 *   than a difference per row and a sum), summed by PostgreSQL (exact numeric) in COMPONENTS' order, and the sum of
 *   the rows' `outstanding`. A row's `outstanding` is a stored column computed from its seven charges less its seven
 *   payments (schema's `generatedAlwaysAs`), so the last component, fees' IVA, is that sum less the six others:
 *   one sum for two. A row that owes nothing (`outstanding = 0`) is left out: no component of a row is paid beyond its
 *   charge (packages/lending refuses such a row, toLedger), so each of its components adds 0, and a paid row's sums
 *   were the pass's largest cost;
 * - the rows whose late charges run (late and not held: a handful at most), with the columns what ran is computed from.
 *   The balances are the sums plus what ran since a running row's `accrues_from`, which `loadCredit` adds;
 * - the first installment's interest and IVA (Resumen's "Primer periodo"): row 1, the first a schedule has
 *   (buildSchedule numbers its rows from 1; a re-based credit's schedule is rebuilt whole), read in the same pass.
 */
const RUNNING_ROW: JsonPart<RunningRow> = jsonObject({
  principal: installments.principal,
  paidPrincipal: installments.paidPrincipal,
  accruesFrom: installments.accruesFrom,
});
const FIRST_ROW = jsonObject({ interest: installments.interest, iva: installments.iva });
const SCHEDULE_PARTS: JsonPart<{
  storedOwed: bigint[];
  running: RunningRow[];
  first: { interest: string; iva: string } | null;
}> = jsonSubquery(
  sql`(select json_build_array(${sql.join(
    SUMMED.map((key) => owedSum(key)),
    sql`, `,
  )}, sum(${installments.outstanding})::text, coalesce(json_agg(${RUNNING_ROW.sql} order by ${installments.number}) filter (where ${installments.accruesFrom} is not null), '[]'::json), json_agg(${FIRST_ROW.sql}) filter (where ${installments.number} = 1)) from ${installments} where ${installments.creditId} = ${credits.id} and (${installments.outstanding} <> 0 or ${installments.accruesFrom} is not null or ${installments.number} = 1))`,
  (value) => {
    const stored = value as unknown[];
    const first = stored[SUMMED.length + 2] as unknown[] | null;
    // Each sum in centavos (a sum of no row, null, is 0); the last component is the rows' outstanding less the others.
    const owed = SUMMED.map((key, k) => parseCents((stored[k] as string | null) ?? '0', key));
    const outstanding = parseCents((stored[SUMMED.length] as string | null) ?? '0', 'outstanding');
    return {
      storedOwed: [...owed, owed.reduce((rest, part) => rest - part, outstanding)],
      running: (stored[SUMMED.length + 1] as unknown[]).map((row) => RUNNING_ROW.decode(row)),
      first: first === null ? null : FIRST_ROW.decode(first[0]),
    };
  },
);

/**
 * The view's value besides the credit's id: `today`, the date the figures are at for a company that never closed a day.
 * It is the statement's second parameter, after the tail's `where id = $1` (jsonStatement's `valuesAfterTail`).
 */
const TODAY = sql.raw('$2::date');

/** The business date's row of the credit's company in the view's statement (`b`: none for a company that never closed a day). */
const VIEW_BUSINESS_DATE = sql.raw('b.business_date');

/**
 * The next deduction still to come (Resumen): the first not received on or after the business date (`today` without
 * one), in the order of its date and period. A credit's deductions are its schedule's rows (disbursement.ts, buildCredit:
 * period = row number, discount date = due date), whose dates never go back as the number grows (packages/lending
 * buildSchedule, a property test there), so the first by period is the first by date and period: PostgreSQL walks the
 * primary key `(credit_id, period)` in order and stops at the first that matches, instead of reading and sorting them all.
 */
const NEXT_DEDUCTION_FIELDS: JsonPart<{ period: number; discountDate: string; amount: string }> = jsonObject({
  period: expectedDeductions.period,
  discountDate: expectedDeductions.discountDate,
  amount: expectedDeductions.amount,
});
const NEXT_DEDUCTION = jsonSubquery(
  sql`(select ${NEXT_DEDUCTION_FIELDS.sql} from ${expectedDeductions} where ${expectedDeductions.creditId} = ${credits.id} and ${expectedDeductions.state} <> 'recibido' and ${expectedDeductions.discountDate} >= coalesce(${VIEW_BUSINESS_DATE}, ${TODAY}) order by ${expectedDeductions.period} limit 1)`,
  (value) => NEXT_DEDUCTION_FIELDS.decode(value),
);

/**
 * The business date and the next deduction, which reads it, in one subquery: the company's business date read once
 * (`b`, a left join to one row, so a company that never closed a day has a null date and the deduction from `today`).
 */
const BUSINESS_DATE_AND_NEXT = jsonSubquery(
  sql`(select json_build_array(${VIEW_BUSINESS_DATE}, ${NEXT_DEDUCTION.sql}) from (select) one left join ${businessDates} b on b.company_id = ${credits.companyId})`,
  (value) => {
    const [businessDate, next] = value as [string | null, unknown];
    return { businessDate, nextDeduction: next === null ? null : NEXT_DEDUCTION.decode(next) };
  },
);

/** The credit's renewals in one scan: the credit that renewed it and those it renewed, each [id, number, which]. */
const RENEWALS = jsonSubquery(
  sql`array(select json_build_array(r.id, r.number, r.id = ${credits.renewedByCreditId}, r.renewed_by_credit_id = ${credits.id}) from ${credits} r where r.id = ${credits.renewedByCreditId} or r.renewed_by_credit_id = ${credits.id})`,
  (value) => {
    const rows = value as [string, number, boolean | null, boolean | null][];
    const renewer = rows.find((row) => row[2] === true);
    return {
      renewedBy: renewer ? { id: renewer[0], number: renewer[1] } : null,
      // In the order of their numbers, as the view lists them.
      renews: rows
        .filter((row) => row[3] === true)
        .map(([id, number]) => ({ id, number }))
        .sort((a, b) => a.number - b.number),
    };
  },
);

/** The client's names and identifiers the header shows (its address and contact stay unread), by its primary key. */
const CLIENT_NAME_FIELDS = jsonObject({
  id: clients.id,
  firstNames: clients.firstNames,
  lastName1: clients.lastName1,
  lastName2: clients.lastName2,
  curp: clients.curp,
  rfc: clients.rfc,
});
const CLIENT_NAMES = jsonSubquery(
  sql`(select ${CLIENT_NAME_FIELDS.sql} from ${clients} where ${clients.id} = ${credits.clientId})`,
  (value) => CLIENT_NAME_FIELDS.decode(value),
);

/**
 * The credit view's header and summary (Cartera → Créditos → a credit) in one statement over the credit alone: the
 * credit's columns the view shows, and a subquery by one index each for its client's names, agreement, company, request
 * and disburser, the business date with the next deduction still to come (one subquery), its schedule's sums, running
 * rows and first row (one pass), how many payments and letters it has, and its renewals (one scan). No join: the
 * credit's columns pass through no join level, which PostgreSQL would otherwise carry (and describe at each execution)
 * through each (decision 0040). Each table the statement reads costs a plan node or two, and its company's policy one
 * more, to set up at every execution, so each table is read once (docs/production-figures.md, "Issue 52, stop 67").
 */
const CREDIT_VIEW = jsonStatement(
  jsonObject({
    credit: jsonObject({
      id: credits.id,
      number: credits.number,
      requestId: credits.requestId,
      agreementId: credits.agreementId,
      employeeNumber: credits.employeeNumber,
      productName: credits.productName,
      annualRatePct: credits.annualRatePct,
      ivaRatePct: credits.ivaRatePct,
      openingFeePct: credits.openingFeePct,
      openingFeeFinanced: credits.openingFeeFinanced,
      moratoryRatePct: credits.moratoryRatePct,
      frequency: credits.frequency,
      term: credits.term,
      amount: credits.amount,
      openingFee: credits.openingFee,
      openingFeeIva: credits.openingFeeIva,
      principal: credits.principal,
      netDisbursed: credits.netDisbursed,
      installment: credits.installment,
      cat: credits.cat,
      clabe: credits.clabe,
      disbursementDate: credits.disbursementDate,
      firstDueDate: credits.firstDueDate,
      lastDueDate: credits.lastDueDate,
      status: credits.status,
      daysPastDue: credits.daysPastDue,
      agingBucket: credits.agingBucket,
      labels: credits.labels,
      creditBalance: credits.creditBalance,
      liquidationReason: credits.liquidationReason,
      createdAt: credits.createdAt,
    }),
    client: CLIENT_NAMES,
    agreement: sql<string>`(select ${agreements.name} from ${agreements} where ${agreements.id} = ${credits.agreementId})`,
    company: sql<string>`(select ${companies.name} from ${companies} where ${companies.id} = ${credits.companyId})`,
    requestNumber: sql<number>`(select ${requests.number} from ${requests} where ${requests.id} = ${credits.requestId})`,
    disbursedBy: sql<string | null>`(select ${users.email} from ${users} where ${users.id} = ${credits.disbursedBy})`,
    dated: BUSINESS_DATE_AND_NEXT,
    schedule: SCHEDULE_PARTS,
    paymentCount: paymentCountOf(credits.id),
    letterCount: letterCountOf(credits.companyId, credits.id),
    /** The credit that renewed this one, and those this one renewed (docs/domain.md, "Renewals"). */
    renewals: RENEWALS,
  }),
  sql`from ${credits}`,
  { tailParameters: 1 },
);

/** One row of `statement` for the credit `id`; 404 when there is none the user may see (row-level security). */
async function oneCredit<T>(
  statement: { run(tx: Tx, tail: SQL, valuesAfterTail?: unknown[]): Promise<T[]> },
  tx: Tx,
  id: string,
  valuesAfterTail: unknown[] = [],
): Promise<T> {
  const [row] = await statement.run(tx, sql`where ${credits.id} = ${id}`, valuesAfterTail);
  if (!row) throw new HttpProblem(404, 'Crédito no encontrado', 'El crédito no existe.');
  return row;
}

/** A statement over the credit alone (no joins) whose one value is `part`: a tab's part of the credit view. */
const creditPart = <T>(part: JsonPart<T>) => jsonStatement(part, sql`from ${credits}`);

/** The day the view's late charges have run through: the day before the business date (`today` without one). */
const closedDayOf = (businessDate: string | null, today: string) => addDays(businessDate ?? today, -1);

/** A row's amounts of each component as text, with their total, and the same in centavos (each amount read once). */
function summed(parts: Record<Component, string>): { text: CreditComponents; cents: bigint[] } {
  const cents = COMPONENTS.map((key) => parseCents(parts[key], key));
  return { text: { ...parts, total: formatCents(cents.reduce((sum, value) => sum + value, 0n)) }, cents };
}

const componentsOf = (cents: readonly bigint[]): CreditComponents => {
  const parts = Object.fromEntries(COMPONENTS.map((key, k) => [key, formatCents(cents[k]!)])) as Record<Component, string>;
  return { ...parts, total: formatCents(cents.reduce((sum, value) => sum + value, 0n)) };
};

const chargedOf = (i: InstallmentRow) =>
  summed({
    principal: i.principal,
    interest: i.interest,
    iva: i.iva,
    moratoryInterest: i.moratoryInterest,
    moratoryIva: i.moratoryIva,
    fees: i.fees,
    feesIva: i.feesIva,
  });
const paidOf = (i: InstallmentRow) =>
  summed({
    principal: i.paidPrincipal,
    interest: i.paidInterest,
    iva: i.paidIva,
    moratoryInterest: i.paidMoratoryInterest,
    moratoryIva: i.paidMoratoryIva,
    fees: i.paidFees,
    feesIva: i.paidFeesIva,
  });

/**
 * The credit view's header and summary (Cartera → Créditos → a credit), its figures at the company's business date
 * (`today` for a company that never closed a day). What is owed is the stored rows' sums plus the late charges that ran
 * on the running rows through the last closed day (`ranThrough`, what the schedule's route writes into each row).
 */
export async function loadCredit(tx: Tx, id: string, today: string): Promise<Credit> {
  const row = await oneCredit(CREDIT_VIEW, tx, id, [today]);
  const { credit, client, agreement, company, requestNumber, disbursedBy } = row;
  const businessDate = row.dated.businessDate ?? today;
  const closedDay = closedDayOf(row.dated.businessDate, today);
  const owed = [...row.schedule.storedOwed];
  for (const running of row.schedule.running) {
    const ran = ranThrough(running, credit, closedDay);
    if (ran === null) continue;
    for (const key of ['moratoryInterest', 'moratoryIva'] as const) {
      const k = COMPONENTS.indexOf(key);
      owed[k] = owed[k]! + parseCents(ran[key], key);
    }
  }
  const next = row.dated.nextDeduction;
  return {
    id: credit.id,
    folio: creditFolio(credit.number),
    status: credit.status,
    daysPastDue: credit.daysPastDue,
    bucket: credit.agingBucket,
    businessDate,
    requestId: credit.requestId,
    requestFolio: requestFolio(requestNumber),
    clientId: client.id,
    clientName: [client.firstNames, client.lastName1, client.lastName2].filter(Boolean).join(' '),
    curp: client.curp,
    rfc: client.rfc,
    agreementId: credit.agreementId,
    agreement,
    company,
    employeeNumber: credit.employeeNumber,
    product: {
      name: credit.productName,
      annualRatePct: trimNumeric(credit.annualRatePct),
      ivaRatePct: trimNumeric(credit.ivaRatePct),
      openingFeePct: trimNumeric(credit.openingFeePct),
      openingFeeFinanced: credit.openingFeeFinanced,
    },
    frequency: credit.frequency,
    term: credit.term,
    amount: credit.amount,
    openingFee: credit.openingFee,
    openingFeeIva: credit.openingFeeIva,
    principal: credit.principal,
    netDisbursed: credit.netDisbursed,
    installment: credit.installment,
    cat: credit.cat,
    clabe: credit.clabe,
    disbursementDate: credit.disbursementDate,
    firstDueDate: credit.firstDueDate,
    lastDueDate: credit.lastDueDate,
    disbursedBy,
    createdAt: credit.createdAt.toISOString(),
    labels: credit.labels,
    balances: componentsOf(owed),
    firstInstallment: row.schedule.first,
    nextDeduction: next ? { period: next.period, discountDate: next.discountDate, amount: next.amount } : null,
    creditBalance: credit.creditBalance,
    paymentCount: row.paymentCount,
    letterCount: row.letterCount,
    // Why it was liquidated: a renewal, or its payments.
    liquidationReason: credit.status === 'liquidado' ? (credit.liquidationReason ?? 'pago') : null,
    renewedBy: row.renewals.renewedBy ? { id: row.renewals.renewedBy.id, folio: creditFolio(row.renewals.renewedBy.number) } : null,
    renews: row.renewals.renews.map((renewed) => ({ id: renewed.id, folio: creditFolio(renewed.number) })),
  };
}

/** The schedule's tab: the credit's late-charge terms, the business date, its rows and its deductions' states. */
const CREDIT_SCHEDULE = creditPart(
  jsonObject({
    terms: jsonObject({ moratoryRatePct: credits.moratoryRatePct, ivaRatePct: credits.ivaRatePct }),
    businessDate: BUSINESS_DATE,
    schedule: storedCredit.schedule,
    deductionStates: jsonList(
      { period: expectedDeductions.period, state: expectedDeductions.state },
      {
        from: sql`from ${expectedDeductions}`,
        where: eq(expectedDeductions.creditId, credits.id),
        orderBy: [asc(expectedDeductions.period)],
      },
      (row) => row,
    ),
  }),
);

/**
 * Calendario de pagos: the schedule as disbursed, each row with the late charges that ran through the last closed day,
 * what was paid of it, what it still owes and its payroll deduction's state, at the business date (`today` without one).
 */
export async function creditInstallments(tx: Tx, id: string, today: string): Promise<CreditInstallment[]> {
  const { terms, businessDate, schedule, deductionStates } = await oneCredit(CREDIT_SCHEDULE, tx, id);
  const closedDay = closedDayOf(businessDate, today);
  const stateOf = new Map(deductionStates.map((d) => [d.period, d.state]));
  return schedule.map((stored) => {
    const i = chargedThrough(stored, terms, closedDay);
    return {
      number: i.number,
      dueDate: i.dueDate,
      principal: i.principal,
      interest: i.interest,
      iva: i.iva,
      payment: i.payment,
      balance: i.balance,
      status: installmentStatus(i, closedDay),
      deductionState: stateOf.get(i.number) ?? 'esperado',
      charged: chargedOf(i).text,
      paid: paidOf(i).text,
      outstanding: i.outstanding,
    };
  });
}

const CREDIT_PAYMENTS = creditPart(paymentsOf(credits.id));
/** Pagos: the credit's payments, newest first, with their split and allocation. */
export const creditPayments = (tx: Tx, id: string): Promise<CreditPayment[]> => oneCredit(CREDIT_PAYMENTS, tx, id);

const CREDIT_DEDUCTIONS = creditPart(storedCredit.deductions);
/** Descuentos: what the payroll is expected to deduct on each payday, and what became of it. */
export const creditDeductions = (tx: Tx, id: string): Promise<CreditDeduction[]> => oneCredit(CREDIT_DEDUCTIONS, tx, id);

const CREDIT_HISTORY = creditPart(jsonObject({ history: auditHistoryOf('credit', credits.id), labelHistory: labelHistoryOf(credits.id) }));
/** Historial and the label history (Etiquetas): the credit's audit events and its label changes, newest first. */
export const creditHistory = (tx: Tx, id: string): Promise<CreditHistory> => oneCredit(CREDIT_HISTORY, tx, id);
