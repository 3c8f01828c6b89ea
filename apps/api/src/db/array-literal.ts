/**
 * A PostgreSQL array literal of `values`, each quoted (NULL for null), for one array parameter however many values:
 * whatever text a file's row brings (commas, braces, quotes, backslashes) reads back as it was.
 */
export const arrayLiteral = (values: readonly (string | number | null)[]): string =>
  `{${values.map((value) => (value === null ? 'NULL' : `"${String(value).replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(',')}}`;
