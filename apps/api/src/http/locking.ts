import { HttpProblem } from './errors';

/**
 * Optimistic locking, once: an edit names the version it was made on; the row is locked for the transaction and the
 * edit refused with 409 when someone changed it since (or 404 when it is gone).
 */

export interface ProblemText {
  title: string;
  detail: string;
}

/** The row as it is now, locked for this transaction (SELECT … FOR UPDATE); 404 with `notFound` when there is none. */
export async function lockForUpdate<Row>(select: { for(strength: 'update'): PromiseLike<Row[]> }, notFound: ProblemText): Promise<Row> {
  const [current] = await select.for('update');
  if (!current) throw new HttpProblem(404, notFound.title, notFound.detail);
  return current;
}

/** What a stale edit is told: fixed, or worded from the row as it is now. */
export type StaleText<Row> = ProblemText | ((current: Row) => ProblemText);

/** 409 with `stale` when the row is no longer at the version the edit was made on. */
export function assertVersion<Row extends { version: number }>(current: Row, version: number, stale: StaleText<Row>): void {
  if (current.version === version) return;
  const text = typeof stale === 'function' ? stale(current) : stale;
  throw new HttpProblem(409, text.title, text.detail);
}

/** Both: the row locked, and at the edit's version. */
export async function lockAtVersion<Row extends { version: number }>(
  select: { for(strength: 'update'): PromiseLike<Row[]> },
  version: number,
  texts: { notFound: ProblemText; stale: StaleText<Row> },
): Promise<Row> {
  const current = await lockForUpdate(select, texts.notFound);
  assertVersion(current, version, texts.stale);
  return current;
}
