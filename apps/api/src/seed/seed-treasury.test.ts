import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc } from 'drizzle-orm';
import { paymentOrders, refunds } from '../db/schema/treasury';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../test/test-app';
import { seedDemoPortfolio } from './seed-portfolio';
import { seedTreasury } from './seed-treasury';

describe.each(BEHAVIOUR_ENGINES)('Tesorería demo seed (%s)', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(engine, {
      seed: async (db, now) => {
        await seedDemoPortfolio(db, now, 60);
        await seedTreasury(db, now);
      },
    });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('leaves paid, pending and rejected orders of both kinds, and a saldo a favor nobody asked for yet', async () => {
    const orders = await ctx.system((tx) => tx.select().from(paymentOrders).orderBy(asc(paymentOrders.number)));
    const of = (kind: string, status: string, rejected: boolean) =>
      orders.filter((order) => order.kind === kind && order.status === status && order.rejections > 0 === rejected).length;
    expect(of('dispersión', 'liquidada', false)).toBe(2);
    expect(of('dispersión', 'por enviar', true)).toBe(1);
    expect(of('dispersión', 'por enviar', false)).toBe(2);
    expect(of('devolución', 'liquidada', false)).toBe(1);
    expect(of('devolución', 'por enviar', true)).toBe(1);
    const asked = await ctx.system((tx) => tx.select().from(refunds).orderBy(asc(refunds.number)));
    expect(asked.map((refund) => refund.status)).toEqual(['pagada', 'aprobada', 'solicitada']);
    const candidates = await ctx.app.inject({ method: 'GET', url: '/api/refunds/candidates', headers: await ctx.as('cartera@demo.mx') });
    expect(candidates.json().items).toContainEqual(expect.objectContaining({ creditBalance: '450.00', available: '450.00' }));
  });
});
