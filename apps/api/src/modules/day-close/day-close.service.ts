import { and, asc, eq, inArray } from 'drizzle-orm';
import { daysBetween } from '@portal/lending';
import type { BusinessDate, DayCloseRun } from '@portal/contract';
import type { Db, Tx } from '../../db/client';
import { businessDates, dayCloseRuns } from '../../db/schema/portfolio';
import { companies } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import type { JobQueue } from '../../jobs/job-queue';
import { runTrackedJob, type FailureLog, type TrackedJob } from '../../jobs/tracked-job';
import { recordAudit, type Actor } from '../audit/audit';
import { businessDateOf } from '../shared/business-date';
import { closeDays, markRun } from './close-day';
import { toDayCloseRun } from './day-close.queries';
import { shortDate } from '../shared/es-mx';

export const DAY_CLOSE_QUEUE = 'day-close';

export interface DayCloseJob {
  runId: string;
  companyId: string;
  throughDate: string;
  requestedBy: string | null;
}

const ACTIVE = ['en espera', 'en curso'] as const;

/** The business date of every company the user sees, with the close in progress if any. */
export async function listBusinessDates(tx: Tx, today: string): Promise<BusinessDate[]> {
  const visible = await tx.select({ id: companies.id, name: companies.name }).from(companies).orderBy(asc(companies.name));
  const active = await tx.select().from(dayCloseRuns).where(inArray(dayCloseRuns.status, ACTIVE));
  const stored = await tx.select().from(businessDates);
  return visible.map((company) => {
    const run = active.find((r) => r.companyId === company.id);
    const date = stored.find((d) => d.companyId === company.id)?.businessDate ?? today;
    return { companyId: company.id, company: company.name, businessDate: date, today, activeRun: run ? toDayCloseRun(run) : null };
  });
}

/**
 * "Cerrar día": records the run and queues its job in the same transaction (the job exists exactly when the run
 * does). Closes the company's business date, or every day through `throughDate`; a day already closed is refused.
 */
export async function requestDayClose(
  tx: Tx,
  jobs: JobQueue | undefined,
  actor: Actor,
  input: { companyId: string; throughDate?: string | undefined; today: string; now: Date },
): Promise<DayCloseRun> {
  // Row-level security shows a user only their own company (SA every one): another company's id is not found.
  const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, input.companyId));
  if (!company) throw new HttpProblem(404, 'Empresa no encontrada', 'La empresa no existe o no es la tuya.');
  if (!jobs) throw new HttpProblem(503, 'Cola de trabajos no disponible', 'El servidor no tiene cola de trabajos; intenta más tarde.');
  const current = await businessDateOf(tx, input.companyId, input.today);
  const through = input.throughDate ?? current;
  if (through < current)
    throw new HttpProblem(409, 'Día ya cerrado', `El día ${shortDate(through)} ya está cerrado: la fecha flujo es ${shortDate(current)}.`);
  // Missed days replay, days still to come do not: their payroll and payments have not happened yet.
  if (through > input.today)
    throw new HttpProblem(
      409,
      'Día por venir',
      `El día ${shortDate(through)} todavía no llega: hoy es ${shortDate(input.today)}. Se cierra hasta el día de hoy.`,
    );
  // A company's first close pins its business date: from here on only closes move it.
  await tx.insert(businessDates).values({ companyId: input.companyId, businessDate: current }).onConflictDoNothing();
  const [running] = await tx
    .select({ id: dayCloseRuns.id })
    .from(dayCloseRuns)
    .where(and(eq(dayCloseRuns.companyId, input.companyId), inArray(dayCloseRuns.status, ACTIVE)));
  if (running) throw new HttpProblem(409, 'Cierre en curso', 'Ya hay un cierre de día en curso para esta empresa; espera a que termine.');
  const [run] = await tx
    .insert(dayCloseRuns)
    .values({
      companyId: input.companyId,
      fromDate: current,
      throughDate: through,
      daysTotal: daysBetween(current, through) + 1,
      requestedBy: actor.principal.userId,
      requestedAt: input.now,
    })
    .returning();
  const job: DayCloseJob = { runId: run!.id, companyId: input.companyId, throughDate: through, requestedBy: run!.requestedBy };
  const jobId = await jobs.send(DAY_CLOSE_QUEUE, job, tx);
  const [queued] = await tx.update(dayCloseRuns).set({ jobId }).where(eq(dayCloseRuns.id, run!.id)).returning();
  await recordAudit(tx, actor, {
    action: 'day.close.request',
    entity: 'business_date',
    entityId: input.companyId,
    after: { from: current, through, runId: run!.id },
    occurredAt: input.now,
  });
  return toDayCloseRun(queued!);
}

/**
 * The day-close job: closes day after day, one transaction each, writing progress to the run. A failure ends the run
 * fallido (jobs/tracked-job.ts); the days already closed stay closed and the failed one left nothing behind.
 */
export const dayCloseJob = (db: Db, now: () => Date): TrackedJob<DayCloseJob, typeof dayCloseRuns.$inferInsert> => ({
  title: 'el cierre de día',
  mark: (job, values) => markRun(db, job.runId, values),
  work: async (job, progress) => {
    await closeDays(db, job.companyId, job.throughDate, {
      runId: job.runId,
      closedBy: job.requestedBy,
      now,
      onDay: (_figures, done) => progress({ daysDone: done }),
    });
    return {};
  },
});

export const runDayCloseJob = (db: Db, job: DayCloseJob, now: () => Date, log?: FailureLog): Promise<void> =>
  runTrackedJob(dayCloseJob(db, now), job, { now, ...(log ? { log } : {}) });

/** This process takes day-close jobs (main.ts; tests that run closes), whichever process queued them. */
export const workDayCloses = (jobs: JobQueue, db: Db, now: () => Date, log?: FailureLog) =>
  jobs.work<DayCloseJob>(DAY_CLOSE_QUEUE, (job) => runDayCloseJob(db, job, now, log));
