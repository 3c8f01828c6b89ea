import pg from 'pg';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { breathe, Pipeline } from './pipeline';

/** A statement that answers `value` when released, recording when it started. */
function statement<T>(log: string[], name: string, value: T, fail?: Error) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const run = () => {
    log.push(`start ${name}`);
    return released.then(() => {
      log.push(`end ${name}`);
      if (fail) throw fail;
      return value;
    });
  };
  return { run, release };
}

describe('Pipeline', () => {
  it('starts each statement when the one before it has answered, in the order queued', async () => {
    const log: string[] = [];
    const pipeline = new Pipeline();
    const a = statement(log, 'a', 1);
    const b = statement(log, 'b', 2);
    const first = pipeline.send(a.run);
    const second = pipeline.send(b.run);
    await breathe();
    expect(log).toEqual(['start a']);
    b.release();
    await breathe();
    expect(log).toEqual(['start a']);
    a.release();
    expect(await first).toBe(1);
    expect(await second).toBe(2);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
    await pipeline.drain();
  });

  it('sends nothing after a failure, and every later answer and the drain report that first failure', async () => {
    const log: string[] = [];
    const pipeline = new Pipeline();
    const cause = new Error('llave duplicada');
    const a = statement(log, 'a', 1, cause);
    const b = statement(log, 'b', 2);
    pipeline.queue(a.run);
    const second = pipeline.send(b.run);
    a.release();
    b.release();
    await expect(second).rejects.toBe(cause);
    await expect(pipeline.drain()).rejects.toBe(cause);
    expect(log).toEqual(['start a', 'end a']);
  });

  it('halts on a failure of its caller: waits for the statement in flight and sends none of those behind it', async () => {
    const log: string[] = [];
    const pipeline = new Pipeline();
    const a = statement(log, 'a', 1);
    const b = statement(log, 'b', 2);
    pipeline.queue(a.run);
    const second = pipeline.send(b.run);
    await breathe();
    const cause = new Error('el proceso se detuvo');
    let halted = false;
    const halting = pipeline.halt(cause).then(() => (halted = true));
    await breathe();
    expect(halted).toBe(false);
    a.release();
    b.release();
    await halting;
    await expect(second).rejects.toBe(cause);
    expect(log).toEqual(['start a', 'end a']);
    await expect(pipeline.drain()).rejects.toBe(cause);
  });

  it('on a pipelined connection starts every statement when queued, in order, and later answers report the first failure', async () => {
    const log: string[] = [];
    const pipeline = new Pipeline({ atOnce: true });
    const cause = new Error('llave duplicada');
    const aborted = new Error('current transaction is aborted');
    const a = statement(log, 'a', 1, cause);
    const b = statement(log, 'b', 2, aborted);
    const first = pipeline.send(a.run);
    const second = pipeline.send(b.run);
    expect(log).toEqual(['start a', 'start b']);
    // The statement behind answers first here; its answer still waits for the one before it and reports that one.
    b.release();
    await breathe();
    a.release();
    await expect(first).rejects.toBe(cause);
    await expect(second).rejects.toBe(cause);
    // Once a failure is known nothing more is sent.
    const c = statement(log, 'c', 3);
    const third = pipeline.send(c.run);
    c.release();
    await expect(third).rejects.toBe(cause);
    await expect(pipeline.drain()).rejects.toBe(cause);
    expect(log).toEqual(['start a', 'start b', 'end b', 'end a']);
  });

  it('on a pipelined connection halts by waiting for every statement already sent', async () => {
    const log: string[] = [];
    const pipeline = new Pipeline({ atOnce: true });
    const a = statement(log, 'a', 1);
    const b = statement(log, 'b', 2);
    pipeline.queue(a.run);
    pipeline.queue(b.run);
    let halted = false;
    const halting = pipeline.halt(new Error('el proceso se detuvo')).then(() => (halted = true));
    a.release();
    await breathe();
    expect(halted).toBe(false);
    b.release();
    await halting;
    expect(log).toEqual(['start a', 'start b', 'end a', 'end b']);
  });

  it('drains at once when nothing was queued', async () => {
    await expect(new Pipeline().drain()).resolves.toBeUndefined();
  });
});

/** What the pipeline is for: the database runs a statement while this process computes. */
describe.runIf(inject('postgresTemplate'))('Pipeline on PostgreSQL', () => {
  it('overlaps a statement with the work the process does after queueing it', async () => {
    const client = new pg.Client({ connectionString: inject('postgresAdminUrl') });
    await client.connect();
    try {
      const pipeline = new Pipeline();
      // The server's own clock says when it began and ended the statement (the same host's clock as Date.now()).
      const answer = pipeline.send(() =>
        client.query<{ began: string; ended: string }>(
          `select (extract(epoch from statement_timestamp()) * 1000)::float8 as began, pg_sleep(0.5),
                  (extract(epoch from clock_timestamp()) * 1000)::float8 as ended`,
        ),
      );
      await breathe(); // The work below lets the event loop run now and then, as an allocation between rows.
      const workStarted = Date.now();
      const busyUntil = performance.now() + 500;
      while (performance.now() < busyUntil) {
        // 500 ms of this process's own work.
      }
      const workEnded = Date.now();
      const { rows } = await answer;
      await pipeline.drain();
      // Overlapped: the server ran the statement while this process worked. One after the other, the statement would
      // begin only once the work had ended. Clock readings, not a budget: a busy machine makes both slower alike.
      const [began, ended] = [Number(rows[0]!.began), Number(rows[0]!.ended)];
      expect(began).toBeLessThan(workEnded);
      expect(ended).toBeGreaterThan(workStarted);
    } finally {
      await client.end();
    }
  });
  it('on a pipelined connection, the server starts the next statement while the process is still busy', async () => {
    const client = new pg.Client({ connectionString: inject('postgresAdminUrl'), pipeline: true });
    await client.connect();
    try {
      const pipeline = new Pipeline({ atOnce: true });
      const first = pipeline.send(() => client.query(`select pg_sleep(0.2)`));
      const second = pipeline.send(() =>
        client.query<{ began: string }>(`select (extract(epoch from statement_timestamp()) * 1000)::float8 as began`),
      );
      await breathe();
      const busyUntil = performance.now() + 600;
      while (performance.now() < busyUntil) {
        // 600 ms of this process's own work, without letting the event loop take the first answer.
      }
      const workEnded = Date.now();
      await first;
      const { rows } = await second;
      await pipeline.drain();
      // Sent after the first answer was taken, the second statement would begin only once the work had ended.
      expect(Number(rows[0]!.began)).toBeLessThan(workEnded);
    } finally {
      await client.end();
    }
  });

  it('on a pipelined connection, the statements sent behind a refused one report that refusal', async () => {
    const client = new pg.Client({ connectionString: inject('postgresAdminUrl'), pipeline: true });
    await client.connect();
    try {
      await client.query('begin');
      const pipeline = new Pipeline({ atOnce: true });
      const refused = pipeline.send(() => client.query(`select 1 / 0`));
      const behind = pipeline.send(() => client.query(`select 1`));
      await expect(refused).rejects.toThrow(/division by zero/);
      await expect(behind).rejects.toThrow(/division by zero/);
      await expect(pipeline.drain()).rejects.toThrow(/division by zero/);
      await client.query('rollback');
      expect((await client.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  });
});
