import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows';
import { withScope } from '../../db/scope';
import { companies } from '../../db/schema/users';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { changePortfolio } from './change-portfolio';

const workMem = async (tx: Parameters<Parameters<typeof withScope>[2]>[0]) =>
  rowsOf<{ work_mem: string }>(await tx.execute(sql`select current_setting('work_mem') as work_mem`))[0]!.work_mem;

describe.each(ENGINES)('the portfolio door (%s)', (engine) => {
  let ctx: TestContext;
  let demo: string;

  beforeAll(async () => {
    ctx = await createTestApp(engine);
    await seedDemoPortfolio(ctx.db, ctx.clock.now(), 4);
    const rows = await ctx.system((tx) => tx.select().from(companies));
    demo = rows.find((row) => row.code === 'DEMO')!.id;
  });
  afterAll(() => ctx?.close());

  it("gives every change the aging's memory, and only for its own transaction", async () => {
    const today = ctx.clock.now().toISOString().slice(0, 10);
    const change = () =>
      withScope(ctx.db, { companyId: demo }, (tx) =>
        changePortfolio(tx, demo, { today, now: ctx.clock.now(), figures: false }, () => workMem(tx)),
      );
    // One after another: on PostgreSQL they take the same idle connection of the pool, whose transaction object
    // client.ts keeps from one transaction to the next (a marker kept on that object once skipped the setting).
    const seen = [await change(), await change(), await change()];
    expect(seen).toEqual(['256MB', '256MB', '256MB']);
    // `set local`: a transaction outside the door runs with the server's own setting.
    const outside = await withScope(ctx.db, { companyId: demo }, workMem);
    expect(outside).not.toBe('256MB');
  });
});
