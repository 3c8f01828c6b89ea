import type { Socket } from 'node:net';
import type pg from 'pg';

/**
 * The statements a connection is given in one turn of the event loop leave in one write to its socket. On a pipelined
 * connection (client.ts) a transaction's BEGIN and its first statement, or a list's page and its count, are sent
 * without waiting for each other's answers; without this each is a write of its own. Under the production load test a
 * write to the database's socket was the process's costliest call (writev and writeBuffer, 29 % of its samples on the
 * credit view, decision 0020): on this machine's loopback the kernel delivers the data, and wakes PostgreSQL, inside
 * the write.
 *
 * The socket is corked when the turn's first statement is given and uncorked when the turn ends (setImmediate: after
 * the microtasks that send the statements issued together, such as Promise.all's), so a statement waits at most for
 * the rest of the turn.
 */
export function coalesceWrites(client: pg.PoolClient): void {
  const stream = (client as unknown as { connection: { stream: Socket } }).connection.stream;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let corked = false;
  const uncork = () => {
    corked = false;
    stream.uncork();
  };
  client.query = ((...args: unknown[]) => {
    if (!corked) {
      corked = true;
      stream.cork();
      setImmediate(uncork);
    }
    return query(...args);
  }) as typeof client.query;
}
