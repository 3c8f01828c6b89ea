import { randomBytes } from 'node:crypto';
import type { RunStatus } from '@portal/contract';
import { HttpProblem } from '../http/errors';

/**
 * One kit for tracked jobs: work that outlives a request and leaves a run row the screens read (a day close, a payment
 * file's application, a report run). The kit owns the run's life — en espera → en curso → completado | fallido, its
 * attempts, the retry of a transient database failure, the failure reason a user reads — and each job supplies only
 * its work and how to write its run's row.
 */

/** What the kit writes on a run's row; each run table has these columns (named alike) besides its own. */
export interface RunMark {
  status?: RunStatus;
  attempts?: number;
  error?: string | null;
  finishedAt?: Date;
}

/** Where a failure's detail goes, under the reference the user was shown. */
export type FailureLog = (entry: { reference: string; job: string; runId: string; error: unknown }) => void;

export interface TrackedJob<Job extends { runId: string }, Values extends object> {
  /** What the user calls the work, in Spanish, for the failure sentence: "el cierre de día". */
  title: string;
  /** Writes the run's row in its own short transaction and scope, so the screen sees it move. */
  mark(job: Job, values: RunMark | Partial<Values>): Promise<void>;
  /** Values written with en curso at each attempt's start (when it started, progress back to zero). */
  onStart?: () => Partial<Values>;
  /**
   * The work. `progress` writes progress values to the run; what it answers is written with completado. Answering
   * `'recorded'` says the work wrote its own completion inside its transaction (a report's file and its run together, a
   * payment file's aplicado and its run's completado).
   */
  work(job: Job, progress: (values: Partial<Values>) => Promise<void>): Promise<Partial<Values> | 'recorded'>;
  /** How many times a transient failure (serialization, deadlock, a dropped connection) is tried again; 2 by default. */
  retries?: number;
}

export interface TrackedJobDeps {
  now: () => Date;
  log?: FailureLog;
}

/** SQLSTATEs worth a second try: the work left nothing behind and may succeed as it is. */
const TRANSIENT = new Set(['40001', '40P01', '55P03', '57P01', '57P02', '57P03', '08000', '08003', '08006']);

const sqlStateOf = (error: unknown): string | undefined => {
  for (let cause = error; cause instanceof Object; cause = (cause as { cause?: unknown }).cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
};

export const isTransient = (error: unknown): boolean => TRANSIENT.has(sqlStateOf(error) ?? '');

/** A short reference a user can read out to support: the log line with the detail carries the same. */
export const newFailureReference = (): string => `REF-${randomBytes(4).toString('hex').toUpperCase()}`;

/**
 * The reason a user reads. A refusal the work raised for the user (HttpProblem) is already a Spanish sentence; anything
 * else is a fault whose text may hold SQL, parameters or ids: the user reads a sentence and a reference, the log the rest.
 */
export function failureReason(title: string, error: unknown, log: FailureLog, context: { job: string; runId: string }): string {
  if (error instanceof HttpProblem) return error.detail ?? error.title;
  const reference = newFailureReference();
  log({ reference, ...context, error });
  return `No se pudo completar ${title} por un error interno. Si se repite, comunícate con soporte y menciona la referencia ${reference}.`;
}

/** Failures go to standard error as one line of JSON: the reference, the run, the message, its cause and stack. */
export const consoleFailureLog: FailureLog = ({ reference, job, runId, error }) => {
  const detail = (value: unknown): unknown =>
    value instanceof Error
      ? { message: value.message, stack: value.stack, ...(value.cause === undefined ? {} : { cause: detail(value.cause) }) }
      : value;
  console.error(JSON.stringify({ level: 'error', msg: 'Trabajo fallido', reference, job, runId, error: detail(error) }));
};

/** Failures through the process's logger (pino: `err` serializes the error with its cause and stack). */
export const loggerFailureLog =
  (logger: { error(object: object, message: string): void }): FailureLog =>
  ({ reference, job, runId, error }) =>
    logger.error({ reference, job, runId, err: error }, 'Trabajo fallido');

/** Runs one job's run to its end: never throws (the run row says how it ended). */
export async function runTrackedJob<Job extends { runId: string }, Values extends object>(
  spec: TrackedJob<Job, Values>,
  job: Job,
  deps: TrackedJobDeps,
): Promise<void> {
  const log = deps.log ?? consoleFailureLog;
  const retries = spec.retries ?? 2;
  for (let attempt = 1; ; attempt++) {
    try {
      await spec.mark(job, { ...spec.onStart?.(), status: 'en curso', attempts: attempt, error: null });
      const result = await spec.work(job, (values) => spec.mark(job, values));
      if (result !== 'recorded') await spec.mark(job, { ...result, status: 'completado', finishedAt: deps.now() });
      return;
    } catch (error) {
      if (attempt <= retries && isTransient(error)) continue;
      const reason = failureReason(spec.title, error, log, { job: spec.title, runId: job.runId });
      try {
        await spec.mark(job, { status: 'fallido', error: reason, finishedAt: deps.now() });
      } catch (markError) {
        // The run's row cannot be written either (the database is gone): the log keeps both.
        log({ reference: newFailureReference(), job: spec.title, runId: job.runId, error: markError });
      }
      return;
    }
  }
}
