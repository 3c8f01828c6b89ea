/**
 * A payroll payment file at scale (issue 16): on a synthetic portfolio of BENCH_CREDITS credits (synthetic-portfolio.ts,
 * closed once so balances and statuses are the day close's), a file of BENCH_FILE_ROWS rows in the agreement's own
 * layout pays one installment of as many distinct credits (a few hundred pay more than the credit owes: sobrepago
 * and payoff). Measured through the services, as the routes and the application job call them: the upload (parse,
 * match, insert the rows) and the application (allocate, write; one transaction), each with its peak memory and the
 * time its SQL statements took, then a bare COPY of the same rows into a table shaped like payment_file_rows.
 *
 *   BENCH_CREDITS=170000 BENCH_FILE_ROWS=100000 npm run bench:payment-file -w @portal/api
 *
 * The file is the payroll of the loaded business date: a row per credit with an installment due that day (three in
 * five of the synthetic portfolio; the others ended before it or start after), paying the credit's installment, so a
 * 100,000-row file needs some 170,000 credits. BENCH_KEEP=1 and BENCH_KEEP_DATABASE=<name> as in portfolio.bench.ts
 * (a kept database's credits already paid that installment: its rows become prepayments).
 *
 * Issue 45's target: end to end (upload + apply) ≤ 1.5 × bench/payment-file-floor.sql on the same portfolio, measured
 * in the same run, with the process's peak RSS ≤ 700 MB. The floor runs through psql (rolled back) before the upload
 * and again after the application; the ratio is against their mean. BENCH_FLOOR=0 leaves it out. BENCH_BUILD_ONLY=1
 * with BENCH_KEEP=1 loads and closes the portfolio and stops, so that each run can take a copy of it:
 *
 *   BENCH_CREDITS=150000 BENCH_KEEP=1 BENCH_BUILD_ONLY=1 npm run bench:payment-file -w @portal/api
 *   psql -c 'create database run1 template portal_bench_<pid>'
 *   BENCH_KEEP_DATABASE=run1 BENCH_CREDITS=150000 npm run bench:payment-file -w @portal/api
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import { layoutSchema } from '@portal/contract';
import { asSystem, withScope } from '../src/db/scope';
import { agreements } from '../src/db/schema/agreements';
import { businessDates } from '../src/db/schema/portfolio';
import { loadPrincipal } from '../src/http/auth';
import type { Actor } from '../src/modules/audit/audit';
import { closeDay } from '../src/modules/business-date/close-day';
import { applyPaymentFile } from '../src/modules/payment-files/apply';
import { uploadPaymentFile } from '../src/modules/payment-files/payment-files.service';
import { renderPaymentFile, type FileFields } from '../src/modules/payment-files/render-file';
import { postgresDatabase } from './bench-database';
import { processorMs, processorMsNow } from './processor-time';
import { BUSINESS_DATE, syntheticPortfolio } from './synthetic-portfolio';

const N = Number(process.env.BENCH_CREDITS ?? 100_000);
const FILE_ROWS = Math.min(N, Number(process.env.BENCH_FILE_ROWS ?? 100_000));
/**
 * The file's rows in folio order (`folio`, the default), or `shuffled` as an employer's payroll lists them: by its own
 * employee numbers, which follow hiring, not the order its employees took their loans (a fixed pseudo-random order).
 */
const FILE_ORDER = process.env.BENCH_FILE_ORDER === 'shuffled' ? 'shuffled' : 'folio';
/** Rows that pay more than the credit owes (sobrepago, the credit paid off): one in 250, a few hundred per 100,000. */
const OVERPAY_EVERY = 250;
const TARGET_SECONDS = 10;
/** Issue 45: end to end against the floor, and the process's peak resident set. */
const TARGET_FLOOR_RATIO = 1.5;
const TARGET_RSS_MB = 700;
const FLOOR = process.env.BENCH_FLOOR !== '0';
/**
 * BENCH_CHECKPOINT=1: a CHECKPOINT before each measured phase (the floor before, the upload, the floor after), so that
 * each starts with every page clean and writes its own full-page images, whatever the server's checkpoint distance: on
 * a server sized as compose.yaml's (max_wal_size 16 GB, 15 min) no checkpoint falls inside the run, and a phase would
 * otherwise find the pages the phase before it touched already imaged in the WAL.
 */
