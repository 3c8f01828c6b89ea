import { and, asc, desc, eq, gte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDemoPortfolio } from '../seed/seed-portfolio';
import { ENGINES, createTestApp, type TestContext } from '../test/test-app';
import type { Tx } from './client';
import { fixedSelect } from './fixed-select';
import { agreements } from './schema/agreements';
import { credits } from './schema/credits';
import { clients } from './schema/origination';
import { users } from './schema/users';

/**
 * The reference is Drizzle's own select of the same fields, tables, filters, order and page: a fixed select must answer
 * the same rows, value for value, and mapped the same way (nested objects, a left-joined table with no row as null).
 */
const nobody = alias(users, 'nobody');
const fields = {
  id: credits.id,
  folio: sql<string>`'CR-' || lpad(${credits.number}::text, 8, '0')`,
  credit: {
    number: credits.number,
    principal: credits.principal,
    labels: credits.labels,
    nextDiscountDate: credits.nextDiscountDate,
    disbursedAt: credits.disbursementDate,
  },
  client: { curp: clients.curp, createdAt: clients.createdAt },
  agreement: agreements,
  // A table joined with no row: Drizzle answers its nested object as null, and its plain column as null.
  nobody: { id: nobody.id, email: nobody.email },
  nobodyEmail: nobody.email,
};

const list = fixedSelect(fields, (select) =>
  select
    .from(credits)
    .innerJoin(clients, eq(clients.id, credits.clientId))
    .innerJoin(agreements, eq(agreements.id, credits.agreementId))
    .leftJoin(nobody, sql`false`),
);

const drizzleSelect = (tx: Tx) =>
  tx
    .select(fields)
    .from(credits)
    .innerJoin(clients, eq(clients.id, credits.clientId))
    .innerJoin(agreements, eq(agreements.id, credits.agreementId))
    .leftJoin(nobody, sql`false`);

describe.each(ENGINES)('a list select written out once (%s)', (engine) => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp(engine);
    await seedDemoPortfolio(ctx.db, ctx.clock.now(), 30);
    await ctx.system(async (tx) => {
      const [credit] = await tx.select({ id: credits.id }).from(credits).orderBy(asc(credits.number)).limit(1);
      await tx
        .update(credits)
        .set({ labels: ['Jubilado', 'Con "comillas", y coma'], nextDiscountDate: null })
        .where(eq(credits.id, credit!.id));
    });
  });
  afterAll(() => ctx?.close());

  it('answers every page as Drizzle selects it: values, nested objects, a table joined with no row as null', async () => {
    const where = gte(credits.principal, '0');
    const order = [desc(credits.principal), asc(credits.number)];
    const total = await ctx.system((tx) => drizzleSelect(tx).where(where));
    expect(total.length).toBeGreaterThan(20);
    for (const offset of [0, 10, 20]) {
      const fixed = await ctx.system((tx) =>
        list
          .in(tx)
          .where(where)
          .orderBy(...order)
          .limit(10)
          .offset(offset),
      );
      const reference = await ctx.system((tx) =>
        drizzleSelect(tx)
          .where(where)
          .orderBy(...order)
          .limit(10)
          .offset(offset),
      );
      expect(fixed).toEqual(reference);
      expect(fixed.length).toBeGreaterThan(0);
    }
    const [first] = await ctx.system((tx) => list.in(tx).orderBy(asc(credits.number)).limit(1));
    expect(first).toMatchObject({
      nobody: null,
      nobodyEmail: null,
      credit: { labels: ['Jubilado', 'Con "comillas", y coma'], nextDiscountDate: null },
    });
    expect(first!.client.createdAt).toBeInstanceOf(Date);
    expect(first!.folio).toMatch(/^CR-\d{8}$/);
  });

  it('can be awaited at any step, with or without filters', async () => {
    const all = await ctx.system((tx) => list.in(tx));
    const filtered = await ctx.system((tx) => list.in(tx).where(eq(credits.id, all[3]!.id)));
    const none = await ctx.system((tx) => list.in(tx).where(and(eq(credits.id, all[3]!.id), sql`false`)));
    expect(all).toHaveLength((await ctx.system((tx) => drizzleSelect(tx))).length);
    expect(filtered).toEqual([all[3]]);
    expect(none).toEqual([]);
  });

  it("sends the request's values as parameters and writes the page into the statement's text", async () => {
    const sent = await ctx.system(async (tx) => {
      const prepare = vi.spyOn(tx._.session, 'prepareQuery');
      await list.in(tx).where(eq(clients.curp, "O'BRIEN; drop table credits")).orderBy(asc(credits.number)).limit(25).offset(50);
      return prepare.mock.calls[0]![0];
    });
    expect(sent.params).toEqual(["O'BRIEN; drop table credits"]);
    expect(sent.sql).toMatch(/where "clients"\."curp" = \$1 order by "credits"\."number" asc limit 25 offset 50$/);
  });

  it("writes the head's own values into its text, so the request's parameters are numbered from one", async () => {
    const withValue = fixedSelect({ id: credits.id, kind: sql<string>`${'crédito'}` }, (select) => select.from(credits));
    const rows = await ctx.system((tx) => withValue.in(tx).where(gte(credits.number, 1)));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.kind === 'crédito')).toBe(true);
  });
});
