import { sql } from 'drizzle-orm';
import { PgBoss, fromDrizzle, fromPglite } from 'pg-boss';
import pg from 'pg';
import { APP_ROLE, type Database, type Tx } from '../db/client';
import { ALL_COMPANIES_ROLE_NAME } from '../db/scope';

/**
 * Work that outlives a request (a day close; later payment files and reports) goes through pg-boss, a job queue kept
 * in PostgreSQL: any API process may pick a job up, and a job waiting or interrupted by a restart is still there
 * when a process starts again (an interrupted one is retried after its expiry). On PGlite the same queue runs in
 * process, through pg-boss's PGlite backend.
 */
export interface JobQueue {
  /** Queues a job inside the caller's transaction (it exists only if that commits) and answers its id. */
  send(queue: string, data: object, tx: Tx): Promise<string>;
  /** Runs `handler` for the queue's jobs in this process, one at a time. */
  work<T extends object>(queue: string, handler: (data: T, jobId: string) => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts pg-boss on the application's database. PostgreSQL: its own small pool as the connecting (owner) role,
 * which creates and migrates the pgboss schema. PGlite (one session, already acting as the application's role): the
 * schema is created as the owner, then the application's role is given its tables and the session returns to it.
 */
export async function startJobQueue(database: Database, postgresUrl: string | undefined, queues: readonly string[]): Promise<JobQueue> {
  let boss: PgBoss;
  // A request queues its job in its own transaction, as the application's role (portal_app), or as portal_all when the
  // user is role SA: both may write pg-boss's tables (an administrator's report run was refused without the second).
  const roles = `${APP_ROLE}, ${ALL_COMPANIES_ROLE_NAME}`;
  const grants = `
    grant usage on schema pgboss to ${roles};
    grant select, insert, update on all tables in schema pgboss to ${roles};
    grant usage, select on all sequences in schema pgboss to ${roles};
    grant execute on all functions in schema pgboss to ${roles};`;
  if (database.pglite) {
    const pglite = database.pglite;
    await pglite.exec('reset role');
    boss = new PgBoss({ db: fromPglite(pglite), backend: 'pglite', schedule: false });
    await startBoss(boss, queues);
    // On PGlite's one session pg-boss itself runs as the application's role from here on.
    await pglite.exec(
      `${grants} grant create on schema pgboss to ${APP_ROLE}; grant delete on all tables in schema pgboss to ${APP_ROLE}; set role ${APP_ROLE}`,
    );
  } else {
    if (!postgresUrl) throw new Error('startJobQueue: PostgreSQL needs its URL');
    boss = new PgBoss({ connectionString: postgresUrl, max: 4, schedule: false });
    // Replicas starting together would race on the schema and the grants ("tuple concurrently updated"): one at a time.
    const owner = new pg.Client({ connectionString: postgresUrl });
    await owner.connect();
    try {
      await owner.query(`select pg_advisory_lock(hashtext('portal:job-queue:start'))`);
      await startBoss(boss, queues);
      await owner.query(grants);
    } finally {
      await owner.end();
    }
  }
  return {
    async send(queue, data, tx) {
      const id = await boss.send(queue, data, { db: fromDrizzle(tx as unknown as Parameters<typeof fromDrizzle>[0], sql) });
      if (!id) throw new Error(`pg-boss no aceptó el trabajo de ${queue}`);
      return id;
    },
    async work(queue, handler) {
      await boss.work<object>(queue, { pollingIntervalSeconds: 0.5 }, async (jobs) => {
        for (const job of jobs) await handler(job.data as never, job.id);
      });
    },
    stop: () => boss.stop({ graceful: true }),
  };
}

/** Starts pg-boss and creates the queues (idempotent): before any request sends to one, since on PGlite's single
 * session the creation could not run beside the request's open transaction. */
async function startBoss(boss: PgBoss, queues: readonly string[]): Promise<void> {
  // Errors inside pg-boss's own loops (a dropped connection) are reported, never fatal to the process.
  boss.on('error', (error) => console.error(`Cola de trabajos: ${(error as Error).message}`));
  await boss.start();
  for (const queue of queues) await boss.createQueue(queue);
}