const CHECKPOINT = process.env.BENCH_CHECKPOINT === '1';
/**
 * BENCH_VACUUM=1: a VACUUM (no ANALYZE) of the database before each of those checkpoints, so that no phase works over
 * the dead rows the phase before it left: the floor rolls back, and its 90,000 aborted versions of credits, schedule
 * rows, deductions and payments (with their index entries) otherwise stay for the upload and the application to
 * step over, prune and lock past (docs/measurements.md, "Stop 67"). Production's autovacuum clears such rows; this
 * server's is off, and no autovacuum would run between two phases seconds apart.
 */
const VACUUM = process.env.BENCH_VACUUM === '1';
const FLOOR_SQL = fileURLToPath(new URL('./payment-file-floor.sql', import.meta.url));
/** The floor's statements after its mark, in the order psql times them. */
const FLOOR_STATEMENTS = ['archivo', 'filas', 'leer cuotas', 'cuotas', 'pagos', 'descuentos', 'créditos', 'rollback'];
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

const seconds = (from: number, to = performance.now()) => (to - from) / 1000;
const mb = (bytes: number) => Math.round(bytes / 1e6);

// ------------------------------------------------------------------ SQL time by statement
/**
 * Every statement a pg client runs, timed from when the server starts on it (a transaction's client runs one at a
 * time, so a query queued behind another starts when that one ends) to its answer, parsed; summed by statement.
 * What a phase took beyond its statements is the process's own work (parsing the file, allocating, building JSON).
 */
const statementTime = new Map<string, { count: number; ms: number; cpuMs: number }>();
const lastEnd = new WeakMap<pg.Client, number>();
/**
 * Each statement's processor time in its backend (this machine's PostgreSQL): the backend's /proc counter when the
 * answer arrives, less its count at the previous answer on the same connection (a connection's statements run one at a
 * time), summed over a statement's calls.
 */
const lastCpu = new WeakMap<pg.Client, number>();
const backendCpuMs = (client: pg.Client): number | null => {
  const pid = (client as unknown as { processID?: number }).processID;
  if (!pid) return null;
  try {
    return processorMsNow(pid);
  } catch {
    return null;
  }
};
const originalQuery: (this: pg.Client, ...args: unknown[]) => unknown = pg.Client.prototype.query;
Object.defineProperty(pg.Client.prototype, 'query', {
  configurable: true,
  writable: true,
  value: function timedQuery(this: pg.Client, ...args: unknown[]): unknown {
    const submitted = performance.now();
    if (!lastCpu.has(this)) {
      const cpu = backendCpuMs(this);
      if (cpu !== null) lastCpu.set(this, cpu);
    }
    const answer = originalQuery.apply(this, args);
    if (!(answer instanceof Promise)) return answer;
    const config = args[0];
    const text =
      typeof config === 'string' ? config : typeof config === 'object' && config !== null && 'text' in config ? String(config.text) : '?';
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 90);
    return answer.finally(() => {
      const end = performance.now();
      const start = Math.max(submitted, lastEnd.get(this) ?? 0);
      lastEnd.set(this, end);
      const cpu = backendCpuMs(this);
      const entry = statementTime.get(key) ?? { count: 0, ms: 0, cpuMs: 0 };
      entry.count += 1;
      entry.ms += end - start;
      if (cpu !== null) {
        entry.cpuMs += cpu - (lastCpu.get(this) ?? cpu);
        lastCpu.set(this, cpu);
      }
      statementTime.set(key, entry);
    });
  },
});

// ------------------------------------------------------------------ processor time
/** User and system processor seconds of a process so far, or null once it has exited. */
const processorSeconds = (pid: number): Promise<number | null> =>
  processorMs(pid).then(
    (ms) => ms / 1000,
    () => null,
  );

/**
 * The processor time this database's backends take while it runs (PostgreSQL on this machine): each backend's
 * /proc/<pid>/stat, sampled every 100 ms, counted from the first sample (a backend that connects meanwhile, such as
 * psql's, from zero). On a shared machine other sessions lengthen a phase's wall time; they hardly change the
 * processor time its own work takes, so the two builds and the floor compare by it too.
 */
