import { getTableColumns, is, sql, SQL, type Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from './client';
import { jsonParam } from './array-param';

/**
 * What a row that does not name a column is written with, as Drizzle's insert writes it (`default`): the column's
 * default where the schema gives it as a value (`.default('0')`), null where it gives none. A default the database
 * computes (`defaultNow()`, an SQL expression, `$defaultFn`) has no value to write here: a row must then name the column.
 */
function defaultValue(key: string, column: Column): unknown {
  if (!column.hasDefault) return null;
  if (column.defaultFn === undefined && column.default !== undefined && !is(column.default, SQL)) return column.default;
  throw new Error(`insertAsJson: una fila no trae ${key}, cuyo valor por omisión no es un valor fijo`);
}

/**
 * Inserts rows, written as Drizzle's insert takes them, in one statement with one JSON parameter
 * (`json_populate_recordset`), in the order given (a serial column follows it). Thousands of rows of many columns as
 * bound parameters cost the driver and the server more than the rows themselves (the demo seed's history payments,
 * docs/measurements.md, stop 69). The statement names every column some row names; a row that lacks one (or leaves it
 * undefined) takes its default as Drizzle's insert would (defaultValue), and the columns no row names take theirs from
 * the table. Each value is read from its JSON by its column's type: an amount from its text, a `Date` from its ISO instant.
 */
export async function insertAsJson<Table extends PgTable>(tx: Tx, table: Table, rows: readonly Table['$inferInsert'][]): Promise<void> {
  if (rows.length === 0) return;
  const columns = getTableColumns(table);
  const keys = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) keys.add(key);
  const named = [...keys].map((key) => {
    const column = columns[key];
    if (!column) throw new Error(`insertAsJson: ${key} no es una columna de la tabla`);
    return { key, name: column.name, column };
  });
  const records = rows.map((row) => {
    const values = row as Record<string, unknown>;
    const record: Record<string, unknown> = {};
    for (const { key, name, column } of named) {
      const value = values[key];
      record[name] = value === undefined ? defaultValue(key, column) : value;
    }
    return record;
  });
  const list = sql.join(
    named.map(({ name }) => sql.identifier(name)),
    sql`, `,
  );
  await tx.execute(sql`
    insert into ${table} (${list})
    select ${list} from json_populate_recordset(null::${table}, ${jsonParam(records)}) with ordinality order by ordinality`);
}
