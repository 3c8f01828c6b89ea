import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { BEHAVIOUR_ENGINES, openEngine } from '../test/test-app';
import type { Database } from '../db/client';
import { startJobQueue, type JobQueue } from './job-queue';
import { until } from '../test/until';

describe.each(BEHAVIOUR_ENGINES)('job queue (%s)', (engine) => {
  let opened: { database: Database; url?: string; drop: () => Promise<void> } | undefined;
  const running: JobQueue[] = [];
  afterEach(async () => {
    for (const queue of running.splice(0)) await queue.stop();
    await opened?.database.close();
    await opened?.drop();
  });

  it('keeps a job queued in a committed transaction across a restart, and none from a rolled-back one', async () => {
    opened = await openEngine(engine);
    const { database, url } = opened;
    const first = await startJobQueue(database, url, ['prueba']);
    running.push(first);
    const kept = await database.db.transaction((tx) => first.send('prueba', { folio: 'kept' }, tx));
    await expect(
      database.db.transaction(async (tx) => {
        await first.send('prueba', { folio: 'rolled back' }, tx);
        throw new Error('la transacción se deshace');
      }),
    ).rejects.toThrow('la transacción se deshace');
    // The process stops before any worker took the job (a deploy, a crash); the next one finds it.
    await running.pop()!.stop();

    const second = await startJobQueue(database, url, ['prueba']);
    running.push(second);
    const seen: { folio: string; id: string }[] = [];
    await second.work<{ folio: string }>('prueba', async (data, id) => {
      seen.push({ folio: data.folio, id });
    });
    await until(() => seen.length > 0);
    expect(seen).toEqual([{ folio: 'kept', id: kept }]);
    // Nothing else was ever queued: pg-boss's own table holds the one job, which no wait could prove.
    const { rows } = (await database.db.execute(sql`select data->>'folio' as folio from pgboss.job where name = 'prueba'`)) as unknown as {
      rows: { folio: string }[];
    };
    expect(rows).toEqual([{ folio: 'kept' }]);
    expect(seen).toHaveLength(1);
  });
});