function databaseProcessor(url: string): { stop: () => Promise<number> } {
  const monitor = new pg.Client({ connectionString: url });
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let sampling = true;
  const sample = async (initial: boolean) => {
    const { rows } = await monitor.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    for (const { pid } of rows) {
      const used = await processorSeconds(pid);
      if (used === null) continue;
      if (!first.has(pid)) first.set(pid, initial ? used : 0);
      last.set(pid, used);
    }
  };
  const running = (async () => {
    await monitor.connect();
    await sample(true);
    while (sampling) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await sample(false);
    }
    await monitor.end();
  })();
  return {
    async stop() {
      sampling = false;
      await running;
      let total = 0;
      for (const [pid, used] of last) total += used - first.get(pid)!;
      return total;
    },
  };
}

/**
 * Runs `work`, sampling the resident set size; answers its result, wall time, peak RSS and processor time (the
 * database's at `url` and this process's), and prints its SQL time.
 */
async function phase<T>(
  label: string,
  url: string,
  work: () => Promise<T>,
): Promise<{ result: T; seconds: number; peakRss: number; processor: { database: number; process: number } }> {
  statementTime.clear();
  global.gc?.();
  let peak = process.memoryUsage();
  const sample = () => {
    const now = process.memoryUsage();
    if (now.rss > peak.rss) peak = now;
  };
  const watch = setInterval(sample, 20);
  const backends = databaseProcessor(url);
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const result = await work();
  const elapsed = seconds(start);
  const cpu = process.cpuUsage(cpuStart);
  const processor = { database: await backends.stop(), process: (cpu.user + cpu.system) / 1e6 };
  clearInterval(watch);
  sample();
  const peakRss = peak.rss;
  const statements = [...statementTime.entries()].sort((a, b) => b[1].ms - a[1].ms);
  const sqlSeconds = statements.reduce((sum, [, entry]) => sum + entry.ms, 0) / 1000;
  console.log(
    `${label}: ${elapsed.toFixed(2)} s (SQL ${sqlSeconds.toFixed(2)} s, proceso ${(elapsed - sqlSeconds).toFixed(2)} s), RSS máxima ${mb(peakRss)} MB (montón de V8 ${mb(peak.heapTotal)} MB, usado ${mb(peak.heapUsed)} MB, externo ${mb(peak.external)} MB); ` +
      `procesador: base de datos ${processor.database.toFixed(2)} s, proceso ${processor.process.toFixed(2)} s`,
  );
  for (const [text, entry] of statements.filter(([, entry]) => entry.ms >= 50)) {
    console.log(
      `    ${(entry.ms / 1000).toFixed(2).padStart(6)} s (procesador ${(entry.cpuMs / 1000).toFixed(2).padStart(5)} s) ×${String(entry.count).padEnd(4)} ${text}`,
    );
  }
  return { result, seconds: elapsed, peakRss, processor };
}

/**
 * A VACUUM of `url`'s database when BENCH_VACUUM=1, then a CHECKPOINT on its server when BENCH_CHECKPOINT=1 (needs a
 * superuser, as the bench's admin URL is).
 */
async function settle(url: string): Promise<void> {
  if (!CHECKPOINT && !VACUUM) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (VACUUM) {
      const start = performance.now();
      await client.query('vacuum');
      console.log(`VACUUM: ${seconds(start).toFixed(2)} s`);
    }
    if (!CHECKPOINT) return;
    const start = performance.now();
    await client.query('checkpoint');
    console.log(`CHECKPOINT: ${seconds(start).toFixed(2)} s`);
  } finally {
    await client.end();
  }
}

// ------------------------------------------------------------------ the floor
/**
 * bench/payment-file-floor.sql on this database through psql (it rolls itself back): the sum of its statements' times
 * from its `floor:start` mark, each as psql's \timing prints it.
 */
