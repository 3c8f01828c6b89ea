import { getTableColumns, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from './client';
import { jsonParam } from './array-param';

/**
 * Inserts rows, written as Drizzle's insert takes them, in one statement with one JSON parameter
 * (`json_populate_recordset`), in the order given (a serial column follows it). Thousands of rows of many columns as
 * bound parameters cost the driver and the server more than the rows themselves (the demo seed's history payments,
 * docs/measurements.md, stop 69). Every row names the same columns; the table's others take their defaults. Each value
 * is read from its JSON by its column's type: an amount from its text, a `Date` from its ISO instant.
 */
export async function insertAsJson<Table extends PgTable>(tx: Tx, table: Table, rows: readonly Table['$inferInsert'][]): Promise<void> {
  if (rows.length === 0) return;
  const columns = getTableColumns(table);
  const keys = Object.keys(rows[0]!);
  const names = keys.map((key) => {
    const column = columns[key];
    if (!column) throw new Error(`insertAsJson: ${key} no es una columna de la tabla`);
    return column.name;
  });
  const records = rows.map((row) => {
    const values = row as Record<string, unknown>;
    if (Object.keys(values).length !== keys.length) throw new Error('insertAsJson: todas las filas deben nombrar las mismas columnas');
    const record: Record<string, unknown> = {};
    keys.forEach((key, index) => {
      if (!(key in values)) throw new Error(`insertAsJson: una fila no trae ${key}`);
      record[names[index]!] = values[key];
    });
    return record;
  });
  const list = sql.join(
    names.map((name) => sql.identifier(name)),
    sql`, `,
  );
  await tx.execute(sql`
    insert into ${table} (${list})
    select ${list} from json_populate_recordset(null::${table}, ${jsonParam(records)}) with ordinality order by ordinality`);
}
