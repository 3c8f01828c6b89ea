import { and, asc, desc, eq, gte, ilike, lte, or, sql, type SQL } from 'drizzle-orm';
import type { CreditListItem, CreditListQuery, CreditTotals, DayClose, DayCloseRun } from '@portal/contract';
import type { Tx } from '../../db/client';
import type { dayCloseRuns} from '../../db/schema';
import { agreements, clients, companies, credits, dayCloses, users } from '../../db/schema';
import { containsPattern } from '../../db/like';
import { creditFolio } from '../origination/pre-requests.service';

const fullName = sql<string>`(${clients.firstNames} || ' ' || ${clients.lastName1} || ' ' || coalesce(${clients.lastName2}, ''))`;

/**
 * The list's search: a folio (CR-00000042 or 42) by number, an 18-character CURP or a 12/13-character RFC exactly
 * (their indexes), otherwise an employee number exactly or any part of the client's name (trigram index).
 */
function searchCondition(q: string): SQL {
  const text = q.trim().toUpperCase();
  const folioNumber = text.match(/^(?:CR-?)?0*(\d{1,12})$/)?.[1];
  const alternatives: (SQL | undefined)[] = [eq(credits.employeeNumber, q.trim())];
  if (folioNumber) alternatives.push(eq(credits.number, Number(folioNumber)));
  if (/^[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d$/.test(text)) return eq(clients.curp, text);
  if (/^[A-Z&Ñ]{3,4}\d{6}[A-Z0-9]{3}$/.test(text)) return eq(clients.rfc, text);
  if (!folioNumber) alternatives.push(ilike(fullName, containsPattern(q.trim())));
  return or(...alternatives)!;
}

export function creditFilters(query: Omit<CreditListQuery, 'page' | 'pageSize' | 'sort'>): SQL | undefined {
  return and(
    query.q ? searchCondition(query.q) : undefined,
    query.agreementId ? eq(credits.agreementId, query.agreementId) : undefined,
    query.status ? eq(credits.status, query.status) : undefined,
    query.bucket ? eq(credits.agingBucket, query.bucket) : undefined,
    query.label ? sql`${credits.labels} @> array[${query.label}]::text[]` : undefined,
    query.disbursedFrom ? gte(credits.disbursementDate, query.disbursedFrom) : undefined,
    query.disbursedTo ? lte(credits.disbursementDate, query.disbursedTo) : undefined,
  );
}

const SORT_COLUMNS = {
  folio: credits.number,
  disbursementDate: credits.disbursementDate,
  daysPastDue: credits.daysPastDue,
  outstandingBalance: credits.outstandingBalance,
  bucket: credits.agingBucket,
} as const;

/** The sort, with the folio as tie-breaker so pages never overlap (each pair has an index per company). */
export function creditOrder(sort: string | undefined): SQL[] {
  const descending = sort?.startsWith('-') ?? false;
  const key = (sort?.replace(/^-/, '') ?? 'folio') as keyof typeof SORT_COLUMNS;
  const column = SORT_COLUMNS[key] ?? credits.number;
  const direction = descending ? desc : asc;
  return column === credits.number ? [direction(credits.number)] : [direction(column), direction(credits.number)];
}

export function creditListSelect(tx: Tx) {
  return tx
    .select({
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
    })
    .from(credits)
    .innerJoin(clients, eq(clients.id, credits.clientId))
    .innerJoin(agreements, eq(agreements.id, credits.agreementId))
    .innerJoin(companies, eq(companies.id, credits.companyId));
}

type CreditListRow = Awaited<ReturnType<ReturnType<typeof creditListSelect>['execute']>>[number];

export function toCreditListItem(row: CreditListRow): CreditListItem {
  const { number, ...rest } = row;
  return { ...rest, clientName: rest.clientName.trim(), folio: creditFolio(number) };
}

export async function creditTotals(tx: Tx, where: SQL | undefined): Promise<CreditTotals> {
  const [row] = await tx
    .select({
      count: sql<number>`count(*)::int`,
      outstandingBalance: sql<string>`coalesce(sum(${credits.outstandingBalance}), 0)::numeric(14,2)::text`,
      overdueBalance: sql<string>`coalesce(sum(${credits.overdueBalance}), 0)::numeric(14,2)::text`,
    })
    .from(credits)
    .innerJoin(clients, eq(clients.id, credits.clientId))
    .where(where);
  return row!;
}

export function toDayCloseRun(row: typeof dayCloseRuns.$inferSelect): DayCloseRun {
  return {
    id: row.id,
    companyId: row.companyId,
    fromDate: row.fromDate,
    throughDate: row.throughDate,
    daysTotal: row.daysTotal,
    daysDone: row.daysDone,
    status: row.status,
    jobId: row.jobId,
    error: row.error,
    requestedBy: row.requestedBy,
    requestedAt: row.requestedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export async function dayCloseHistory(tx: Tx, companyId: string | undefined, page: number, pageSize: number): Promise<{ items: DayClose[]; total: number }> {
  const where = companyId ? eq(dayCloses.companyId, companyId) : undefined;
  const rows = await tx
    .select({ close: dayCloses, company: companies.name, closedBy: users.email })
    .from(dayCloses)
    .innerJoin(companies, eq(companies.id, dayCloses.companyId))
    .leftJoin(users, eq(users.id, dayCloses.closedBy))
    .where(where)
    .orderBy(desc(dayCloses.businessDate), desc(dayCloses.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [count] = await tx.select({ total: sql<number>`count(*)::int` }).from(dayCloses).where(where);
  return {
    items: rows.map(({ close, company, closedBy }) => ({ ...close, company, closedBy, closedAt: close.closedAt.toISOString() })),
    total: count!.total,
  };
}

/** The agreements the user's company has (every company's for SA), for the list's filter. */
export function agreementOptions(tx: Tx) {
  return tx.select({ id: agreements.id, name: agreements.name }).from(agreements).orderBy(asc(agreements.name));
}
