import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { asSystem } from '../db/scope';

/** Every table of the portal's schema: its row count and, for each numeric (money) column, the sum and a checksum. */
export type Fingerprint = Record<string, { rows: number; numeric: Record<string, { sum: string | null; md5: string | null }> }>;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * A database's contents in a form two copies can be compared by: counted and summed by PostgreSQL itself, the checksum
 * over each numeric column's values in their own order (independent of where the rows sit on disk).
 */
export async function fingerprint(db: Db): Promise<Fingerprint> {
  return asSystem(db, async (tx) => {
    const { rows: columns } = (await tx.execute(sql`
      select t.table_name as "table", c.column_name as "column", c.data_type as "type"
      from information_schema.tables t
      join information_schema.columns c on c.table_schema = t.table_schema and c.table_name = t.table_name
      where t.table_schema = 'public' and t.table_type = 'BASE TABLE'
      order by t.table_name, c.ordinal_position`)) as unknown as { rows: { table: string; column: string; type: string }[] };
    const tables = new Map<string, string[]>();
    for (const column of columns) {
      const numeric = tables.get(column.table) ?? [];
      if (column.type === 'numeric') numeric.push(column.column);
      tables.set(column.table, numeric);
    }
    const result: Fingerprint = {};
    for (const [table, numeric] of tables) {
      const parts = [
        'count(*)::int as rows',
        ...numeric.flatMap((column, index) => [
          `sum(${quote(column)})::text as s${index}`,
          `md5(string_agg(${quote(column)}::text, ',' order by ${quote(column)})) as m${index}`,
        ]),
      ];
      const { rows } = (await tx.execute(sql.raw(`select ${parts.join(', ')} from ${quote(table)}`))) as unknown as {
        rows: Record<string, string | number | null>[];
      };
      const row = rows[0]!;
      result[table] = {
        rows: row.rows as number,
        numeric: Object.fromEntries(
          numeric.map((column, index) => [column, { sum: row[`s${index}`] as string | null, md5: row[`m${index}`] as string | null }]),
        ),
      };
    }
    return result;
  });
}
