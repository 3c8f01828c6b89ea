import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { DEFAULT_POOL_SIZE } from '../config';
import { MIGRATIONS_FOLDER, migrateWithLock } from './migrate';
import { cacheStatements } from './statement-cache';
import { coalesceWrites } from './write-coalescing';
import * as agreementTables from './schema/agreements';
import * as auditTables from './schema/audit';
import * as creditTables from './schema/credits';
import * as deductionOrderTables from './schema/deduction-orders';
import * as idpTables from './schema/idp';
import * as labelTables from './schema/labels';
import * as letterTables from './schema/letters';
import * as originationTables from './schema/origination';
import * as paymentTables from './schema/payments';
import * as portfolioTables from './schema/portfolio';
import * as reportTables from './schema/reports';
import * as treasuryTables from './schema/treasury';
import * as userTables from './schema/users';

/** Every area's tables (db/schema/<area>.ts), for Drizzle's typed client. */
export const schema = {
  ...userTables,
  ...auditTables,
  ...idpTables,
  ...agreementTables,
  ...originationTables,
  ...creditTables,
  ...portfolioTables,
  ...paymentTables,
  ...labelTables,
  ...letterTables,
  ...reportTables,
  ...deductionOrderTables,
  ...treasuryTables,
};

/** One Drizzle type for both drivers: the code never knows whether PGlite or PostgreSQL is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** The embedded engine itself, for dumping a migrated database once and loading it in each test. */
  pglite: PGlite | null;
  close(): Promise<void>;
}

export type DatabaseTarget =
  { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob } | { kind: 'postgres'; url: string; poolSize?: number };

/**
 * The role the API's queries run as: row-level security applies to it (see 0005_company_scope.sql and scope.ts). The
 * tables' owner only migrates; nothing the application does runs as the owner, so a query that forgets the company
 * still cannot read or write another company's rows.
 */
export const APP_ROLE = 'portal_app';

/**
 * Opens the database for the application, as APP_ROLE. With `migrate`, first applies the migrations as the connecting
 * (owner) role, on a connection of their own (on PostgreSQL behind the advisory lock of migrate.ts).
 */
export async function openDatabase(target: DatabaseTarget, options: { migrate?: boolean } = {}): Promise<Database> {
  if (target.kind === 'postgres') {
    if (options.migrate) await migrateWithLock(target.url);
    // The role is a startup parameter: a connection that cannot take it (an unmigrated database) fails instead of
    // silently running as the owner. JIT compilation and parallel workers are off: the API's statements are short,
    // repeated and many at once, PostgreSQL compiles at every execution, and a statement's workers compete with the
    // other requests' (decision 0015). Each request holds one connection for its whole transaction: DEFAULT_POOL_SIZE
    // of them, or DATABASE_POOL_SIZE (each replica has its own pool: replicas × size stay under max_connections).
    // Pipelined: a statement goes to the server without waiting for the answers of those before it on the connection
    // (each still its own exchange, answered in order), so a transaction's BEGIN travels with its first statement and
    // the reads that do not depend on each other go together (transactionWith, together).
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize ?? DEFAULT_POOL_SIZE,
      options: `-c role=${APP_ROLE} -c jit=off -c max_parallel_workers_per_gather=0`,
      pipeline: true,
    });
    // An idle connection the server closed (restart, failover, a dropped test database) is replaced by the pool on
    // the next query; without a listener its 'error' event would end the whole process.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => {
      cacheStatements(client, STATEMENTS_PER_CONNECTION);
      coalesceWrites(client);
    });
    // Fail at start with the real reason (wrong host, missing database) rather than at the first request.
    await pool.query('select 1');
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    oneTripOpeners.set(db, oneTripOpener(pool, db));
    return { db, driver: 'postgres', pglite: null, close: () => pool.end() };
  }
  const client = await PGlite.create({
    // The same extensions the migrations create on PostgreSQL.
    extensions: { pg_trgm },
    ...(target.dataDir ? { dataDir: target.dataDir } : {}),
    ...(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}),
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  // PGlite has one connection: migrate as its owner, then become APP_ROLE for the rest of its life.
  if (options.migrate) await migratePglite(db as unknown as Parameters<typeof migratePglite>[0], { migrationsFolder: MIGRATIONS_FOLDER });
  await client.exec(`set role ${APP_ROLE}`);
  return { db, driver: 'pglite', pglite: client, close: () => client.close() };
}

/** Prepared statements each PostgreSQL connection keeps (statement-cache.ts): the API's hot reads fit many times over. */
const STATEMENTS_PER_CONNECTION = 200;

type TransactionOpener = <T>(setup: string, work: (tx: Tx) => Promise<T>, options: TransactionOptions) => Promise<T>;

export interface TransactionOptions {
  /**
   * `work` sends every statement it makes in the turn of the event loop it starts in, before waiting for any answer
   * (a route's readsInOneTurn, register.ts). On PostgreSQL COMMIT is then sent at that turn's end, in the same write
   * as BEGIN and the statements: the whole transaction is one exchange. A statement sent after the COMMIT is refused
   * with an error. Elsewhere (PGlite) the transaction commits when `work` resolves, as any other.
   */
  commitInFirstTurn?: boolean;
}

/** The databases openDatabase made on PostgreSQL, each with its way to open a transaction in one round trip. */
const oneTripOpeners = new WeakMap<Db, TransactionOpener>();

/**
 * Runs `work` in a transaction whose first statement is `setup` (one statement, no parameters: text the caller made
 * safe). On PostgreSQL BEGIN and the setup travel in one message that `work`'s first statement follows without waiting
 * for its answer, so opening the transaction costs no round trip of its own; elsewhere (PGlite, in process) it is
 * BEGIN and then the statement. Commits when `work` resolves, rolls back when it throws, as Drizzle's db.transaction
 * does.
 */
