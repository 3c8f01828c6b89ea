import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import {
  reportDataset,
  type ReportDefinitionDetail,
  type ReportDefinitionValues,
  type ReportParameter,
  type ReportRun,
} from '@portal/contract';
import type { Db, Tx } from '../../db/client';
import { asSystem, withScope } from '../../db/scope';
import { reportDefinitions, reportRunChunks, reportRuns } from '../../db/schema/reports';
import { profiles } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { lockAtVersion } from '../../http/locking';
import type { JobQueue } from '../../jobs/job-queue';
import { runTrackedJob, type FailureLog, type TrackedJob } from '../../jobs/tracked-job';
import { recordAudit, type Actor } from '../audit/audit';
import { businessDateOf, mexicoToday } from '../shared/business-date';
import { datasetQuery } from './datasets';
import { CONTENT_TYPES, writeReport, type RawRow } from './report-file';
import { DEFINITION_NOT_FOUND, loadDefinitionDetail, loadRun, runnableDefinition, type DefinitionSnapshot } from './reports.queries';

/** Reportes operativos' rules: definitions (checked, versioned, audited) and runs (queued, produced, kept, purged). */

export const REPORT_RUN_QUEUE = 'report-run';

export interface ReportRunJob {
  runId: string;
  companyId: string;
  retentionDays: number;
}

/** Runs a user may have waiting or running at once: a report is a heavy read, and a double click should not make two. */
const MAX_ACTIVE_RUNS = 3;
/** Rows fetched from the cursor at a time. */
const FETCH_ROWS = 5_000;
/** How often a run's progress is written (rows), on engines where it can be written beside the run. */
const PROGRESS_EVERY = 50_000;

async function assertProfiles(tx: Tx, ids: string[]) {
  const found = await tx.select({ id: profiles.id }).from(profiles).where(inArray(profiles.id, ids));
  const known = new Set(found.map((row) => row.id));
  const index = ids.findIndex((id) => !known.has(id));
  if (index >= 0)
    throw new HttpProblem(400, 'Datos inválidos', 'Revisa los campos marcados.', [
      { field: `profileIds.${index}`, message: 'El perfil elegido no existe.' },
    ]);
}

const stored = (input: ReportDefinitionValues) => ({
  name: input.name,
  description: input.description,
  dataset: input.dataset,
  columns: input.columns,
  filters: input.filters,
  sort: input.sort,
  format: input.format,
  profileIds: [...new Set(input.profileIds)],
});

/** "Nuevo Reporte Operativo": the definition belongs to the author's company. */
export async function createDefinition(tx: Tx, actor: Actor, now: Date, input: ReportDefinitionValues): Promise<ReportDefinitionDetail> {
  await assertProfiles(tx, input.profileIds);
  const [created] = await tx
    .insert(reportDefinitions)
    .values({ ...stored(input), companyId: actor.principal.companyId, createdBy: actor.principal.userId, createdAt: now, updatedAt: now })
    .returning({ id: reportDefinitions.id });
  await recordAudit(tx, actor, {
    action: 'report-definition.create',
    entity: 'report_definition',
    entityId: created!.id,
    after: stored(input),
    occurredAt: now,
  });
  return loadDefinitionDetail(tx, created!.id);
}

const lockDefinition = (tx: Tx, id: string, version: number) =>
  lockAtVersion(tx.select().from(reportDefinitions).where(eq(reportDefinitions.id, id)), version, {
    notFound: DEFINITION_NOT_FOUND,
    stale: {
      title: 'El reporte cambió',
      detail: 'Otra persona modificó este reporte mientras lo editabas. Recarga la página para ver sus cambios y vuelve a intentarlo.',
    },
  });

