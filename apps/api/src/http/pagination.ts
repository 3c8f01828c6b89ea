import { asc, desc, sql, type SQL } from 'drizzle-orm';
import { QueryBuilder, type AnyPgColumn, type PgSelectBuilder, type PgTable } from 'drizzle-orm/pg-core';
import { LIST_COUNT_CAP, SEARCH_COUNT_CAP } from '@portal/contract';
import { together } from '../db/client';
import type { MatchingIds } from '../db/company-search';
import { type FixedQuery, headedStatement, type Session, writtenInteger, writtenRows, writtenText } from '../db/fixed-select';

/**
 * The one way a list endpoint pages and sorts (contract's listQuery → listResponse): in SQL, a page of rows ordered by
 * a column of the area's sort map, and how many match the same filters, counted up to LIST_COUNT_CAP (decision 0013).
 */

/** The list's sortable fields, by the name the contract's `sort` uses. */
export type SortMap = Record<string, AnyPgColumn | SQL>;

/**
 * ORDER BY for `sort` (`field` or `-field` for descending), the default field and direction when none is asked. A unique
 * column breaks ties so that pages never repeat or skip a row; both go the same way so one index serves each order
 * (PostgreSQL's default: empty values last going up, first going down).
 */
export function listOrder(
  columns: SortMap,
  sort: string | undefined,
  fallback: { field: string; descending?: boolean },
  tieBreaker: AnyPgColumn,
): SQL[] {
  const { column, descending } = sortOf(columns, sort, fallback);
  return descending ? [desc(column), desc(tieBreaker)] : [asc(column), asc(tieBreaker)];
}

/** The column a list is sorted by: the one asked when the map has it, else the fallback's. */
export function sortOf(columns: SortMap, sort: string | undefined, fallback: { field: string; descending?: boolean }) {
  const asked = sort?.replace(/^-/, '');
  const field = asked !== undefined && Object.hasOwn(columns, asked) ? asked : fallback.field;
  return { field, column: columns[field]!, descending: sort ? sort.startsWith('-') : (fallback.descending ?? false) };
}

/**
 * Where a list in `listOrder`'s order goes on after a row: a keyset, `(sort column, tie-breaker)` past the row's pair,
 * so reading a long list a batch at a time (an export) costs the same for the last batch as for the first, where an
 * offset re-reads every row before it. `valueOf` answers the row's value of the sort field the order uses. The sort
 * columns must hold no empty values (a row comparison with null is never true).
 */
export function listAfter(
  columns: SortMap,
  sort: string | undefined,
  fallback: { field: string; descending?: boolean },
  tieBreaker: AnyPgColumn,
  after: { valueOf: (field: string) => unknown; tie: unknown },
): SQL {
  const { field, column, descending } = sortOf(columns, sort, fallback);
  const value = after.valueOf(field);
  return descending
    ? sql`(${column}, ${tieBreaker}) < (${value}, ${after.tie})`
    : sql`(${column}, ${tieBreaker}) > (${value}, ${after.tie})`;
}

/**
 * The count's cap written into the statement's text, as fixedSelect writes a page's size and offset (writtenInteger,
 * decision 0017). Sent as parameters, an unknown LIMIT makes every plan made without the values look costly, and
 * PostgreSQL planned each execution anew, the planning dearer than the work (figures: docs/measurements.md).
 */
const CAP = LIST_COUNT_CAP + 1;

/** What a count's select of matching rows selects: a constant, so the rows' columns are never read. */
export const ROW = { one: sql<number>`1`.as('one') };

declare const capped: unique symbol;
/** A count that stops one row past LIST_COUNT_CAP, made by `fixedCount` (the only count pagedList takes). */
export type CappedCount = PromiseLike<{ total: number; cap?: number }[]> & { readonly [capped]: true };

/**
 * How many rows of a list match its filters, reading at most LIST_COUNT_CAP + 1 of them: `select count(*) from (select
 * 1 <from> <the request's where> limit …) matching`. Like the list's page (fixedSelect), the statement around the
 * request's filters is written out once, when the module loads: `from` names the list's tables and joins. Drizzle
 * built it at every request: 8 % of the API's samples under the users list's load (Drizzle 14 → 6 %).
 */
