import { getTableColumns, getTableName, is, SQL, sql, Table } from 'drizzle-orm';
import {
  PgColumn,
  PgDialect,
  QueryBuilder,
  type PgSelectBuilder,
  type PgSession,
  type SelectedFields,
  type SelectedFieldsOrdered,
} from 'drizzle-orm/pg-core';

/**
 * A list's select — its columns, its tables and their joins — written out as text once, when the module loads; a
 * request adds only what depends on it (its filters, order and page), and its rows come back through the columns' own
 * Drizzle mappers, as a Drizzle select of the same fields returns them. Used as a Drizzle select is:
 * `list.in(tx).where(…).orderBy(…).limit(n).offset(m)`, awaited at any step.
 *
 * Why: Drizzle builds and writes out the whole statement at every execution. Under the production load test (50
 * connections, a list's page of 25 at 1,200–1,500 answers a second) building the lists' statements was 17 % of the
 * process's time, on the core the process shares with PostgreSQL.
 *
 * Define at module level. The head's values are written into its text, so it has no parameters; the tail's parameters
 * are the request's. A limit and an offset are written into the text too (integers, never text), so PostgreSQL plans a
 * page's statement once per connection (decision 0017). Decision 0019 has the measurements.
 */
export function fixedSelect<Fields extends SelectedFields, Head extends { _: { result: unknown[] }; getSQL(): SQL }>(
  fields: Fields,
  from: (select: PgSelectBuilder<Fields, 'qb'>) => Head,
): FixedSelect<Head['_']['result'][number]> {
  const head = from(new QueryBuilder().select(fields));
  const ordered = inOrder(fields);
  // Which joined tables may come back empty (a left join), as Drizzle's own select keeps it: a nested object of such a
  // table is null rather than an object of nulls. Drizzle keeps it on the builder without exposing it.
  const joinsNotNullableMap = (head as unknown as { joinsNotNullableMap?: Record<string, boolean> }).joinsNotNullableMap;
  const toRows = rowMapper(ordered, joinsNotNullableMap);

  const statement = headedStatement(writtenText(head));

  function query(db: Session, tail: Tail): FixedQuery<never> {
    const run = () => {
      const clauses = [
        tail.where && sql`where ${tail.where}`,
        tail.orderBy?.length ? sql`order by ${sql.join(tail.orderBy, sql`, `)}` : undefined,
        tail.limit !== undefined ? sql`limit ${writtenInteger(tail.limit)}` : undefined,
        tail.offset !== undefined ? sql`offset ${writtenInteger(tail.offset)}` : undefined,
      ];
      const prepared = db._.session.prepareQuery(
        statement(
          sql.join(
            clauses.filter((clause) => clause !== undefined),
            sql` `,
          ),
        ),
        ordered,
        undefined,
        true,
        toRows,
      );
      return prepared.execute() as Promise<never[]>;
    };
    return {
      db,
      where: (where) => query(db, { ...tail, where }),
      orderBy: (...orderBy) => query(db, { ...tail, orderBy }),
      limit: (limit) => query(db, { ...tail, limit }),
      offset: (offset) => query(db, { ...tail, offset }),
      then: (onFulfilled, onRejected) => run().then(onFulfilled, onRejected),
      catch: (onRejected) => run().catch(onRejected),
      finally: (onFinally) => run().finally(onFinally),
      [Symbol.toStringTag]: 'FixedQuery',
    };
  }

  return { in: (db) => query(db, {}) as FixedQuery<Head['_']['result'][number]> };
}

const dialect = new PgDialect();

/**
 * A statement's fixed part built by Drizzle once (a select's columns, tables and joins; a JSON shape) as text, its
 * values written into it: what is written once holds no parameters.
 */
export function writtenText(fragment: { getSQL(): SQL }): string {
  const written = dialect.sqlToQuery(fragment.getSQL().inlineParams());
  if (written.params.length > 0) throw new Error('writtenText: lo que se escribe una vez no lleva parámetros');
  return written.sql;
}

/** The rows of a headedStatement's statement on `db`'s session, as PostgreSQL names their columns. */
export async function writtenRows<Row>(db: Session, statement: { sql: string; params: unknown[] }): Promise<Row[]> {
  const { rows } = (await db._.session.prepareQuery(statement, undefined, undefined, false).execute()) as { rows: Row[] };
  return rows;
}

/** How many different tails (filters and orders) of one statement keep their whole text (headedStatement). */
const TEXTS_PER_STATEMENT = 64;

/**
 * A statement of a written `head` (text, no parameters), a request's `tail` and a written `foot` after it: its text and
 * the tail's parameters. The text is the same string for the same tail, not written out anew: the statement cache
 * finds a statement's name by its text (statement-cache.ts), and a new string of a few kilobytes is hashed character
 * by character at each lookup — 3 % of the API's samples under the credit view's load, whose statement is 9,067
 * characters. A string kept is hashed once.
 */
