/**
 * `npx tsx bench/statement-instructions.ts <database> <credit id>…` (from apps/api): how many processor instructions
 * PostgreSQL spends on one execution of the credit view's statement (this tree's) for each credit, and on the floor
 * (the agreement options' statement), counted by valgrind: the same figure on a busy machine as on a quiet one
 * (docs/production-figures.md, issue 52's stops 61, 65 and 66).
 *
 * The database (on BENCH_DATABASE_URL's server, e.g. the one `LOADTEST_KEEP=1 npm run loadtest` keeps) is copied once
 * into a cluster of its own, STATEMENT_CLUSTER (default /tmp/statement-instructions-<database>; kept for the next run,
 * remove it when done): initdb, the roles, pg_dump | pg_restore, vacuum analyze. Each statement then runs in a
 * single-user backend under cachegrind as portal_app in the credit's company's scope, as the API runs it: BEGIN,
 * `SET LOCAL app.company_id` as db/scope.ts sets it since stop 67 (BENCH_SET_CONFIG=1: stops 61–66's `select
 * set_config(…)`), EXECUTE of the prepared statement, COMMIT; the generic plan. 120 times and 20 times: the difference / 100
 * leaves out the backend's start and the statement's planning. Needs valgrind and PostgreSQL's programs (PG_BIN, by
 * default /usr/lib/postgresql/15/bin); as root, the cluster's programs run as the postgres user.
 */
import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Tx } from '../src/db/client';
import { agreementOptions, loadCredit } from '../src/modules/credits/credits.queries';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const RUNS = 100;
const WARM = 20;

const database = process.argv[2] ?? '';
const creditIds = process.argv.slice(3);
if (database === '' || creditIds.length === 0) throw new Error('uso: statement-instructions.ts <base> <id de crédito>…');
const cluster = process.env.STATEMENT_CLUSTER ?? path.join(tmpdir(), `statement-instructions-${database}`);
const socket = path.join(cluster, 'socket');
const asPostgres = process.getuid?.() === 0;

/** A program of the cluster's, as the postgres user when this runs as root (PostgreSQL refuses to run as root). */
function run(program: string, args: string[], options: ExecFileSyncOptions = {}): string {
  const [file, argv] = asPostgres ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
  return String(execFileSync(file, argv, { encoding: 'utf8', maxBuffer: 1 << 28, ...options }));
}

const sourceUrl = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
})();

/** The database copied into a cluster of its own, once (single-user mode needs a data directory no server runs on). */
function prepareCluster(): void {
  if (existsSync(path.join(cluster, 'data', 'PG_VERSION'))) return;
  mkdirSync(socket, { recursive: true });
  if (asPostgres) execFileSync('chown', ['-R', 'postgres', cluster]);
  const data = path.join(cluster, 'data');
  run(path.join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
  const ctl = (action: string) =>
    run(path.join(PG_BIN, 'pg_ctl'), [
      '-D',
      data,
      '-w',
      '-l',
      path.join(cluster, 'log'),
      '-o',
      `-c listen_addresses='' -k ${socket}`,
      action,
    ]);
  ctl('start');
  try {
    const local = ['-h', socket, '-U', 'postgres'];
    const roles = execFileSync('pg_dumpall', ['--roles-only', '-d', ADMIN_URL], { encoding: 'utf8' });
    run('psql', [...local, '-q', '-d', 'postgres'], { input: roles, stdio: ['pipe', 'ignore', 'ignore'] });
    run('createdb', [...local, database]);
    const dump = execFileSync('pg_dump', ['-Fc', sourceUrl], { maxBuffer: 1 << 30 });
    run('pg_restore', [...local, '-d', database], { input: dump });
    run('psql', [...local, '-q', '-d', database, '-c', 'vacuum analyze']);
  } finally {
    ctl('stop');
  }
}

/** The statement `loadCredit` sends, captured from a session that answers no row. */
async function creditViewStatement(): Promise<string> {
  let text = '';
  const session = {
    _: {
      session: {
        prepareQuery: (statement: { sql: string }) => ({
          execute: () => {
            text = statement.sql;
            return Promise.resolve({ rows: [] });
          },
        }),
      },
    },
  };
  await loadCredit(session as unknown as Tx, '00000000-0000-0000-0000-000000000000', '2000-01-01').catch(() => undefined);
  return text;
}

/** Instructions of a backend that prepares `statement` and runs it `times` times in the company's scope. */
function instructions(statement: string, execute: string, companyId: string, times: number): number {
  const folder = mkdtempSync(path.join(tmpdir(), 'statement-instructions-'));
  const input = path.join(folder, 'input');
  const scope =
    process.env.BENCH_SET_CONFIG === '1'
      ? `select set_config('app.company_id', '${companyId}', true)`
      : `set local app.company_id = '${companyId}'`;
  const once = ['begin', scope, execute, 'commit'];
  const lines = ['set plan_cache_mode = force_generic_plan', 'set role portal_app', `prepare measured as ${statement}`];
  for (let k = 0; k < times; k++) lines.push(...once);
  writeFileSync(input, `${lines.join('\n')}\n`);
  chmodSync(folder, 0o755);
  chmodSync(input, 0o644);
  try {
    const args = ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null'];
    const postgres = [path.join(PG_BIN, 'postgres'), '--single', '-D', path.join(cluster, 'data'), database];
    // valgrind writes its summary to stderr; the backend's answers go to stdout.
    const report = run('sh', ['-c', `valgrind ${args.join(' ')} ${postgres.join(' ')} < ${input} 2>&1 >/dev/null`]);
    const match = /I\s+refs:\s+([\d,]+)/.exec(report);
    if (!match) throw new Error(`valgrind no informó instrucciones:\n${report}`);
    return Number(match[1]!.replaceAll(',', ''));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const perExecution = (statement: string, execute: string, companyId: string) =>
  Math.round((instructions(statement, execute, companyId, WARM + RUNS) - instructions(statement, execute, companyId, WARM)) / RUNS);

async function main(): Promise<void> {
  const client = new pg.Client({ connectionString: sourceUrl });
  await client.connect();
  const credits = await client.query<{ id: string; company_id: string; rows: number; today: string }>(
    `select c.id, c.company_id, (select count(*)::int from installments i where i.credit_id = c.id) as rows,
            coalesce((select business_date from business_dates b where b.company_id = c.company_id), current_date)::text as today
     from credits c where c.id = any($1::uuid[]) order by array_position($1::uuid[], c.id)`,
    [creditIds],
  );
  await client.end();
  prepareCluster();
  const view = await creditViewStatement();
  const floor = agreementOptions(drizzle.mock() as unknown as Tx).toSQL().sql;
  console.log('| statement | credit | installments | instructions per execution |\n|---|---|---|---|');
  for (const credit of credits.rows) {
    const figure = perExecution(view, `execute measured('${credit.id}', '${credit.today}')`, credit.company_id);
    console.log(`| credit view | ${credit.id} | ${credit.rows} | ${figure.toLocaleString('en-US')} |`);
  }
  const figure = perExecution(floor, 'execute measured', credits.rows[0]!.company_id);
  console.log(`| floor (agreement options) | | | ${figure.toLocaleString('en-US')} |`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
