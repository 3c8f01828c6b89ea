import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { credits } from '../db/schema/credits';
import { settlementLetters } from '../db/schema/letters';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../test/test-app';
import { seedDemoPortfolio } from './seed-portfolio';

/**
 * `npm start` seeds the demo at the real date, and what the seed finds depends on it: which paydays have passed, which
 * are unanswered and en tránsito, which credits a renewal or a letter can take. On 28 November a credit owing only
 * what was en tránsito stopped the letters' seed, and with it the portal's first start. The seed must complete on
 * every day of a payroll month (both paydays, the days around them, month ends) and at this test's own date.
 */
const INSTANTS = [
  '2026-11-28T18:00:00Z',
  '2026-11-29T05:30:00Z', // 23:30 of the 28th in Mexico City
  '2026-11-30T18:00:00Z',
  '2026-12-01T18:00:00Z',
  '2026-12-08T18:00:00Z',
  '2026-12-14T18:00:00Z',
  '2026-12-15T18:00:00Z',
  '2026-12-16T18:00:00Z',
  '2026-12-22T18:00:00Z',
  '2026-12-31T18:00:00Z',
  '2027-01-01T18:00:00Z',
  new Date().toISOString(),
];

describe.each(BEHAVIOUR_ENGINES)('the demo seed on any date (%s)', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(engine, { snapshot: true });
  });
  afterAll(() => ctx?.close());

  it.each(INSTANTS)('seeds the demo portfolio at %s, letters included, each on a credit that still owes', async (instant) => {
    await ctx.reset();
    await seedDemoPortfolio(ctx.db, new Date(instant));
    const issued = await ctx.system((tx) =>
      tx
        .select({ status: credits.status, balance: credits.outstandingBalance })
        .from(settlementLetters)
        .innerJoin(credits, eq(credits.id, settlementLetters.creditId)),
    );
    expect(issued.length).toBeGreaterThan(0);
    for (const credit of issued) expect([credit.status, Number(credit.balance) > 0]).toEqual(['vigente', true]);
  });
});