export function fixedCount(from: (select: PgSelectBuilder<typeof ROW, 'qb'>) => { getSQL(): SQL }) {
  const statement = headedStatement(
    `select count(*)::int as total from (${writtenText(from(new QueryBuilder().select(ROW)))}`,
    ` limit ${CAP}) matching`,
  );
  return {
    in: (db: Session) => ({
      where(where: SQL | undefined): CappedCount {
        const run = () => writtenRows<{ total: number }>(db, statement(where ? sql`where ${where}` : sql``));
        return { then: (onFulfilled, onRejected) => run().then(onFulfilled, onRejected) } as PromiseLike<
          { total: number }[]
        > as CappedCount;
      },
    }),
  };
}

/**
 * The count of a search known to match past SEARCH_COUNT_CAP (its function found more and no other filter narrows the
 * list, decision 0035): "more than" the search's cap, without a statement.
 */
const pastSearchCap = (): CappedCount =>
  ({
    then: (onFulfilled, onRejected) =>
      Promise.resolve([{ total: SEARCH_COUNT_CAP + 1, cap: SEARCH_COUNT_CAP }]).then(onFulfilled, onRejected),
  }) as PromiseLike<{ total: number }[]> as CappedCount;

/** The keys of a list query that do not narrow the list: its page, its order and the search itself. */
const NOT_FILTERS: ReadonlySet<string> = new Set(['page', 'pageSize', 'sort', 'q']);

/**
 * A search's list count: "more than" SEARCH_COUNT_CAP without counting when the function answered null (more matching
 * rows) and no filter of `query` besides the search narrows the list; otherwise `count` (decision 0035). The filters
 * are read off the query itself, so a list's new filter narrows the count without being named here.
 */
export function searchCount(ids: MatchingIds | undefined, query: Readonly<Record<string, unknown>>, count: () => CappedCount): CappedCount {
  const narrowed = Object.entries(query).some(([key, value]) => !NOT_FILTERS.has(key) && value !== undefined && value !== '');
  return ids === null && !narrowed ? pastSearchCap() : count();
}

/** The same count in raw SQL, over `matching` (`select 1 from … where …`): a statement answering `{ total }`. */
export const countUpToSql = (matching: SQL): SQL =>
  sql`select count(*)::int as total from (${matching} limit ${writtenInteger(CAP)}) matching`;

/**
 * A page of `rows` (a list's fixed select, db/fixed-select.ts, already filtered and ordered: the page's size and offset
 * are written into its text) and how many match the same filters, as `{ items, total,
 * totalCapped }`: up to LIST_COUNT_CAP exactly, beyond it the cap and `totalCapped`.
 */
export async function pagedList<Row, Item>(
  query: { page: number; pageSize: number },
  rows: FixedQuery<Row>,
  total: CappedCount,
  toItem: (row: Row) => Item,
): Promise<Paged<Item>> {
  // Neither needs the other's answer: sent together where the connection pipelines (db/client.ts).
  const [page, [counted]] = await together(rows.db, rows.limit(query.pageSize).offset((query.page - 1) * query.pageSize), total);
  return { items: page.map(toItem), ...cappedTotal(counted?.total ?? 0, counted?.cap) };
}

/**
 * `key in (…)` the keys of `query`'s page, chosen from `table` alone: its rows that match `where`, in `order`, `pageSize`
 * of them from the page's offset (written into the text, decision 0017). For a list whose select joins other tables
 * only to name each row (a user's profile and company), so that a search matching thousands of rows sorts them on their
 * own table and joins the names of a page's rows only (decision 0039). `order` must read `table`'s columns only, and
 * every row of `table` the transaction sees must find its joined rows (else the page would come out short); the select
 * it filters is then run as the page's first page: `{ page: 1, pageSize }`.
 */
export function pageKeys(
  query: { page: number; pageSize: number },
  key: AnyPgColumn,
  table: PgTable,
  where: SQL | undefined,
  order: SQL[],
): SQL {
  return sql`${key} in (select ${key} from ${table}${where ? sql` where ${where}` : sql``} order by ${sql.join(order, sql`, `)} limit ${writtenInteger(query.pageSize)} offset ${writtenInteger((query.page - 1) * query.pageSize)})`;
}

/** A list's answer of how many match, from a count that stopped one row past its cap (LIST_COUNT_CAP unless told). */
export const cappedTotal = (matching: number, cap = LIST_COUNT_CAP) => ({ total: Math.min(matching, cap), totalCapped: matching > cap });

/** One page of a list and how many match (up to LIST_COUNT_CAP), as the contract's listResponse. */
export interface Paged<Item> {
  items: Item[];
  total: number;
  totalCapped: boolean;
}