export async function updateDefinition(
  tx: Tx,
  actor: Actor,
  now: Date,
  id: string,
  input: ReportDefinitionValues & { version: number },
): Promise<ReportDefinitionDetail> {
  const current = await lockDefinition(tx, id, input.version);
  await assertProfiles(tx, input.profileIds);
  await tx
    .update(reportDefinitions)
    .set({ ...stored(input), updatedAt: now, version: sql`${reportDefinitions.version} + 1` })
    .where(eq(reportDefinitions.id, id));
  const { name, description, dataset, columns, filters, sort, format, profileIds } = current;
  await recordAudit(tx, actor, {
    action: 'report-definition.update',
    entity: 'report_definition',
    entityId: id,
    before: { name, description, dataset, columns, filters, sort, format, profileIds },
    after: stored(input),
    occurredAt: now,
  });
  return loadDefinitionDetail(tx, id);
}

export async function setDefinitionStatus(
  tx: Tx,
  actor: Actor,
  now: Date,
  id: string,
  { active, version }: { active: boolean; version: number },
): Promise<ReportDefinitionDetail> {
  const current = await lockDefinition(tx, id, version);
  await tx
    .update(reportDefinitions)
    .set({ active, updatedAt: now, version: sql`${reportDefinitions.version} + 1` })
    .where(eq(reportDefinitions.id, id));
  await recordAudit(tx, actor, {
    action: active ? 'report-definition.activate' : 'report-definition.deactivate',
    entity: 'report_definition',
    entityId: id,
    before: { active: current.active },
    after: { active },
    occurredAt: now,
  });
  return loadDefinitionDetail(tx, id);
}

/** Drops empty values, so the history shows what the user actually asked for. */
function cleanParameters(parameters: Record<string, ReportParameter>): Record<string, ReportParameter> {
  const clean: Record<string, ReportParameter> = {};
  for (const [key, parameter] of Object.entries(parameters)) {
    const kept = Object.fromEntries(
      Object.entries(parameter).filter(([, value]) => typeof value === 'string' && value.trim() !== ''),
    ) as ReportParameter;
    if (Object.keys(kept).length > 0) clean[key] = kept;
  }
  return clean;
}

/**
 * "Ejecutar": the run is recorded with the definition as it is now and its job queued in the same transaction (the
 * job exists exactly when the run does). A definition the user's profile may not run is not found.
 */
export async function startRun(
  tx: Tx,
  jobs: JobQueue | undefined,
  actor: Actor,
  input: { definitionId: string; parameters: Record<string, ReportParameter>; now: Date; retentionDays: number },
): Promise<ReportRun> {
  const definition = await runnableDefinition(tx, input.definitionId, actor.principal.profileId);
  const parameters = cleanParameters(input.parameters);
  // The parameters are checked now (a clerk hears about a bad date at once, not from a failed run).
  datasetQuery({
    dataset: definition.dataset,
    columns: definition.columns,
    filters: definition.filters,
    sort: definition.sort ?? null,
    parameters,
    companyId: definition.companyId,
    businessDate: '2000-01-01',
  });
  if (!jobs) throw new HttpProblem(503, 'Cola de trabajos no disponible', 'El servidor no tiene cola de trabajos; intenta más tarde.');
  const [active] = await tx
    .select({ total: sql<number>`count(*)::int` })
    .from(reportRuns)
    .where(and(eq(reportRuns.requestedBy, actor.principal.userId), inArray(reportRuns.status, ['en espera', 'en curso'])));
  if ((active?.total ?? 0) >= MAX_ACTIVE_RUNS) {
    throw new HttpProblem(
      409,
      'Demasiadas ejecuciones en curso',
      `Tienes ${MAX_ACTIVE_RUNS} reportes en espera o en curso; espera a que termine alguno.`,
    );
  }
  const snapshot: DefinitionSnapshot = {
    name: definition.name,
    dataset: definition.dataset,
    columns: definition.columns,
    filters: definition.filters,
    sort: definition.sort ?? null,
    format: definition.format,
  };
  const [run] = await tx
    .insert(reportRuns)
    .values({
      companyId: definition.companyId,
      definitionId: definition.id,
      definitionVersion: definition.version,
      definition: snapshot,
      parameters,
      requestedBy: actor.principal.userId,
      requestedAt: input.now,
    })
    .returning();
  const job: ReportRunJob = { runId: run!.id, companyId: definition.companyId, retentionDays: input.retentionDays };
  const jobId = await jobs.send(REPORT_RUN_QUEUE, job, tx);
  await tx.update(reportRuns).set({ jobId }).where(eq(reportRuns.id, run!.id));
  await recordAudit(tx, actor, {
    action: 'report.run',
    entity: 'report_definition',
    entityId: definition.id,
    after: { runId: run!.id, parameters },
    occurredAt: input.now,
  });
  return loadRun(tx, actor.principal.userId, run!.id, input.now);
}