async function floor(url: string, payday: string, rows: number): Promise<{ seconds: number; processor: number }> {
  const backends = databaseProcessor(url);
  const { stdout } = await promisify(execFile)(
    'psql',
    ['-X', '-q', '-d', url, '-v', `payday=${payday}`, '-v', `rows=${rows}`, '-f', FLOOR_SQL],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const after = stdout.slice(stdout.indexOf('floor:start'));
  const times = [...after.matchAll(/^Time: ([\d.]+) ms/gm)].map((match) => Number(match[1]));
  const total = times.reduce((sum, ms) => sum + ms, 0) / 1000;
  const each = FLOOR_STATEMENTS.map((name, index) => `${name} ${((times[index] ?? 0) / 1000).toFixed(2)}`).join(', ');
  const processor = await backends.stop();
  console.log(
    `Piso (payment-file-floor.sql, ${rows.toLocaleString('es-MX')} créditos): ${total.toFixed(2)} s (${each}; carga ${load()}); procesador de la base de datos ${processor.toFixed(2)} s`,
  );
  return { seconds: total, processor };
}

// ------------------------------------------------------------------ COPY FROM STDIN through node-postgres
/** The connection's COPY messages, which node-postgres has and its type declarations leave out. */
interface CopyConnection extends pg.Connection {
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

/** `COPY … FROM STDIN` of a prepared text-format payload (what pg-copy-streams does, with the data at hand). */
class CopyFrom extends pg.Query {
  readonly data: Buffer;
  constructor(text: string, data: Buffer) {
    super(text);
    this.data = data;
  }
  handleCopyInResponse(connection: CopyConnection): void {
    for (let offset = 0; offset < this.data.length; offset += 65_536)
      connection.sendCopyFromChunk(this.data.subarray(offset, offset + 65_536));
    connection.endCopyFrom();
  }
}

const copyFrom = (client: pg.Client, text: string, data: Buffer) =>
  new Promise<void>((resolve, reject) => {
    const query = new CopyFrom(text, data);
    query.on('end', () => resolve());
    query.on('error', reject);
    client.query(query);
  });

/** A value in COPY's text format. */
const copyValue = (value: string | number | null) =>
  value === null ? '\\N' : String(value).replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);

const ROW_COLUMNS = [
  'file_id',
  'line',
  'company_id',
  'raw',
  'credit_ref',
  'employee_number',
  'curp_rfc',
  'amount',
  'period',
  'reference',
  'outcome',
  'message',
  'credit_id',
] as const;

// ------------------------------------------------------------------ run
const database = await postgresDatabase();
if (!database) {
  console.log('PostgreSQL no responde: benchmark del archivo de pagos omitido.');
  process.exit(0);
}
const { db } = database.database;

try {
  const { companyId, agreementId } = await syntheticPortfolio(database, N);
  if (!database.reused) {
    // Balances, statuses and buckets as a day close leaves them (the load writes the schedules only).
    const closeStart = performance.now();
    await closeDay(db, companyId, BUSINESS_DATE);
    console.log(`Cierre de día previo: ${seconds(closeStart).toFixed(1)} s`);
    await database.analyze();
  }
  if (process.env.BENCH_BUILD_ONLY === '1') {
    console.log('Cartera cargada y cerrada (BENCH_BUILD_ONLY): sin archivo.');
    process.exit(0);
  }
  const [current] = await asSystem(db, (tx) => tx.select().from(businessDates).where(eq(businessDates.companyId, companyId)));
  const businessDate = current!.businessDate;
  // The payroll of the loaded business date: every credit whose schedule spans it has an installment due that day.
  const discountDate = BUSINESS_DATE;
  const [agreement] = await asSystem(db, (tx) => tx.select().from(agreements).where(eq(agreements.id, agreementId)));
  const layout = layoutSchema.parse(agreement!.layout);
  const principal = await loadPrincipal(db, 'cartera@demo.mx');
  if (!principal) throw new Error('Falta el usuario cartera@demo.mx del seed.');
  const actor: Actor = { id: 'bench', identity: null, principal };

  // ------------------------------------------------------------------ the file
  // Written in a scope of its own: the credits it was made from are no longer alive when the upload's and the
  // application's peak RSS are measured (a server has only the file's bytes).
  const { content, fileRows } = await (async () => {
    type Payable = {
      number: string;
      employee_number: string;
      curp: string;
      installment: string;
      outstanding_balance: string;
      period: number;
    };
    const { rows: payable } = (await asSystem(db, (tx) =>
      tx.execute(sql`
        select c.number, c.employee_number, k.curp, c.installment::text as installment, c.outstanding_balance::text as outstanding_balance,
               (select min(i.number) from installments i where i.company_id = c.company_id and i.credit_id = c.id and i.outstanding > 0) as period
        from credits c join clients k on k.id = c.client_id
        where c.company_id = ${companyId} and c.agreement_id = ${agreementId} and c.status <> 'liquidado'
          and c.outstanding_balance > 0 and c.first_due_date <= ${discountDate}::date and c.last_due_date >= ${discountDate}::date
        order by c.number
        limit ${FILE_ROWS}`),
    )) as unknown as { rows: Payable[] };
    if (payable.length < FILE_ROWS) {
      console.log(
        `Solo ${payable.length.toLocaleString('es-MX')} créditos tienen una cuota del ${discountDate}: el archivo tiene ${payable.length.toLocaleString('es-MX')} filas (sube BENCH_CREDITS).`,
      );
    }
    // Distinct per run, so that a kept database takes the file again (the same bytes are refused while they count).
    const reference = `BENCH${process.pid}`;
    const ordered =
      FILE_ORDER === 'folio'
        ? payable
        : payable
            .map((credit) => ({ credit, key: createHash('sha256').update(credit.employee_number).digest('hex') }))
            .sort((a, b) => (a.key < b.key ? -1 : 1))
            .map(({ credit }) => credit);
    const fields = ordered.map((credit, index): FileFields => ({
      employeeNumber: credit.employee_number,
      curpRfc: credit.curp,
      amount: index % OVERPAY_EVERY === OVERPAY_EVERY - 1 ? (Number(credit.outstanding_balance) + 250).toFixed(2) : credit.installment,
      period: String(credit.period),
      reference,
    }));
    const renderStart = performance.now();
    const content = await renderPaymentFile(layout, fields);
    console.log(
      `Archivo: ${fields.length.toLocaleString('es-MX')} filas (${Math.floor(fields.length / OVERPAY_EVERY)} con sobrepago) en orden ${FILE_ORDER === 'folio' ? 'de folio' : 'de la nómina'}, ${layout.format}, ${(content.length / 1e6).toFixed(1)} MB, escrito en ${seconds(renderStart).toFixed(2)} s`,
    );
    return { content, fileRows: fields.length };
  })();

  // ------------------------------------------------------------------ upload and apply, between two runs of the floor
  console.log(`Carga del equipo al empezar: ${load()}`);
  if (FLOOR) await settle(database.ownerUrl);
  const floorBefore = FLOOR ? await floor(database.ownerUrl, discountDate, fileRows) : null;
  await settle(database.ownerUrl);
  const upload = await phase('Carga (leer, identificar, guardar filas)', database.ownerUrl, () =>
    withScope(db, { companyId }, (tx) =>
      uploadPaymentFile(tx, actor, {
        agreementId,
        discountDate,
        fileName: `bench-${discountDate}.csv`,
        contentType: 'text/csv',
        content,
        today: businessDate,
        now: new Date(),
      }),
    ),
  );
  const file = upload.result;
  const apply = await phase('Aplicación (asignar, escribir; una transacción)', database.ownerUrl, () =>
    withScope(db, { companyId }, (tx) =>
      applyPaymentFile(tx, { fileId: file.id, companyId, appliedBy: principal.userId, now: new Date(), today: businessDate }),
    ),
  );
  const applied = apply.result;
  const total = upload.seconds + apply.seconds;
  if (FLOOR) await settle(database.ownerUrl);
  const floorAfter = FLOOR ? await floor(database.ownerUrl, discountDate, fileRows) : null;
  console.log(
    `Filas: ${file.rowsTotal.toLocaleString('es-MX')} leídas, ${file.rowsValid.toLocaleString('es-MX')} válidas, ${applied.toLocaleString('es-MX')} aplicadas`,
  );

  // ------------------------------------------------------------------ bare COPY of the same rows
  const owner = new pg.Client({ connectionString: database.ownerUrl });
  await owner.connect();
  let copySeconds: number;
  try {
    const { rows } = await owner.query<Record<(typeof ROW_COLUMNS)[number], string | number | null>>(
      `select ${ROW_COLUMNS.join(', ')} from payment_file_rows where file_id = $1 order by line`,
      [file.id],
    );
    const payload = Buffer.from(rows.map((row) => `${ROW_COLUMNS.map((column) => copyValue(row[column])).join('\t')}\n`).join(''), 'utf8');
    // Same columns, defaults and indexes (primary key included), logged like payment_file_rows; no row-level security.
    await owner.query('drop table if exists bench_copy_rows');
    await owner.query('create table bench_copy_rows (like payment_file_rows including defaults including indexes)');
    statementTime.clear();
    const copyStart = performance.now();
    await owner.query('begin');
    await copyFrom(owner, `copy bench_copy_rows (${ROW_COLUMNS.join(', ')}) from stdin`, payload);
    await owner.query('commit');
    copySeconds = seconds(copyStart);
    const [{ count }] = (await owner.query<{ count: number }>('select count(*)::int as count from bench_copy_rows')).rows as [
      { count: number },
    ];
    console.log(
      `COPY de las mismas ${count.toLocaleString('es-MX')} filas (${(payload.length / 1e6).toFixed(1)} MB): ${copySeconds.toFixed(2)} s`,
    );
    await owner.query('drop table bench_copy_rows');
  } finally {
    await owner.end();
  }

  const maxRss = process.resourceUsage().maxRSS * 1024;
  console.log(
    `Archivo de pagos de ${file.rowsTotal.toLocaleString('es-MX')} filas sobre ${N.toLocaleString('es-MX')} créditos: carga ${upload.seconds.toFixed(1)} s + aplicación ${apply.seconds.toFixed(1)} s = ${total.toFixed(1)} s ` +
      `(${Math.round(file.rowsTotal / total).toLocaleString('es-MX')} filas/s; meta ≤ ${TARGET_SECONDS} s ${total <= TARGET_SECONDS ? 'cumplida' : 'NO cumplida'}), ` +
      `RSS máxima ${mb(Math.max(upload.peakRss, apply.peakRss))} MB (proceso ${mb(maxRss)} MB), COPY ${copySeconds.toFixed(2)} s, ${(total / copySeconds).toFixed(0)}× el COPY`,
  );
  const peakMb = mb(Math.max(upload.peakRss, apply.peakRss));
  if (floorBefore !== null && floorAfter !== null) {
    const floorMean = (floorBefore.seconds + floorAfter.seconds) / 2;
    const ratio = total / floorMean;
    console.log(
      `Meta del issue 45: ${total.toFixed(1)} s / piso ${floorMean.toFixed(1)} s (${floorBefore.seconds.toFixed(1)} antes, ${floorAfter.seconds.toFixed(1)} después) = ` +
        `${ratio.toFixed(2)}× (meta ≤ ${TARGET_FLOOR_RATIO}× ${ratio <= TARGET_FLOOR_RATIO ? 'cumplida' : 'NO cumplida'}); ` +
        `RSS máxima ${peakMb} MB (meta ≤ ${TARGET_RSS_MB} MB ${peakMb <= TARGET_RSS_MB ? 'cumplida' : 'NO cumplida'}); carga ${load()}`,
    );
    // The same in processor time, which the machine's other work hardly moves: the database's and this process's for
    // the upload and the application, against the floor's database time.
    const floorProcessor = (floorBefore.processor + floorAfter.processor) / 2;
    const database = upload.processor.database + apply.processor.database;
    const own = upload.processor.process + apply.processor.process;
    console.log(
      `En procesador: base de datos ${database.toFixed(1)} s + proceso ${own.toFixed(1)} s = ${(database + own).toFixed(1)} s / piso ${floorProcessor.toFixed(1)} s ` +
        `(${floorBefore.processor.toFixed(1)} antes, ${floorAfter.processor.toFixed(1)} después) = ${((database + own) / floorProcessor).toFixed(2)}×; ` +
        `la base de datos sola ${(database / floorProcessor).toFixed(2)}×`,
    );
  }
} finally {
  await database.drop();
}
