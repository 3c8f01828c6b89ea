import type { Database } from './db/client';
import type { JobQueue } from './jobs/job-queue';
import type { FailureLog } from './jobs/tracked-job';
import { DAY_CLOSE_QUEUE, workDayCloses } from './modules/day-close/day-close.service';
import { PAYMENT_APPLY_QUEUE, workPaymentApplications } from './modules/payment-files/payment-files.service';
import { REPORT_RUN_QUEUE, workReportRuns } from './modules/reports/reports.service';
import { mexicoToday } from './modules/shared/business-date';

/** Every queue of background work: created when the job queue starts, before any request sends to one. */
export const JOB_QUEUES = [DAY_CLOSE_QUEUE, PAYMENT_APPLY_QUEUE, REPORT_RUN_QUEUE] as const;

/** Takes this process's share of every queue's jobs (main.ts with JOB_WORKERS; tests that run background work). */
export async function startWorkers(jobs: JobQueue, database: Database, now: () => Date, log?: FailureLog): Promise<void> {
  await workDayCloses(jobs, database.db, now, log);
  // On PostgreSQL an application's progress is written beside its transaction; PGlite's one session cannot.
  await workPaymentApplications(jobs, database.db, { now, today: () => mexicoToday(now()), concurrentProgress: !database.pglite }, log);
  await workReportRuns(jobs, database.db, { now, concurrentProgress: !database.pglite }, log);
}
