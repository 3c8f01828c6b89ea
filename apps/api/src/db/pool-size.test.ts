import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { postgresScratch } from '../test/test-app';
import { openDatabase } from './client';
import { rowsOf } from './rows';

/** How many server processes answer `requests` statements started at once, each holding its connection 150 ms. */
async function backendsServing(url: string, poolSize: number | undefined, requests: number): Promise<number> {
  const database = await openDatabase({ kind: 'postgres', url, ...(poolSize === undefined ? {} : { poolSize }) });
  try {
    const answers = await Promise.all(
      Array.from({ length: requests }, () => database.db.execute(sql`select pg_backend_pid() as pid, pg_sleep(0.15)`)),
    );
    return new Set(answers.map((answer) => rowsOf<{ pid: number }>(answer)[0]!.pid)).size;
  } finally {
    await database.close();
  }
}

describe.runIf(inject('postgresTemplate'))('DATABASE_POOL_SIZE on PostgreSQL', () => {
  it('caps the connections a process opens, and the rest of the requests wait for one', async () => {
    const scratch = await postgresScratch('template');
    try {
      expect(await backendsServing(scratch.url, 3, 9)).toBe(3);
      // Without the setting, the same nine statements each get a connection of their own (the default is 20).
      expect(await backendsServing(scratch.url, undefined, 9)).toBe(9);
    } finally {
      await scratch.drop();
    }
  });
});