export function transactionWith<T>(db: Db, setup: string, work: (tx: Tx) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const open = oneTripOpeners.get(db);
  if (open) return open(setup, work, options);
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(setup));
    return work(tx);
  });
}

/**
 * Drizzle's node-postgres transaction (its session and transaction classes on one pooled connection), opened with
 * `BEGIN; <setup>` in one simple-protocol message; PostgreSQL keeps the transaction open after the message. The
 * connection pipelines (openDatabase), so `work`'s statements are sent behind that message at once and the server runs
 * them after it, in order. Should the opening fail, its error is the one reported and the statements behind it fail
 * with it (an aborted transaction). Only an opening PostgreSQL cannot parse would leave BEGIN unrun and the statements
 * behind it on their own, with no company set (no rows under row-level security); the only caller, withScope, sends
 * one of two fixed texts around an escaped literal.
 */
function oneTripOpener(pool: pg.Pool, db: Db): TransactionOpener {
  const dialect = new PgDialect();
  const relational = { fullSchema: db._.fullSchema, schema: db._.schema!, tableNamesMap: db._.tableNamesMap };
  // Drizzle's transaction constructor builds a relational query builder for every table of the schema: it runs once,
  // here, and each transaction's object is this one with a session of its own on its connection (transactionOn). The
  // builders it made are not used (no `tx.query`); should one be, its session refuses rather than run outside a
  // transaction.
  const outside: Gate = { refusal: 'Una consulta relacional (tx.query) no corre en la transacción de la petición.' };
  const template = new NodePgTransaction(dialect, new NodePgSession(gatedClient(pool, outside), dialect, relational), relational);
  // A transaction's own object: its statements go to its connection only while its gate is open. The gate closes when
  // the transaction ends, so a reference kept past its end (work that was not awaited) is refused instead of running
  // on the connection the pool has since given to another request, in that request's company.
  const transactionOn = (client: pg.PoolClient, gate: Gate): Tx => {
    const session = new NodePgSession(gatedClient(client, gate), dialect, relational);
    const tx = Object.create(template) as { session: unknown; _: unknown };
    tx.session = session;
    tx._ = { ...template._, session };
    return tx as unknown as Tx;
  };
  return async (setup, work, options) => {
    const client = await pool.connect();
    const gate: Gate = { refusal: undefined };
    const tx = transactionOn(client, gate);
    let broken: Error | undefined;
    // Scheduled before BEGIN is sent, so it runs before the write coalescing's end of turn (setImmediate keeps the
    // order callbacks were scheduled in): the COMMIT joins the turn's one write.
    const committed = options.commitInFirstTurn
      ? new Promise<{ error: unknown } | undefined>((resolve) =>
          setImmediate(() => {
            gate.refusal = 'La ruta declara que envía sus lecturas juntas (readsInOneTurn) y envió una después del COMMIT.';
            resolve(
              client.query('commit').then(
                () => undefined,
                (error: unknown) => ({ error }),
              ),
            );
          }),
        )
      : undefined;
    // The transaction's end: the gate closes as COMMIT or ROLLBACK is sent, not when it is answered, so a statement sent
    // in between is refused rather than queued behind it, to run outside the transaction (a write kept, rolled back or not).
    const end = (statement: 'commit' | 'rollback') => {
      gate.refusal ??= ENDED;
      return client.query(statement);
    };
    const opened = client.query(`begin; ${setup}`).then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    try {
      const result = await work(tx);
      const failedOpening = await opened;
      if (failedOpening) throw failedOpening.error;
      const failedCommit = committed ? await committed : await end('commit').then(() => undefined);
      if (failedCommit) throw failedCommit.error;
      return result;
    } catch (error) {
      const failedOpening = await opened;
      await committed;
      // A connection that cannot even roll back is not given to the next request.
      await end('rollback').catch((rollbackError: Error) => (broken = rollbackError));
      throw failedOpening ? failedOpening.error : error;
    } finally {
      gate.refusal = ENDED;
      client.release(broken);
    }
  };
}

const ENDED = 'La transacción ya terminó: una sentencia enviada después de su COMMIT o ROLLBACK no se envía.';

/** Whether a transaction's statements may still go to its connection: `refusal` says why not, once they may not. */
interface Gate {
  refusal: string | undefined;
}

/** The part of a connection Drizzle's session uses, sending each statement only while `gate` is open. */
function gatedClient(client: pg.PoolClient | pg.Pool, gate: Gate): pg.PoolClient {
  return {
    pipeline: (client as { pipeline?: unknown }).pipeline,
    query: (...args: unknown[]) => {
      if (gate.refusal !== undefined) throw new Error(gate.refusal);
      return (client.query as (...args: unknown[]) => unknown).apply(client, args);
    },
  } as unknown as pg.PoolClient;
}

/**
 * Statements of one transaction whose answers do not depend on each other (a list's page and its count), each not yet
 * sent (a Drizzle query or a fixed select: sent when awaited). On a pipelined connection (PostgreSQL) they go to the
 * server together and their answers come back in one wait; PGlite's single connection takes one exchange at a time,
 * so there they go one after the other. Answers them in order; fails with the first failure.
 */
export async function together<A, B>(db: object, first: PromiseLike<A>, second: PromiseLike<B>): Promise<[A, B]> {
  if (pipelines(db)) return Promise.all([first, second]);
  return [await first, await second];
}

/** Whether `db` is a transaction on a pipelined connection (openDatabase's pool on PostgreSQL). */
export function pipelines(db: object): boolean {
  const session = (db as unknown as { _?: { session?: { client?: { pipeline?: unknown } } } })._?.session;
  return session?.client?.pipeline === true;
}

export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
