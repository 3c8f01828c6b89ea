import { Column, is, SQL, sql, type GetColumnData } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { headedStatement, type Session, writtenRows, writtenText } from './fixed-select';

/**
 * A record and the lists that belong to it read as one JSON value that PostgreSQL builds, so a screen that shows a
 * credit with its schedule, deductions and histories reads them in one statement instead of a round trip each.
 *
 * Each column goes into the JSON as PostgreSQL writes it in a result (numeric, dates and timestamps as text: money keeps
 * its two decimals, a timestamp its microseconds) and comes out through its column's own Drizzle mapper, so a decoded
 * row is what a Drizzle select of the same columns returns. Row-level security applies to every table read inside.
 *
 * An object travels as a JSON array of its values in the order of its fields, not as a JSON object: the keys would be
 * written by PostgreSQL, sent and parsed again for every row of every list (the credit view's 24 installments of 23
 * columns: 18 KB as objects, 8 KB as arrays). Its decoder puts each value back under its key.
 *
 * The SQL is written out once, when the shape is defined (its few values inline): define shapes at module level,
 * correlated to the outer row by columns (`eq(installments.creditId, credits.id)`), never to a request's values. Building
 * a statement of a hundred columns with Drizzle on every request cost more than PostgreSQL's work for it.
 */

/** A value PostgreSQL builds as JSON (an object, a list) and how to read it back. */
export interface JsonPart<T> {
  readonly sql: SQL;
  decode(value: unknown): T;
}

/** What a JSON object holds: columns, other JSON parts, or an SQL expression whose JSON value is read as it is. */
type JsonField = AnyPgColumn | JsonPart<unknown> | SQL<unknown>;
type Decoded<F> = F extends AnyPgColumn ? GetColumnData<F> : F extends JsonPart<infer T> ? T : F extends SQL<infer T> ? T : never;
export type JsonRow<Fields extends Record<string, JsonField>> = { [K in keyof Fields]: Decoded<Fields[K]> };

/** The fragment written out once, as text. */
const written = (fragment: SQL): SQL => sql.raw(writtenText(fragment));

/**
 * PostgreSQL's limit on a function's arguments (FUNC_MAX_ARGS): json_build_array takes at most this many values, so an
 * object of more fields is refused when it is defined, not when the statement first runs.
 */
const MAX_FIELDS = 100;

/** `fields` as a `json_build_array` of their values in order, decoded back into a row of the same keys. */
export function jsonObject<Fields extends Record<string, JsonField>>(fields: Fields): JsonPart<JsonRow<Fields>> {
  const entries = Object.entries(fields).map(([key, field]) => {
    if (is(field, Column)) return { key, sql: asResultValue(field), decode: (value: unknown) => field.mapFromDriverValue(value) };
    if (is(field, SQL)) return { key, sql: field, decode: (value: unknown) => value };
    return { key, sql: field.sql, decode: (value: unknown) => field.decode(value) };
  });
  if (entries.length > MAX_FIELDS)
    throw new Error(`jsonObject: ${entries.length} campos; PostgreSQL admite ${MAX_FIELDS} valores por json_build_array`);
  const values = sql.join(
    entries.map((entry) => entry.sql),
    sql`, `,
  );
  return {
    sql: written(sql`json_build_array(${values})`),
    decode(value) {
      const stored = value as unknown[];
      const row: Record<string, unknown> = {};
      for (let index = 0; index < entries.length; index++) {
        const { key, decode } = entries[index]!;
        const item = stored[index];
        row[key] = item === null ? null : decode(item);
      }
      return row as JsonRow<Fields>;
    },
  };
}

/** A subquery whose one value PostgreSQL builds as JSON, written out once and read back by `decode`: a field of a jsonObject. */
export function jsonSubquery<T>(subquery: SQL, decode: (value: unknown) => T): JsonPart<T> {
  return { sql: written(subquery), decode };
}

/**
 * The rows of `query` (in `orderBy` order, at most `limit`) as a JSON array of `fields`, each decoded and passed through
 * `toItem`: a field of a jsonObject.
 */
export function jsonList<Fields extends Record<string, JsonField>, Item>(
  fields: Fields,
  query: { from: SQL; where: SQL; orderBy: SQL[]; limit?: number },
  toItem: (row: JsonRow<Fields>) => Item,
): JsonPart<Item[]> {
  const item = jsonObject(fields);
  const order = sql.join(query.orderBy, sql`, `);
  const limit = query.limit === undefined ? sql`` : sql` limit ${sql.raw(String(Math.trunc(query.limit)))}`;
  return {
    sql: written(
      sql`(select coalesce(json_agg(q.item order by q.n), '[]'::json) from (select ${item.sql} as item, row_number() over (order by ${order}) as n ${query.from} where ${query.where} order by ${order}${limit}) q)`,
    ),
    decode: (value) => (value as unknown[]).map((stored) => toItem(item.decode(stored))),
  };
}

/**
 * A whole statement whose answer is one JSON value per row: `select <value> as value <rest>`, written out once, followed
 * on each call by what depends on the request (a `where` with its parameters). A value the head itself needs on each
 * call (a date) is written in it as `$<n>`, n counting after the tail's parameters: declare how many the tail brings
 * (`tailParameters`) and pass the head's values to `run` in order (`valuesAfterTail`); a tail with another count is
 * refused, so the head's `$<n>` never names one of the tail's values.
 */
export function jsonStatement<T>(value: JsonPart<T>, rest: SQL, options: { tailParameters?: number } = {}) {
  const statement = headedStatement(writtenText(sql`select ${value.sql} as value ${rest}`));
  return {
    async run(db: Session, tail: SQL, valuesAfterTail: readonly unknown[] = []): Promise<T[]> {
      const written = statement(tail);
      if (valuesAfterTail.length > 0 && written.params.length !== options.tailParameters)
        throw new Error(
          `jsonStatement: la cola trae ${written.params.length} parámetros; la cabecera cuenta con ${options.tailParameters}`,
        );
      const params = valuesAfterTail.length > 0 ? [...written.params, ...valuesAfterTail] : written.params;
      const rows = await writtenRows<{ value: unknown }>(db, { sql: written.sql, params });
      return rows.map((row) => value.decode(row.value));
    },
  };
}

/**
 * The column as the driver would receive it: as text where JSON would change it (numeric's scale, the timestamp's
 * format, a bigint's precision), as JSON where the driver parses it into the same value (numbers, booleans, json,
 * arrays). A uuid and a date need no cast: JSON writes them as the same string their text is (a date in ISO 8601,
 * `YYYY-MM-DD`, whatever the session's DateStyle), and a cast is two type look-ups and a copy at each execution
 * (docs/production-figures.md, "Issue 52, stop 67").
 */
export function asResultValue(column: AnyPgColumn): SQL {
  if (column.columnType === 'PgUUID' || column.columnType === 'PgDateString') return sql`${column}`;
  switch (column.dataType) {
    case 'number':
    case 'boolean':
    case 'json':
    case 'array':
      return sql`${column}`;
    case 'string':
    case 'date':
    case 'bigint':
      return sql`${column}::text`;
    default:
      throw new Error(`jsonObject: la columna ${column.name} (${column.dataType}) no se lee como JSON`);
  }
}
