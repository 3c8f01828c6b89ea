import { Socket } from 'node:net';
import pg from 'pg';
import { count, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoPortfolio } from '../seed/seed-portfolio';
import { ENGINES, createTestApp, type TestContext } from '../test/test-app';
import { together, transactionWith, type Tx } from './client';
import { withScope } from './scope';
import { auditEvents } from './schema/audit';
import { credits } from './schema/credits';
import { companies } from './schema/users';

/**
 * What goes over a PostgreSQL connection, in order: `sent` when a statement's last message is written (a simple query,
 * or the Sync that ends an extended one), `answered` when the server says it is ready after one. Recorded on every
 * connection of this test file's process (the pool's connections share node-postgres's Connection class).
 */
function wire() {
  const events: ('sent' | 'answered')[] = [];
  const proto = pg.Connection.prototype as unknown as Record<'query' | 'sync' | 'emit', (...args: unknown[]) => unknown>;
  const original = { query: proto.query, sync: proto.sync, emit: proto.emit };
  proto.query = function (this: unknown, ...args: unknown[]) {
    events.push('sent');
    return original.query.apply(this, args);
  };
  proto.sync = function (this: unknown, ...args: unknown[]) {
    events.push('sent');
    return original.sync.apply(this, args);
  };
  proto.emit = function (this: unknown, name: unknown, ...args: unknown[]) {
    if (name === 'readyForQuery') events.push('answered');
    return original.emit.call(this, name, ...args);
  };
  return { events, restore: () => Object.assign(proto, original) };
}

/** How many writes every socket of this test file's process makes (each write call, whatever it carries). */
function socketWrites() {
  const proto = Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
  const original = { _write: proto._write, _writev: proto._writev };
  const counted = { count: 0, restore: () => Object.assign(proto, original) };
  proto._write = function (this: unknown, ...args: unknown[]) {
    counted.count += 1;
    return original._write.apply(this, args);
  };
  proto._writev = function (this: unknown, ...args: unknown[]) {
    counted.count += 1;
    return original._writev.apply(this, args);
  };
  return counted;
}

