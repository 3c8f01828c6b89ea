/** The rows of a raw `tx.execute(sql…)`: node-postgres and PGlite both answer `{ rows }`; T names their columns. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