const fileNameOf = (name: string, format: string, date: string) =>
  `${
    name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 80) || 'reporte'
  }-${date}.${format}`;

export interface ProduceOptions {
  now: () => Date;
  /** Today in Mexico: the business date of a company that never closed a day. */
  today: string;
  retentionDays: number;
  /** Written beside the run's transaction (PostgreSQL); PGlite's one session cannot, so its progress shows at the end. */
  onProgress?: (values: { rowsTotal?: number; rowsDone?: number }) => Promise<void>;
  /** Runs a read in a transaction of its own in the run's company (PostgreSQL), beside the run's. */
  countBeside?: (read: (tx: Tx) => Promise<number>) => Promise<number>;
}

/**
 * Produces a run's file inside `tx` (the run's company's scope): counts the rows, reads them through a cursor a batch
 * at a time into the xlsx or csv writer, stores the file's pieces as they come, and marks the run completado. All in
 * one transaction: a failure leaves no piece of a file behind.
 */
export async function produceReport(tx: Tx, runId: string, options: ProduceOptions): Promise<void> {
  const started = options.now();
  const [run] = await tx.select().from(reportRuns).where(eq(reportRuns.id, runId));
  if (!run) throw new HttpProblem(404, 'Ejecución no encontrada', 'La ejecución ya no existe.');
  const definition = run.definition as DefinitionSnapshot;
  const businessDate = await businessDateOf(tx, run.companyId, options.today);
  const query = datasetQuery({ ...definition, parameters: run.parameters, companyId: run.companyId, businessDate });
  await tx.delete(reportRunChunks).where(eq(reportRunChunks.runId, runId));
  const countRows = async (reader: Tx) =>
    Number(((await reader.execute(query.count)) as unknown as { rows: { total: number }[] }).rows[0]?.total ?? 0);
  // Where another connection may read beside the run (PostgreSQL), the rows are counted there, for the progress bar,
  // while the run writes; PGlite's one session counts first.
  let total: number | null = null;
  let counting: Promise<void> = Promise.resolve();
  if (options.countBeside) {
    counting = options.countBeside(countRows).then(async (counted) => {
      total = counted;
      await options.onProgress?.({ rowsTotal: counted });
    });
    counting.catch(() => undefined);
  } else {
    total = await countRows(tx);
    await options.onProgress?.({ rowsTotal: total });
  }
  await tx.execute(sql`declare report_rows no scroll cursor for ${query.select}`);
  let seq = 0;
  let reported = 0;
  // The next batch is asked for before the current one is written: the database prepares it while the writer works.
  const fetchBatch = async () =>
    ((await tx.execute(sql.raw(`fetch forward ${FETCH_ROWS} from report_rows`))) as unknown as { rows: RawRow[] }).rows;
  let ahead = fetchBatch();
  ahead.catch(() => undefined);
  const written = await writeReport({
    format: definition.format,
    sheetName: (reportDataset(definition.dataset)?.label ?? 'Reporte').slice(0, 31),
    fields: query.fields,
    next: async () => {
      const rows = await ahead;
      ahead = rows.length === FETCH_ROWS ? fetchBatch() : Promise.resolve([]);
      ahead.catch(() => undefined);
      return rows;
    },
    sink: async (chunk) => {
      await tx.insert(reportRunChunks).values({ runId, seq: seq++, companyId: run.companyId, data: chunk });
    },
    onProgress: async (rows) => {
      if (options.onProgress && rows - reported >= PROGRESS_EVERY) {
        reported = rows;
        await options.onProgress({ rowsDone: rows });
      }
    },
  });
  await tx.execute(sql`close report_rows`);
  await counting;
  const finished = options.now();
  await tx
    .update(reportRuns)
    .set({
      status: 'completado',
      rowsTotal: total ?? written.rows,
      rowsDone: written.rows,
      size: written.size,
      fileName: fileNameOf(definition.name, definition.format, businessDate),
      contentType: CONTENT_TYPES[definition.format],
      durationMs: finished.getTime() - started.getTime(),
      error: null,
      finishedAt: finished,
      expiresAt: new Date(finished.getTime() + options.retentionDays * 86_400_000),
    })
    .where(eq(reportRuns.id, runId));
}

