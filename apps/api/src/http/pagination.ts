import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * The one way a list endpoint pages and sorts (contract's listQuery → listResponse): in SQL, a page of rows and the
 * count of all that match the same filters, ordered by a column of the area's sort map.
 */

/** The list's sortable fields, by the name the contract's `sort` uses. */
export type SortMap = Record<string, AnyPgColumn | SQL>;

/**
 * ORDER BY for `sort` (`field` or `-field` for descending), the default field and direction when none is asked. A unique
 * column breaks ties so that pages never repeat or skip a row; both go the same way so one index serves each order
 * (PostgreSQL's default: empty values last going up, first going down).
 */
export function listOrder(columns: SortMap, sort: string | undefined, fallback: { field: string; descending?: boolean }, tieBreaker: AnyPgColumn): SQL[] {
  const { column, descending } = sortOf(columns, sort, fallback);
  return descending ? [desc(column), desc(tieBreaker)] : [asc(column), asc(tieBreaker)];
}

function sortOf(columns: SortMap, sort: string | undefined, fallback: { field: string; descending?: boolean }) {
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
  return descending ? sql`(${column}, ${tieBreaker}) < (${value}, ${after.tie})` : sql`(${column}, ${tieBreaker}) > (${value}, ${after.tie})`;
}

/** A page of `rows` (already filtered and ordered) and the `total` matching the same filters, as `{ items, total }`. */
export async function pagedList<Row, Item>(
  query: { page: number; pageSize: number },
  rows: { limit(count: number): { offset(count: number): PromiseLike<Row[]> } },
  total: PromiseLike<{ total: number }[]>,
  toItem: (row: Row) => Item,
): Promise<{ items: Item[]; total: number }> {
  const [page, [counted]] = await Promise.all([rows.limit(query.pageSize).offset((query.page - 1) * query.pageSize), total]);
  return { items: page.map(toItem), total: counted?.total ?? 0 };
}