/** The transaction's statements on PostgreSQL's pipelined connections (PGlite has one connection and no wire). */
describe.runIf(ENGINES.includes('postgres'))('statements sent without waiting (postgres)', () => {
  let ctx: TestContext;
  let demo: string;
  let recording: ReturnType<typeof wire> | undefined;

  beforeAll(async () => {
    ctx = await createTestApp('postgres');
    await seedDemoPortfolio(ctx.db, ctx.clock.now(), 12);
    const rows = await ctx.system((tx) => tx.select().from(companies));
    demo = rows.find((row) => row.code === 'DEMO')!.id;
  });
  afterEach(() => {
    recording?.restore();
    recording = undefined;
  });
  afterAll(() => ctx?.close());

  const demoCount = () =>
    ctx
      .system((tx) =>
        tx
          .select({ total: count() })
          .from(credits)
          .where(sql`${credits.companyId} = ${demo}`),
      )
      .then(([row]) => row!.total);

  it("sends a transaction's first statement behind BEGIN and its scope, before their answer", async () => {
    recording = wire();
    const total = await withScope(ctx.db, { companyId: demo }, async (tx) => {
      const [row] = await tx.select({ total: count() }).from(credits);
      return row!.total;
    });
    recording.restore();
    expect(total).toBe(await demoCount());
    // BEGIN with the scope, the count, then their two answers; COMMIT and its answer.
    expect(recording.events).toEqual(['sent', 'sent', 'answered', 'answered', 'sent', 'answered']);
  });

  it('sends two independent reads together and answers each its own rows, in order', async () => {
    const [expectedTotal, expectedFolios] = await withScope(ctx.db, { companyId: demo }, async (tx) => [
      (await tx.select({ total: count() }).from(credits))[0]!.total,
      (await tx.select({ number: credits.number }).from(credits).orderBy(credits.number).limit(3)).map((row) => row.number),
    ]);
    recording = wire();
    const [page, counted] = await withScope(ctx.db, { companyId: demo }, (tx) =>
      together(
        tx,
        tx.select({ number: credits.number }).from(credits).orderBy(credits.number).limit(3),
        tx.select({ total: count() }).from(credits),
      ),
    );
    recording.restore();
    expect(page.map((row) => row.number)).toEqual(expectedFolios);
    expect(counted[0]!.total).toBe(expectedTotal);
    // BEGIN, the page and the count all go before the first answer.
    expect(recording.events.slice(0, 4)).toEqual(['sent', 'sent', 'sent', 'answered']);
  });

  it('writes what a turn of the event loop sends on a connection in one write to its socket', async () => {
    const writes = socketWrites();
    try {
      await withScope(ctx.db, { companyId: demo }, (tx) =>
        together(tx, tx.select({ number: credits.number }).from(credits).limit(3), tx.select({ total: count() }).from(credits)),
      );
    } finally {
      writes.restore();
    }
    // BEGIN with the scope, the page and the count in one write; COMMIT in another.
    expect(writes.count).toBe(2);
  });

  it('sends a transaction committed in its first turn as one write: BEGIN, the reads and COMMIT', async () => {
    recording = wire();
    const writes = socketWrites();
    let answer: [{ number: number }[], { total: number }[]];
    try {
      answer = await withScope(
        ctx.db,
        { companyId: demo },
        (tx) =>
          together(
            tx,
            tx.select({ number: credits.number }).from(credits).orderBy(credits.number).limit(3),
            tx.select({ total: count() }).from(credits),
          ),
        { commitInFirstTurn: true },
      );
    } finally {
      writes.restore();
      recording.restore();
    }
    expect(answer[1][0]!.total).toBe(await demoCount());
    expect(answer[0]).toHaveLength(3);
    expect(writes.count).toBe(1);
    // BEGIN, the page, the count and COMMIT all sent before the first answer.
    expect(recording.events).toEqual(['sent', 'sent', 'sent', 'sent', 'answered', 'answered', 'answered', 'answered']);
  });

  it('commits what a first-turn transaction wrote, and refuses a statement sent after its COMMIT', async () => {
    await withScope(
      ctx.db,
      { companyId: demo },
      (tx) =>
        tx
          .update(credits)
          .set({ employeeNumber: 'PIPE-4' })
          .where(sql`${credits.number} = (select min(number) from credits)`),
      {
        commitInFirstTurn: true,
      },
    );
    expect(await marked('PIPE-4')).toBe(1);
    const late = withScope(
      ctx.db,
      { companyId: demo },
      async (tx) => {
        await tx.select({ total: count() }).from(credits);
        return tx.update(credits).set({ employeeNumber: 'PIPE-5' });
      },
      { commitInFirstTurn: true },
    );
    await expect(late).rejects.toMatchObject({ cause: { message: expect.stringMatching(/readsInOneTurn/) } });
    expect(await marked('PIPE-5')).toBe(0);
    // A failing read in the first turn: its COMMIT ends an aborted transaction (a rollback), and its error is reported.
    const failed = withScope(
      ctx.db,
      { companyId: demo },
      (tx) =>
        together(
          tx,
          tx.update(credits).set({ employeeNumber: 'PIPE-6' }),
          tx.execute(sql`select 1 / (select count(*) - count(*) from credits)`),
        ),
      { commitInFirstTurn: true },
    );
    await expect(failed).rejects.toMatchObject({ cause: { message: 'division by zero' } });
    expect(await marked('PIPE-6')).toBe(0);
  });

  /**
   * A committed and a rolled-back transaction in Demo Cartera's scope, each handing its tx to `during` after one read,
   * as work that keeps a reference or schedules a statement past its end would.
   */
  const committedAndRolledBack = async (during: (tx: Tx) => void) => {
    await withScope(ctx.db, { companyId: demo }, async (tx) => {
      await tx.select({ total: count() }).from(credits);
      during(tx);
    });
    const failure = new Error('la ruta falló');
    await expect(
      withScope(ctx.db, { companyId: demo }, async (tx) => {
        await tx.select({ total: count() }).from(credits);
        during(tx);
        throw failure;
      }),
    ).rejects.toBe(failure);
  };
  /** A statement's outcome, its refusal caught as it happens: 'sent' when it was not refused. */
  const outcomeOf = (statement: PromiseLike<unknown>) =>
    statement.then(
      () => 'sent',
      (error: unknown) => error,
    );
  /** Both transactions' late statements were refused, as sent after their transaction's end. */
  const expectRefusedAsEnded = async (late: PromiseLike<unknown>[]) => {
    expect(late).toHaveLength(2);
    for (const outcome of await Promise.all(late))
      expect(outcome).toMatchObject({ cause: { message: expect.stringMatching(/ya terminó/) } });
  };

  it('refuses a statement sent through a transaction that has ended, committed or rolled back', async () => {
    const kept: Tx[] = [];
    await committedAndRolledBack((tx) => kept.push(tx));
    // Their connections are back in the pool, in other transactions: a kept reference must not reach them.
    const others = Array.from({ length: 40 }, () =>
      withScope(ctx.db, { companyId: demo }, (tx) => tx.select({ total: count() }).from(credits)),
    );
    await expectRefusedAsEnded(kept.map((tx) => outcomeOf(tx.update(credits).set({ employeeNumber: 'PIPE-7' }))));
    await Promise.all(others);
    expect(await marked('PIPE-7')).toBe(0);
  });

  it('refuses a statement sent once COMMIT or ROLLBACK has gone, before its answer: it would run outside the transaction', async () => {
    // Scheduled by the work, the insert runs after the work's end has made the transaction send its COMMIT or ROLLBACK
    // (in that turn's microtasks) and before the write coalescing writes it (its setImmediate is scheduled later): it
    // goes on the connection behind the transaction's end, before the pool has it back. Into a table without row-level
    // security, so that a write run outside the transaction would be kept.
    const late: PromiseLike<unknown>[] = [];
    await committedAndRolledBack((tx) =>
      setImmediate(() => late.push(outcomeOf(tx.insert(auditEvents).values({ action: 'PIPE-8', entity: 'credit', entityId: 'PIPE-8' })))),
    );
    await expectRefusedAsEnded(late);
    const [kept] = await ctx.system((tx) =>
      tx
        .select({ total: count() })
        .from(auditEvents)
        .where(sql`${auditEvents.action} = 'PIPE-8'`),
    );
    expect(kept!.total).toBe(0);
  });

  it('keeps each transaction to its own company when hundreds run at once on the 20 pipelined connections', async () => {
    const rows = await ctx.system((tx) => tx.select().from(companies));
    const plus = rows.find((row) => row.code === 'PLUS')!.id;
    const expected = new Map<string, number>([
      [demo, await demoCount()],
      [
        plus,
        await ctx
          .system((tx) =>
            tx
              .select({ total: count() })
              .from(credits)
              .where(sql`${credits.companyId} = ${plus}`),
          )
          .then(([row]) => row!.total),
      ],
      ['all', await ctx.system((tx) => tx.select({ total: count() }).from(credits)).then(([row]) => row!.total)],
    ]);
    expect(expected.get(demo)).toBeGreaterThan(0);
    expect(expected.get(plus)).toBeGreaterThan(0);
    // Companies, SA and the first-turn COMMIT interleaved, so that one connection serves them one after another.
    const runs = Array.from({ length: 300 }, (_, index) => {
      const key = [demo, plus, 'all'][index % 3]!;
      const scope = key === 'all' ? ('all-companies' as const) : { companyId: key };
      return withScope(
        ctx.db,
        scope,
        (tx) =>
          together(
            tx,
            tx.select({ total: count() }).from(credits),
            tx.select({ companies: sql<number>`count(distinct ${credits.companyId})::int` }).from(credits),
          ),
        { commitInFirstTurn: index % 2 === 0 },
      ).then(([[counted], [distinct]]) => ({ key, total: counted!.total, companies: distinct!.companies }));
    });
    for (const run of await Promise.all(runs)) {
      expect(run.total).toBe(expected.get(run.key));
      expect(run.companies).toBe(run.key === 'all' ? 2 : 1);
    }
  });

  /** Credits of every company marked by a test's update (employee_number), read across companies. */
  const marked = (mark: string) =>
    ctx
      .system((tx) =>
        tx
          .select({ total: count() })
          .from(credits)
          .where(sql`${credits.employeeNumber} = ${mark}`),
      )
      .then(([row]) => row!.total);

  it("fails with the first statement's own error, rolls back, and leaves the connection fit for the next request", async () => {
    const failed = withScope(ctx.db, { companyId: demo }, async (tx) => {
      await tx.update(credits).set({ employeeNumber: 'PIPE-1' });
      return together(tx, tx.execute(sql`select 1 / (select count(*) - count(*) from credits)`), tx.execute(sql`select 1`));
    });
    // Drizzle wraps the driver's error: the reason is its cause.
    await expect(failed).rejects.toMatchObject({ cause: { message: 'division by zero' } });
    expect(await marked('PIPE-1')).toBe(0);
    // The same connections serve the next transactions (20 at once take every one of the pool's).
    const totals = await Promise.all(
      Array.from({ length: 20 }, () => withScope(ctx.db, { companyId: demo }, (tx) => tx.select({ total: count() }).from(credits))),
    );
    expect(new Set(totals.map(([row]) => row!.total))).toEqual(new Set([await demoCount()]));
  });

  it('reports a failed opening as the error, and nothing sent behind it is kept', async () => {
    // The scope set, then a failure in the same statement: the transaction is aborted, the update behind it refused.
    const afterScope = transactionWith(ctx.db, `select set_config('app.company_id', '${demo}', true), 1 / 0`, (tx) =>
      tx.update(credits).set({ employeeNumber: 'PIPE-2' }),
    );
    await expect(afterScope).rejects.toThrow(/division by zero/);
    expect(await marked('PIPE-2')).toBe(0);
    // An opening PostgreSQL cannot even parse runs nothing, BEGIN included: the update behind it runs on its own, with
    // no company set, and row-level security gives it no rows.
    const unparsed = transactionWith(ctx.db, 'no es sql', (tx) => tx.update(credits).set({ employeeNumber: 'PIPE-3' }));
    await expect(unparsed).rejects.toThrow(/syntax error/);
    expect(await marked('PIPE-3')).toBe(0);
  });
});
