import { sql, type SQL } from 'drizzle-orm';

/** Element types whose values' text never needs quoting inside an array literal. */
export type PlainType = 'uuid' | 'int' | 'bigint' | 'numeric' | 'date' | 'boolean';

/** What would end an element early or change its meaning inside `{…}`: a value is never quoted here, so none may hold it. */
const UNSAFE = /[\s",{}\\]|^$|^null$/i;

/** A text element quoted, so that whatever a file's cell brings (commas, braces, quotes, backslashes, `NULL`) reads back as it was. */
const quoted = (value: string | number) => `"${String(value).replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/**
 * A batch's column as one typed array parameter, `'{a,b,NULL}'::type[]`, for `unnest(…)` (one parameter however many
 * rows). Each element is read by its type's own input function, an amount from its text exactly as written (never
 * through a JavaScript number). PostgreSQL reads such arrays for less than the same rows as JSON objects, whose keys
 * it matches object by object, and a value read as JSON is read again by its column's type (docs/measurements.md,
 * stop 64). A value of a plain type that would break the literal is refused rather than shift the column's rows; text
 * is quoted.
 */
export function arrayParam(type: PlainType | 'text', values: readonly (string | number | null)[]): SQL {
  const text = values
    .map((value) => {
      if (value === null) return 'NULL';
      if (type === 'text') return quoted(value);
      if (typeof value === 'string' && UNSAFE.test(value))
        throw new Error(`Valor no apto para un arreglo ${type}[]: ${JSON.stringify(value)}`);
      return value;
    })
    .join(',');
  return sql`${`{${text}}`}::${sql.raw(type)}[]`;
}

/** A column of `unnestColumns`: its name (the code's own, never input), its type, and its value in each row. */
export type UnnestColumn<Row> = readonly [
  name: string,
  type: PlainType | 'text',
  value: (row: Row, index: number) => string | number | null,
];

/**
 * A batch's rows as `unnest(…) as x(…)`: one typed array per column (arrayParam), each named as given, for an
 * `update … from` or `insert … select` that reads the rows by those names.
 */
export function unnestColumns<Row>(rows: readonly Row[], columns: readonly UnnestColumn<Row>[]): SQL {
  const arrays = columns.map(([, type, value]) => arrayParam(type, rows.map(value)));
  return sql`unnest(${sql.join(arrays, sql`, `)}) as x(${sql.raw(columns.map(([name]) => name).join(', '))})`;
}

/** unnestColumns of rows whose keys are the columns' names (a batch's records, written by the code). */
export function unnestRows<Row, Key extends keyof Row & string>(
  rows: readonly Row[],
  columns: readonly (readonly [Key, PlainType])[],
): SQL {
  return unnestColumns(
    rows,
    columns.map(([key, type]): UnnestColumn<Row> => [key, type, (row) => row[key] as string | number | null]),
  );
}

/** A value as one JSON parameter, for `json_to_recordset(…)` and the like. */
export const jsonParam = (value: unknown): SQL => sql`${JSON.stringify(value)}::json`;

/** Values already written as JSON, as one JSON array parameter, for `json_array_elements(…)`: each element's text is kept as written. */
export const jsonElements = (items: readonly string[]): SQL => sql`json_array_elements(${`[${items.join(',')}]`}::json)`;
