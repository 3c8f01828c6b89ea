import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asc, eq, ne, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/rows';
import type { Tx } from '../../db/client';
import { credits, expectedDeductions, installments } from '../../db/schema/credits';
import { paymentFiles, payments } from '../../db/schema/payments';
import { businessDates } from '../../db/schema/portfolio';
import { loadPrincipal } from '../../http/auth';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { jaliscoCredits, uploadJaliscoFile } from '../../test/payroll-fixtures';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { applyPaymentFile, type ApplyOptions } from './apply';

/**
 * The application reads the next batch and writes the last one while it allocates (db/pipeline.ts): with batches of
 * two credits, a file of a whole agreement crosses many of them. It must write exactly what one batch writes, and a
 * failure anywhere — a statement the database refuses, the process's own error between batches — must leave nothing.
 */

const DISCOUNT_DATE = '2026-11-15';

describe.each(BEHAVIOUR_ENGINES)('a payment file applied across batches (%s)', (engine) => {
  let ctx: TestContext;
  let companyId: string;
  let today: string;
  let appliedBy: string;
  const now = new Date('2026-11-23T18:00:00Z');

  beforeAll(async () => {
    ctx = await createTestApp(engine, { snapshot: true, seed: async (db, at) => seedDemoPortfolio(db, at, 40, { renewals: false }) });
  });
  afterAll(() => ctx?.close());
  beforeEach(async () => {
    await ctx.reset();
  });

  /** A file paying each open Jalisco credit its installment, one of them far more than it owes (a payoff, a sobrepago). */
  async function upload(): Promise<{ fileId: string; rows: number; overpaid: string }> {
    const principal = (await loadPrincipal(ctx.db, 'cartera@demo.mx'))!;
    appliedBy = principal.userId;
    const open = await jaliscoCredits(ctx, ne(credits.status, 'liquidado'));
    expect(open.length).toBeGreaterThanOrEqual(7);
    companyId = open[0]!.companyId;
    const [current] = await ctx.system((tx) => tx.select().from(businessDates).where(eq(businessDates.companyId, companyId)));
    today = current!.businessDate;
    const lines = open.map(
      (credit, index) =>
        `${credit.employeeNumber},${credit.curp},${index === 3 ? (Number(credit.balance) + 500).toFixed(2) : credit.installment},22,R${index}`,
    );
    const file = await uploadJaliscoFile(ctx, principal, {
      agreementId: open[0]!.agreementId,
      discountDate: DISCOUNT_DATE,
      lines,
      today,
      now,
    });
    expect(file.rowsValid).toBe(open.length);
    return { fileId: file.id, rows: open.length, overpaid: open[3]!.id };
  }

  /** The file applied in `tx` (the tests that watch the transaction or its connection), with the suite's actor and dates. */
  const applyIn = (tx: Tx, fileId: string, options: Partial<ApplyOptions> = {}) =>
    applyPaymentFile(tx, { fileId, companyId, appliedBy, now, today, ...options });
  const apply = (fileId: string, options: Partial<ApplyOptions> = {}) => ctx.system((tx) => applyIn(tx, fileId, options));
  /** Two credits a batch, the process failing with `failure` once four rows are applied: mid-file, between batches. */
  const failingMidFile = (failure: Error): Partial<ApplyOptions> => ({
    batchSize: 2,
    onProgress: async (done) => {
      if (done >= 4) throw failure;
    },
  });

  /** The PostgreSQL backend serving `tx`: which pooled connection a transaction ran on. */
  const backend = async (tx: Tx) => rowsOf<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`))[0]!.pid;
  /** What an application changes: every schedule row, every credit's columns, the deductions and the payments' content. */
  const state = () =>
    ctx.system(async (tx: Tx) => ({
      schedule: await tx.select().from(installments).orderBy(asc(installments.creditId), asc(installments.number)),
      credits: await tx.select().from(credits).orderBy(asc(credits.id)),
      deductions: await tx.select().from(expectedDeductions).orderBy(asc(expectedDeductions.creditId), asc(expectedDeductions.period)),
      payments: await tx
        .select({
          creditId: payments.creditId,
          fileLine: payments.fileLine,
          amount: payments.amount,
          principal: payments.principal,
          interest: payments.interest,
          iva: payments.iva,
          overpayment: payments.overpayment,
          allocation: payments.allocation,
          before: payments.before,
        })
        .from(payments)
        .orderBy(asc(payments.creditId), asc(payments.sequence)),
    }));

  it('writes with batches of two credits exactly what one batch writes', async () => {
    const small = await upload();
    expect(await apply(small.fileId, { batchSize: 2 })).toBe(small.rows);
    const inSmallBatches = await state();
    expect(await ctx.system((tx) => tx.select().from(payments).where(eq(payments.fileId, small.fileId)))).toHaveLength(small.rows);
    expect(inSmallBatches.credits.filter((credit) => credit.status === 'liquidado').length).toBeGreaterThan(0);

    await ctx.reset();
    const whole = await upload();
    expect(await apply(whole.fileId)).toBe(whole.rows);
    expect(await state()).toEqual(inSmallBatches);
  });

  it('leaves nothing applied when the database refuses a statement in a middle batch, and reports that refusal', async () => {
    const { fileId, overpaid } = await upload();
    // The second batch's sobrepago cannot be kept: the credit's saldo a favor would pass numeric(14,2).
    await ctx.system((tx) => tx.update(credits).set({ creditBalance: '999999999999.00' }).where(eq(credits.id, overpaid)));
    const before = await state();
    const error = await apply(fileId, { batchSize: 2 }).then(
      () => null,
      (failure: unknown) => failure as Error & { cause?: Error },
    );
    // The refusal itself, not the "current transaction is aborted" of the statements queued behind it.
    expect(String(error?.cause?.message ?? error?.message)).toMatch(/numeric field overflow/);
    expect(await state()).toEqual(before);
    const [file] = await ctx.system((tx) =>
      tx.select({ status: paymentFiles.status }).from(paymentFiles).where(eq(paymentFiles.id, fileId)),
    );
    expect(file!.status).toBe('validado');
    // Nothing of it stays in the way: with the saldo a favor back within bounds the file applies whole.
    await ctx.system((tx) => tx.update(credits).set({ creditBalance: '0' }).where(eq(credits.id, overpaid)));
    expect(await apply(fileId, { batchSize: 2 })).toBeGreaterThanOrEqual(7);
  });

  it('leaves nothing applied when the process fails between batches, and sends none of its queued statements after', async () => {
    const { fileId } = await upload();
    const before = await state();
    const failure = new Error('el proceso se detuvo');
    // Each statement the application sends, marked with whether the application had already answered (its
    // transaction's ROLLBACK then follows: a statement sent after it would run on its own, outside the transaction).
    const sent: boolean[] = [];
    // Each sent statement's answer (settled either way): a statement is started by the `then` of what `execute` returns.
    const answers: Promise<void>[] = [];
    const ignore = () => undefined;
    let answered = false;
    const outcome = ctx.system((tx) => {
      const watched = new Proxy(tx, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property);
          if (typeof value !== 'function') return value;
          if (property !== 'execute') return value.bind(target);
          return (...args: unknown[]) => {
            sent.push(answered);
            const query = value.apply(target, args) as object;
            return new Proxy(query, {
              // Every other member as it is, called on the proxy: a `catch` or `finally` goes through this `then` too.
              get(statement, key, receiver) {
                const member: unknown = Reflect.get(statement, key, receiver);
                if (key !== 'then' || typeof member !== 'function') return member;
                return (...handlers: unknown[]) => {
                  const answer = member.apply(statement, handlers) as PromiseLike<unknown>;
                  answers.push(Promise.resolve(answer).then(ignore, ignore));
                  return answer;
                };
              },
            });
          };
        },
      });
      return applyIn(watched, fileId, failingMidFile(failure)).finally(() => {
        answered = true;
      });
    });
    await expect(outcome).rejects.toBe(failure);
    // A late statement is one queued before the failure and sent when an earlier one answers (the pipeline's chain): so
    // wait until every statement sent has answered and a turn of the event loop after those answers sent none more.
    for (let count = -1; count !== sent.length;) {
      count = sent.length;
      await Promise.all(answers);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(sent.length).toBeGreaterThan(2);
    expect(sent.filter((late) => late)).toEqual([]);
    expect(await state()).toEqual(before);
  });
  it.runIf(engine === 'postgres')(
    'gives the next transaction on the same connection a clean one after a refusal in a middle batch (postgres)',
    async () => {
      const { fileId, overpaid } = await upload();
      await ctx.system((tx) => tx.update(credits).set({ creditBalance: '999999999999.00' }).where(eq(credits.id, overpaid)));
      const before = await state();
      let failedOn: number | undefined;
      await expect(
        ctx.system(async (tx) => {
          failedOn = await backend(tx);
          return applyIn(tx, fileId, { batchSize: 2 });
        }),
      ).rejects.toThrow();
      // Right after: the pool hands back the connection just released (its idle list is last in, first out).
      const marker = `m-${Math.random()}`;
      const next = await ctx.system(async (tx) => ({
        pid: await backend(tx),
        // Its own answer, not one left over from the failed transaction's statements; the door's memory not kept.
        read: rowsOf<{ marker: string; workMemAtReset: boolean }>(
          await tx.execute(
            sql`select ${marker}::text as marker, (select setting = reset_val from pg_settings where name = 'work_mem') as "workMemAtReset"`,
          ),
        )[0],
      }));
      expect(next.pid).toBe(failedOn);
      expect(next.read).toEqual({ marker, workMemAtReset: true });
      expect(await state()).toEqual(before);
      // The same connection applies the file whole once the saldo a favor is back within bounds.
      await ctx.system((tx) => tx.update(credits).set({ creditBalance: '0' }).where(eq(credits.id, overpaid)));
      const applied = await ctx.system(async (tx) => ({
        pid: await backend(tx),
        rows: await applyIn(tx, fileId, { batchSize: 2 }),
      }));
      expect(applied.pid).toBe(failedOn);
      expect(applied.rows).toBeGreaterThanOrEqual(7);
    },
  );
  it.runIf(engine === 'postgres')(
    "gives the next transaction on the same connection a clean one after the process's own failure mid-file (postgres)",
    async () => {
      const { fileId } = await upload();
      const before = await state();
      const failure = new Error('el proceso se detuvo');
      let failedOn: number | undefined;
      await expect(
        ctx.system(async (tx) => {
          failedOn = await backend(tx);
          return applyIn(tx, fileId, failingMidFile(failure));
        }),
      ).rejects.toBe(failure);
      // On the same connection: the file's writes were rolled back, not left open for this transaction to see or commit.
      const next = await ctx.system(async (tx) => ({
        pid: await backend(tx),
        paid: rowsOf<{ count: number }>(await tx.execute(sql`select count(*)::int as count from payments where file_id = ${fileId}`))[0]!
          .count,
      }));
      expect(next).toEqual({ pid: failedOn, paid: 0 });
      expect(await state()).toEqual(before);
    },
  );
  it.runIf(engine === 'postgres')("sends a batch's statements without waiting for each other's answers (postgres)", async () => {
    const { fileId, rows } = await upload();
    // The most statements on the wire at once: node-postgres's Connection writes a statement's end (a simple query, or
    // the Sync of an extended one) and says when the server is ready after one (as db/pipelining.test.ts records).
    const proto = pg.Connection.prototype as unknown as Record<'query' | 'sync' | 'emit', (...args: unknown[]) => unknown>;
    const original = { query: proto.query, sync: proto.sync, emit: proto.emit };
    let inFlight = 0;
    let most = 0;
    proto.query = function (this: unknown, ...args: unknown[]) {
      most = Math.max(most, ++inFlight);
      return original.query.apply(this, args);
    };
    proto.sync = function (this: unknown, ...args: unknown[]) {
      most = Math.max(most, ++inFlight);
      return original.sync.apply(this, args);
    };
    proto.emit = function (this: unknown, name: unknown, ...args: unknown[]) {
      if (name === 'readyForQuery') inFlight = Math.max(0, inFlight - 1); // A new connection's first one answers no statement.
      return original.emit.call(this, name, ...args);
    };
    try {
      expect(await apply(fileId, { batchSize: 2 })).toBe(rows);
    } finally {
      Object.assign(proto, original);
    }
    // A batch's writes (schedule rows, payments, deductions received) and its credits' refresh (deductions moved, aging)
    // go together; one at a time, never more than BEGIN and the statement behind it would be.
    expect(most).toBeGreaterThanOrEqual(5);
  });
});