export function headedStatement(head: string, foot = ''): (tail: SQL) => { sql: string; params: unknown[] } {
  const texts = new Map<string, string>();
  return (tail) => {
    const rest = dialect.sqlToQuery(tail);
    let text = texts.get(rest.sql);
    if (text === undefined) {
      if (texts.size >= TEXTS_PER_STATEMENT) texts.clear();
      text = `${head} ${rest.sql}${foot}`;
      texts.set(rest.sql, text);
    }
    return { sql: text, params: rest.params };
  };
}

/**
 * An integer (a page's size or offset, a count's cap: validated numbers, never text) written into a statement's text
 * instead of sent as a parameter, so that PostgreSQL plans the prepared statement once per connection (decision 0017).
 */
export const writtenInteger = (value: number): SQL => sql.raw(String(Math.trunc(value)));

/** What depends on the request. */
interface Tail {
  where?: SQL | undefined;
  orderBy?: SQL[];
  limit?: number;
  offset?: number;
}

/** A database handle as fixedSelect uses it: Drizzle's session, which runs a written statement through the fields' mappers. */
export interface Session {
  _: { session: Pick<PgSession, 'prepareQuery'> };
}

/**
 * Drizzle's mapping of a row of `ordered` fields (its mapResultRow: each value through its column's or expression's
 * decoder into its path; a nested object of a left-joined table null when its first column is), worked out once per
 * select instead of per cell. Drizzle asks at every cell what kind of field it holds, walking the field's class chain;
 * on the credits list's page (25 rows of 15 columns) that was 2–3 % of the API's samples.
 */
function rowMapper(
  ordered: SelectedFieldsOrdered,
  joinsNotNullableMap: Record<string, boolean> | undefined,
): (rows: unknown[][]) => unknown[] {
  const cells = ordered.map(({ path, field }) => ({
    parents: path.slice(0, -1),
    key: path.at(-1)!,
    decoder: decoderOf(field),
    table: is(field, PgColumn) && path.length === 2 ? getTableName(field.table) : undefined,
  }));
  // A nested object whose columns are all of one table that the joins may leave empty: null when its first column is.
  const emptiable = [...new Set(cells.flatMap((cell) => (cell.table ? [cell.parents[0]!] : [])))].flatMap((object) => {
    const own = cells.map((cell, index) => ({ cell, index })).filter(({ cell }) => cell.table && cell.parents[0] === object);
    const table = own[0]!.cell.table!;
    return joinsNotNullableMap && own.every(({ cell }) => cell.table === table) && !joinsNotNullableMap[table]
      ? [{ object, first: own[0]!.index }]
      : [];
  });
  return (rows) =>
    rows.map((row) => {
      const result: Record<string, unknown> = {};
      for (let index = 0; index < cells.length; index += 1) {
        const { parents, key, decoder } = cells[index]!;
        let node = result;
        for (const parent of parents) node = (node[parent] ??= {}) as Record<string, unknown>;
        const raw = row[index];
        node[key] = raw === null ? null : decoder.mapFromDriverValue(raw);
      }
      for (const { object, first } of emptiable) if (row[first] === null) result[object] = null;
      return result;
    });
}

type Decoder = { mapFromDriverValue(value: unknown): unknown };

/** What turns a field's value from the driver into the answer's, as Drizzle's mapResultRow finds it. */
function decoderOf(field: SelectedFieldsOrdered[number]['field']): Decoder {
  if (is(field, PgColumn)) return field;
  const expression = is(field, SQL) ? field : (field as SQL.Aliased).sql;
  return (expression as unknown as { decoder: Decoder }).decoder;
}

/** The fields in the order Drizzle's session maps a row of them: each column or expression with its path in the answer. */
function inOrder(fields: object, path: string[] = []): SelectedFieldsOrdered {
  return Object.entries(fields).flatMap(([name, field]: [string, unknown]) => {
    if (is(field, PgColumn) || is(field, SQL) || is(field, SQL.Aliased)) return [{ path: [...path, name], field }];
    // A whole table is the object of its columns, as in Drizzle's select.
    return inOrder(is(field, Table) ? getTableColumns(field) : (field as object), [...path, name]);
  });
}

export interface FixedSelect<Row> {
  /** The select on `db` (a request's transaction), with nothing of a request yet. */
  in(db: Session): FixedQuery<Row>;
}

/** The rows of a fixed select with what a request added; each step answers a new query, and any can be awaited. */
export interface FixedQuery<Row> extends Promise<Row[]> {
  /** The handle it runs on (a request's transaction). */
  readonly db: Session;
  where(where: SQL | undefined): FixedQuery<Row>;
  orderBy(...orderBy: SQL[]): FixedQuery<Row>;
  limit(limit: number): FixedQuery<Row>;
  offset(offset: number): FixedQuery<Row>;
}
