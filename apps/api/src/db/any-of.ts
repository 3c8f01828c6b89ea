import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { arrayParam } from './array-param';

/**
 * `column = any(ids)`: one uuid[] parameter however many ids, read through the column's index. A batch of thousands of
 * credits is one parameter, where `in (…)` would be thousands.
 */
export const anyOf = (column: SQL | AnyPgColumn, ids: readonly string[]): SQL => sql`${column} = any(${arrayParam('uuid', ids)})`;
