import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/rows';
import { installments } from '../../db/schema/credits';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { SCHEDULE_TEXT, scheduleFromText } from './schedule-rows';

/** The schedules an application reads as text (schedule-rows.ts) are the rows the driver reads from the table, value for value. */
describe.each(BEHAVIOUR_ENGINES)('schedules read as text (%s)', (engine) => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp(engine);
    await seedDemoPortfolio(ctx.db, ctx.clock.now(), 12);
  });
  afterAll(() => ctx?.close());

  it('gives every column of every seeded schedule as the driver reads it, nulls and integers included', async () => {
    // Whatever the seed holds, one row with each optional column set and one with both empty.
    const [first] = await ctx.system((tx) =>
      tx.select().from(installments).orderBy(asc(installments.creditId), asc(installments.number)).limit(1),
    );
    await ctx.system((tx) =>
      tx
        .update(installments)
        .set({ days: 17, accruesFrom: '2026-02-03' })
        .where(and(eq(installments.creditId, first!.creditId), eq(installments.number, 1))),
    );
    await ctx.system((tx) =>
      tx
        .update(installments)
        .set({ days: null, accruesFrom: null })
        .where(and(eq(installments.creditId, first!.creditId), eq(installments.number, 2))),
    );

    const stored = await ctx.system((tx) => tx.select().from(installments).orderBy(asc(installments.creditId), asc(installments.number)));
    const texts = rowsOf<{ credit_id: string; company_id: string; schedule: string }>(
      await ctx.system((tx) =>
        tx.execute(
          sql`select credit_id, company_id, string_agg(${SCHEDULE_TEXT}, ';' order by number) as schedule from installments group by credit_id, company_id`,
        ),
      ),
    );
    expect(texts.length).toBeGreaterThanOrEqual(12);
    const read = texts.flatMap((text) => scheduleFromText(text.schedule, text.credit_id, text.company_id));
    read.sort((a, b) => (a.creditId === b.creditId ? a.number - b.number : a.creditId < b.creditId ? -1 : 1));
    const columns = Object.keys(read[0]!) as (keyof (typeof stored)[number])[];
    expect(columns).toEqual(
      expect.arrayContaining(['number', 'dueDate', 'principal', 'days', 'paidPrincipal', 'outstanding', 'accruesFrom']),
    );
    expect(read).toEqual(stored.map((row) => Object.fromEntries(columns.map((column) => [column, row[column]]))));
    expect(read.find((row) => row.creditId === first!.creditId && row.number === 1)).toMatchObject({ days: 17, accruesFrom: '2026-02-03' });
    expect(read.find((row) => row.creditId === first!.creditId && row.number === 2)).toMatchObject({ days: null, accruesFrom: null });
    expect(scheduleFromText(null, first!.creditId, first!.companyId)).toEqual([]);
  });
});
