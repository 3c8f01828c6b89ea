import type pg from 'pg';

/**
 * Server-side prepared statements for the statements a connection repeats. PostgreSQL parses, rewrites (row-level
 * security) and plans an unnamed statement every time it runs: for the credit view's dozen statements that was five
 * times the work of running them (pgbench, its transaction with parameters, 20 clients: 200 per second unnamed, 1,200
 * prepared). A statement with parameters (every query Drizzle builds) is sent under a name the first time this
 * connection sees its text and by that name afterwards, so PostgreSQL keeps its plan: a generic plan where it costs no
 * more than the plans made for the values, a plan per execution otherwise (plan_cache_mode auto; pgx and the JDBC driver
 * prepare repeated statements the same way). Row-level security stays exact: PostgreSQL plans a kept statement again
 * when a transaction runs it as another role (SA's portal_all after a company's portal_app).
 *
 * A query without parameters is prepared too (a list's page, whose size and offset are written into its text,
 * pagination.ts): without a name PostgreSQL plans it at every execution. Other statements without parameters
 * (BEGIN, COMMIT, a scope's setup, a migration's script of several statements) keep the simple protocol.
 *
 * At most `capacity` statements per connection: the least recently used is deallocated when a new text arrives.
 */
export function cacheStatements(client: pg.PoolClient, capacity: number): void {
  /** Statement text → its name on this connection, least recently used first. */
  const names = new Map<string, string>();
  let made = 0;
  const send = client.query.bind(client) as (config: unknown, values?: unknown, callback?: unknown) => unknown;
  /** node-postgres's own record of what it parsed on the connection: a deallocated name must leave it too. */
  const parsed = (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements;

  const deallocate = (name: string) => {
    // Queued behind the statements already sent, so none of them loses its statement midway. In an aborted
    // transaction it fails and the statement stays on the server until the connection closes; its name is never reused.
    const forget = () => delete parsed[name];
    void (send(`deallocate ${name}`) as Promise<unknown>).then(forget, forget);
  };

  const nameOf = (text: string): string => {
    const known = names.get(text);
    if (known) {
      names.delete(text);
      names.set(text, known);
      return known;
    }
    const name = `portal_${++made}`;
    names.set(text, name);
    if (names.size > capacity) {
      const [oldest, oldName] = names.entries().next().value!;
      names.delete(oldest);
      deallocate(oldName);
    }
    return name;
  };

  client.query = ((query: unknown, values?: unknown, callback?: unknown) => {
    const config = typeof query === 'string' ? { text: query } : query;
    if (
      callback !== undefined ||
      typeof values === 'function' ||
      !isUnnamedStatement(config) ||
      !(hasParameters(config, values) || isQuery(config.text))
    ) {
      return send(query, values, callback);
    }
    const name = nameOf(config.text);
    return (send({ ...config, name }, values) as Promise<unknown>).catch((error: unknown) => {
      // A table whose columns changed under a kept statement (a migration by a newer release) fails it with "cached
      // plan must not change result type" each time: the next use prepares the text again under a new name.
      if (isStalePlan(error) && names.get(config.text) === name) {
        names.delete(config.text);
        deallocate(name);
      }
      throw error;
    });
  }) as typeof client.query;
}

interface StatementConfig {
  text: string;
  values?: unknown[];
}

function isUnnamedStatement(config: unknown): config is StatementConfig {
  if (typeof config !== 'object' || config === null) return false;
  const candidate = config as { text?: unknown; name?: unknown; submit?: unknown };
  return typeof candidate.text === 'string' && candidate.name === undefined && typeof candidate.submit !== 'function';
}

function hasParameters(config: StatementConfig, values: unknown): boolean {
  const given = Array.isArray(values) ? values : config.values;
  return Array.isArray(given) && given.length > 0;
}

function isStalePlan(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === '0A000' &&
    /cached plan/.test(String((error as Error).message))
  );
}

/** A read (SELECT, or WITH … SELECT): one statement, which the extended protocol can prepare. */
const isQuery = (text: string): boolean => /^\s*(select|with)\b/i.test(text);
