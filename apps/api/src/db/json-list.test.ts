import { asc, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoPortfolio } from '../seed/seed-portfolio';
import { ENGINES, createTestApp, type TestContext } from '../test/test-app';
import { jsonList, jsonObject, jsonStatement } from './json-list';
import { auditEvents } from './schema/audit';
import { credits, installments } from './schema/credits';

/**
 * The reference is Drizzle's own select of the same rows: a row read through the JSON that PostgreSQL builds must be the
 * row Drizzle returns, value for value (money with its two decimals, timestamps to the millisecond, dates as text,
 * arrays, json of every kind, nulls).
 */
describe.each(ENGINES)('rows read as one JSON value (%s)', (engine) => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp(engine);
    await seedDemoPortfolio(ctx.db, ctx.clock.now(), 12);
    await ctx.system(async (tx) => {
      const [credit] = await tx.select({ id: credits.id }).from(credits).orderBy(asc(credits.number)).limit(1);
      // Values JSON could change on the way: a whole-peso amount (1234.00), labels, a null date, json of each kind.
      await tx
        .update(credits)
        .set({ creditBalance: '1234.00', labels: ['Jubilado', 'Con "comillas", y coma'], nextDiscountDate: null })
        .where(eq(credits.id, credit!.id));
      await tx.insert(auditEvents).values(
        [{ amount: 10.5, nested: { list: [1, 'dos', null] } }, 'texto', 42, null, [true, false]].map((after, index) => ({
          occurredAt: new Date(Date.UTC(2026, 10, 23, 15, 0, index, 123)),
          action: 'prueba',
          entity: 'credit',
          entityId: credit!.id,
          before: index === 0 ? null : { index },
          after,
        })),
      );
    });
  });
  afterAll(() => ctx?.close());

  it('reads each credit as Drizzle selects it: numeric, bigserial, boolean, dates, timestamps, arrays, nulls', async () => {
    const statement = jsonStatement(jsonObject(getTableColumns(credits)), sql`from ${credits}`);
    const read = await ctx.system((tx) => statement.run(tx, sql`order by ${credits.number}`));
    const selected = await ctx.system((tx) => tx.select().from(credits).orderBy(asc(credits.number)));
    expect(selected.length).toBeGreaterThan(0);
    expect(read).toEqual(selected);
    expect(
      read.some((credit) => credit.creditBalance === '1234.00' && credit.nextDiscountDate === null && credit.labels.length === 2),
    ).toBe(true);
  });

  it('reads a list in its order, at most its limit, as Drizzle selects it (json of every kind included)', async () => {
    const statement = jsonStatement(
      jsonObject({
        id: credits.id,
        schedule: jsonList(
          getTableColumns(installments),
          { from: sql`from ${installments}`, where: eq(installments.creditId, credits.id), orderBy: [desc(installments.number)] },
          (row) => row,
        ),
        history: jsonList(
          getTableColumns(auditEvents),
          {
            from: sql`from ${auditEvents}`,
            where: eq(auditEvents.entityId, sql`${credits.id}::text`),
            orderBy: [desc(auditEvents.occurredAt)],
            limit: 3,
          },
          (row) => ({ ...row, kind: 'entrada' as const }),
        ),
      }),
      sql`from ${credits}`,
    );
    const read = await ctx.system((tx) => statement.run(tx, sql`order by ${credits.number}`));
    for (const credit of read) {
      const schedule = await ctx.system((tx) =>
        tx.select().from(installments).where(eq(installments.creditId, credit.id)).orderBy(desc(installments.number)),
      );
      const history = await ctx.system((tx) =>
        tx.select().from(auditEvents).where(eq(auditEvents.entityId, credit.id)).orderBy(desc(auditEvents.occurredAt)).limit(3),
      );
      expect(credit.schedule).toEqual(schedule);
      expect(credit.history).toEqual(history.map((row) => ({ ...row, kind: 'entrada' })));
    }
    const withHistory = read.find((credit) => credit.history.length > 0)!;
    expect(withHistory.history.map((entry) => entry.after)).toEqual([[true, false], null, 42]);
    expect(read.every((credit) => credit.schedule.length > 0)).toBe(true);
  });

  it('refuses, when it is defined, an object of more values than json_build_array takes (100)', () => {
    const fields = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`f${index}`, sql`${index}`]));
    expect(() => jsonObject(fields(100))).not.toThrow();
    expect(() => jsonObject(fields(101))).toThrow(/101 campos/);
  });

  it('answers an empty list, not null, when there is nothing to read', async () => {
    const statement = jsonStatement(
      jsonObject({
        history: jsonList(
          { id: auditEvents.id },
          { from: sql`from ${auditEvents}`, where: sql`false`, orderBy: [asc(auditEvents.id)] },
          (row) => row.id,
        ),
      }),
      sql``,
    );
    expect(await ctx.system((tx) => statement.run(tx, sql``))).toEqual([{ history: [] }]);
  });
  it("takes a head's values after the tail's parameters, and refuses a tail with another count of them", async () => {
    const statement = jsonStatement(jsonObject({ id: credits.id, day: sql<string>`($2::date + 1)::text` }), sql`from ${credits}`, {
      tailParameters: 1,
    });
    const [first] = await ctx.system((tx) =>
      tx.select({ id: credits.id, number: credits.number }).from(credits).orderBy(asc(credits.number)).limit(1),
    );
    const read = await ctx.system((tx) => statement.run(tx, sql`where ${credits.id} = ${first!.id}`, ['2026-02-28']));
    expect(read).toEqual([{ id: first!.id, day: '2026-03-01' }]);
    await expect(
      ctx.system((tx) =>
        statement.run(tx, sql`where ${credits.id} = ${first!.id} and ${credits.number} = ${first!.number}`, ['2026-02-28']),
      ),
    ).rejects.toThrow(/la cola trae 2 parámetros/);
  });
});