async function markRun(db: Db, companyId: string, runId: string, values: Partial<typeof reportRuns.$inferInsert>): Promise<void> {
  await withScope(db, { companyId }, (tx) => tx.update(reportRuns).set(values).where(eq(reportRuns.id, runId)));
}

type ReportClock = { now: () => Date; concurrentProgress: boolean };

/**
 * The run job: produces the file in the run's company's scope; the file and the run's completado are written in one
 * transaction. A failure ends the run fallido (jobs/tracked-job.ts).
 */
export const reportJob = (db: Db, clock: ReportClock): TrackedJob<ReportRunJob, typeof reportRuns.$inferInsert> => ({
  title: 'el reporte',
  mark: (job, values) => markRun(db, job.companyId, job.runId, values),
  onStart: () => ({ startedAt: clock.now(), rowsDone: 0 }),
  work: async (job, progress) => {
    await withScope(db, { companyId: job.companyId }, (tx) =>
      produceReport(tx, job.runId, {
        now: clock.now,
        today: mexicoToday(clock.now()),
        retentionDays: job.retentionDays,
        ...(clock.concurrentProgress
          ? {
              onProgress: (values: { rowsTotal?: number; rowsDone?: number }) => progress(values),
              countBeside: (read: (reader: Tx) => Promise<number>) => withScope(db, { companyId: job.companyId }, read),
            }
          : {}),
      }),
    );
    return 'recorded';
  },
});

export const runReportJob = (db: Db, job: ReportRunJob, clock: ReportClock, log?: FailureLog): Promise<void> =>
  runTrackedJob(reportJob(db, clock), job, { now: clock.now, ...(log ? { log } : {}) });

/**
 * Deletes the files of runs past their retention (REPORT_RETENTION_DAYS) and marks those runs vencido; the runs stay in
 * the history. The system's own work, across companies. Answers how many files it deleted.
 */
export async function purgeExpiredReports(db: Db, now: Date): Promise<number> {
  return asSystem(db, async (tx) => {
    const expired = await tx
      .update(reportRuns)
      .set({ status: 'vencido' })
      .where(and(eq(reportRuns.status, 'completado'), lt(reportRuns.expiresAt, now)))
      .returning({ id: reportRuns.id });
    if (expired.length > 0)
      await tx.delete(reportRunChunks).where(
        inArray(
          reportRunChunks.runId,
          expired.map((run) => run.id),
        ),
      );
    return expired.length;
  });
}

const PURGE_EVERY_MS = 60 * 60 * 1000;

/** This process takes report jobs (main.ts; tests that run reports) and, every hour, deletes expired files. */
export async function workReportRuns(jobs: JobQueue, db: Db, clock: ReportClock, log?: FailureLog): Promise<void> {
  await purgeExpiredReports(db, clock.now()).catch((error: unknown) => console.error(`Limpieza de reportes: ${(error as Error).message}`));
  const timer = setInterval(() => {
    purgeExpiredReports(db, clock.now()).catch((error: unknown) => console.error(`Limpieza de reportes: ${(error as Error).message}`));
  }, PURGE_EVERY_MS);
  timer.unref();
  await jobs.work<ReportRunJob>(REPORT_RUN_QUEUE, (job) => runReportJob(db, job, clock, log));
}
