import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { asSystem } from '../db/scope';
import { dayCloseRuns } from '../db/schema/portfolio';
import { companies } from '../db/schema/users';
import { HttpProblem } from '../http/errors';
import { ENGINES, openEngine } from '../test/test-app';
import { runTrackedJob, type FailureLog, type TrackedJob } from './tracked-job';

type Run = typeof dayCloseRuns.$inferSelect;
type Values = typeof dayCloseRuns.$inferInsert;
type Job = { runId: string };

/** A failure the user reads: one sentence and a reference, nothing of the statement, its parameters or ids. */
const USER_FAILURE =
  /^No se pudo completar la prueba por un error interno\. Si se repite, comunícate con soporte y menciona la referencia (REF-[0-9A-F]{8})\.$/;

/** A PostgreSQL error as the drivers raise it: only its SQLSTATE matters to the kit. */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe.each(ENGINES)('tracked job kit (%s)', (engine) => {
  let opened: Awaited<ReturnType<typeof openEngine>>;
  let database: Database;
  let companyId: string;
  const now = () => new Date('2026-11-23T15:00:00.000Z');

  beforeAll(async () => {
    opened = await openEngine(engine);
    database = opened.database;
    const [company] = await asSystem(database.db, (tx) => tx.select({ id: companies.id }).from(companies).limit(1));
    companyId = company!.id;
  });
  afterAll(async () => {
    await database?.close();
    await opened?.drop();
  });

  /** A run row like the day close's (any run table has the kit's columns). */
  const newRun = async (): Promise<Job> => {
    const [run] = await asSystem(database.db, (tx) =>
      tx
        .insert(dayCloseRuns)
        .values({ companyId, fromDate: '2026-11-23', throughDate: '2026-11-23', daysTotal: 3, requestedAt: now() })
        .returning({ id: dayCloseRuns.id }),
    );
    return { runId: run!.id };
  };
  const readRun = async (job: Job): Promise<Run> =>
    (await asSystem(database.db, (tx) => tx.select().from(dayCloseRuns).where(eq(dayCloseRuns.id, job.runId))))[0]!;
  const spec = (work: TrackedJob<Job, Values>['work'], retries?: number): TrackedJob<Job, Values> => ({
    title: 'la prueba',
    mark: (job, values) =>
      asSystem(database.db, (tx) => tx.update(dayCloseRuns).set(values).where(eq(dayCloseRuns.id, job.runId))).then(() => undefined),
    work,
    ...(retries === undefined ? {} : { retries }),
  });
  const logged = () => {
    const entries: Parameters<FailureLog>[0][] = [];
    return { entries, log: (entry: Parameters<FailureLog>[0]) => void entries.push(entry) };
  };

  it('marks the run en curso while the work runs, writes its progress, and completado with what the work answers', async () => {
    const job = await newRun();
    expect((await readRun(job)).status).toBe('en espera');
    const seen: Pick<Run, 'status' | 'attempts' | 'daysDone'>[] = [];
    const { entries, log } = logged();
    await runTrackedJob(
      spec(async (_job, progress) => {
        const { status, attempts, daysDone } = await readRun(job);
        seen.push({ status, attempts, daysDone });
        await progress({ daysDone: 2 });
        const after = await readRun(job);
        seen.push({ status: after.status, attempts: after.attempts, daysDone: after.daysDone });
        return { daysDone: 3 };
      }),
      job,
      { now, log },
    );
    expect(seen).toEqual([
      { status: 'en curso', attempts: 1, daysDone: 0 },
      { status: 'en curso', attempts: 1, daysDone: 2 },
    ]);
    const run = await readRun(job);
    expect({ status: run.status, attempts: run.attempts, daysDone: run.daysDone, error: run.error, finishedAt: run.finishedAt }).toEqual({
      status: 'completado',
      attempts: 1,
      daysDone: 3,
      error: null,
      finishedAt: now(),
    });
    expect(entries).toEqual([]);
  });

  it('shows a failed statement to the user as a Spanish sentence and a reference; the log has the statement under it', async () => {
    const job = await newRun();
    const { entries, log } = logged();
    // A statement the database refuses, with a company id and a date out of range among its parameters.
    await runTrackedJob(
      spec(async () => {
        await asSystem(database.db, (tx) => tx.execute(sql`select ${companyId}::uuid as company, ${'0000-01-01'}::date as day`));
        return {};
      }),
      job,
      { now, log },
    );
    const run = await readRun(job);
    expect(run.status).toBe('fallido');
    expect(run.finishedAt).toEqual(now());
    const reference = USER_FAILURE.exec(run.error ?? '')?.[1];
    expect(reference, run.error ?? '').toBeDefined();
    for (const leak of ['select', 'query', 'params', companyId, '0000', '$1', job.runId]) expect(run.error).not.toContain(leak);

    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ reference, job: 'la prueba', runId: job.runId });
    const detail =
      String((entries[0]!.error as Error).message) + String(((entries[0]!.error as Error).cause as Error | undefined)?.message ?? '');
    expect(detail).toContain('0000-01-01');
    expect(detail).toContain(companyId);
  });

  it('shows a refusal raised for the user as it was written, and logs nothing', async () => {
    const job = await newRun();
    const { entries, log } = logged();
    await runTrackedJob(
      spec(async () => {
        throw new HttpProblem(409, 'Sin días', 'No hay días por cerrar.');
      }),
      job,
      { now, log },
    );
    const run = await readRun(job);
    expect([run.status, run.error]).toEqual(['fallido', 'No hay días por cerrar.']);
    expect(entries).toEqual([]);
  });

  it('tries a transient failure again, counting the attempts, and ends completado when a later attempt succeeds', async () => {
    const job = await newRun();
    const { entries, log } = logged();
    let calls = 0;
    await runTrackedJob(
      spec(async () => {
        calls++;
        if (calls < 3) throw new Error('Failed query', { cause: pgError(calls === 1 ? '40001' : '40P01', 'could not serialize access') });
        return {};
      }),
      job,
      { now, log },
    );
    const run = await readRun(job);
    expect({ calls, status: run.status, attempts: run.attempts, error: run.error }).toEqual({
      calls: 3,
      status: 'completado',
      attempts: 3,
      error: null,
    });
    expect(entries).toEqual([]);
  });

  it('stops after its retries, and fails with a reference; a fault that is not transient is tried once', async () => {
    const transient = await newRun();
    const { entries, log } = logged();
    let calls = 0;
    await runTrackedJob(
      spec(async () => {
        calls++;
        throw pgError('40001', 'could not serialize access due to concurrent update');
      }, 1),
      transient,
      { now, log },
    );
    const run = await readRun(transient);
    expect({ calls, status: run.status, attempts: run.attempts }).toEqual({ calls: 2, status: 'fallido', attempts: 2 });
    expect(run.error).toMatch(USER_FAILURE);

    const fault = await newRun();
    let faultCalls = 0;
    await runTrackedJob(
      spec(async () => {
        faultCalls++;
        throw new TypeError("Cannot read properties of undefined (reading 'balance')");
      }),
      fault,
      { now, log },
    );
    expect(faultCalls).toBe(1);
    expect((await readRun(fault)).error).toMatch(USER_FAILURE);
    expect(entries.map((entry) => entry.runId)).toEqual([transient.runId, fault.runId]);
    expect(new Set(entries.map((entry) => entry.reference)).size).toBe(2);
  });
});
