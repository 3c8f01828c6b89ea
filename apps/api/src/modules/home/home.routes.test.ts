import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { addDays, formatCents, parseCents } from '@portal/lending';
import { AGING_BUCKETS, PENDING_REQUEST_STATUSES, type HomeSummary } from '@portal/contract';
import { credits, expectedDeductions } from '../../db/schema/credits';
import { requests } from '../../db/schema/origination';
import { payments } from '../../db/schema/payments';
import { businessDates } from '../../db/schema/portfolio';
import { companies } from '../../db/schema/users';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { closeDay } from '../business-date/close-day';

const TODAY = '2026-11-23';
const sum = (amounts: string[]) => formatCents(amounts.reduce((total, amount) => total + parseCents(amount, 'importe'), 0n));
const monthStart = (date: string) => `${date.slice(0, 8)}01`;

/**
 * The figures a second way: every row of the companies read as the system, and each figure summed here in JavaScript,
 * as someone checking the home with a spreadsheet would.
 */
async function expectedFor(ctx: TestContext, companyCodes: string[]) {
  return ctx.system(async (tx) => {
    const visible = await tx.select().from(companies).where(inArray(companies.code, companyCodes));
    const ids = visible.map((company) => company.id);
    const dates = await tx.select().from(businessDates).where(inArray(businessDates.companyId, ids));
    const dateOf = (companyId: string) => dates.find((row) => row.companyId === companyId)?.businessDate ?? TODAY;
    const open = (await tx.select().from(credits).where(inArray(credits.companyId, ids))).filter((credit) => credit.status !== 'liquidado');
    const deductions = await tx.select().from(expectedDeductions).where(inArray(expectedDeductions.companyId, ids));
    const paid = await tx.select().from(payments).where(inArray(payments.companyId, ids));
    const inWindow = (companyId: string, date: string) => date >= monthStart(dateOf(companyId)) && date <= dateOf(companyId);
    const pending = await tx.select().from(requests).where(inArray(requests.companyId, ids));
    const transit = deductions.filter((row) => row.state === 'en tránsito');
    return {
      count: open.length,
      outstandingBalance: sum(open.map((credit) => credit.outstandingBalance)),
      overdueBalance: sum(open.map((credit) => credit.overdueBalance)),
      byStatus: (['vigente', 'vencido'] as const).map((status) => {
        const of = open.filter((credit) => credit.status === status);
        return { status, count: of.length, balance: sum(of.map((credit) => credit.outstandingBalance)) };
      }),
      byBucket: AGING_BUCKETS.map((bucket) => {
        const of = open.filter((credit) => credit.agingBucket === bucket);
        return { bucket, count: of.length, balance: sum(of.map((credit) => credit.outstandingBalance)) };
      }),
      expected: sum(deductions.filter((row) => inWindow(row.companyId, row.discountDate)).map((row) => row.amount)),
      received: sum(paid.filter((row) => row.status === 'aplicado' && inWindow(row.companyId, row.valueDate)).map((row) => row.amount)),
      transit: { count: transit.length, balance: sum(transit.map((row) => row.amount)) },
      pendingRequests: PENDING_REQUEST_STATUSES.map((status) => ({ status, count: pending.filter((row) => row.status === status).length })),
    };
  });
}

describe.each(BEHAVIOUR_ENGINES)('Inicio: the portfolio figures (%s)', (engine) => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp(engine, { jobs: false });
    await seedDemoPortfolio(ctx.db, ctx.clock.now(), 60);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const summaryOf = async (email: string) => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/home/summary', headers: await ctx.as(email) });
    return { status: response.statusCode, body: response.json() as HomeSummary };
  };

  it.each([
    ['cartera@demo.mx', ['DEMO']],
    ['plus@demo.mx', ['PLUS']],
    ['admin@demo.mx', ['DEMO', 'PLUS']],
  ])('gives %s the figures of its companies (%j), each equal to the sum of their rows', async (email, codes) => {
    const { status, body } = await summaryOf(email);
    expect(status).toBe(200);
    const expected = await expectedFor(ctx, codes);
    expect(body.portfolio).toEqual({
      count: expected.count,
      outstandingBalance: expected.outstandingBalance,
      overdueBalance: expected.overdueBalance,
      byStatus: expected.byStatus,
      byBucket: expected.byBucket,
    });
    expect([body.collections.expected, body.collections.received]).toEqual([expected.expected, expected.received]);
    expect(body.collections.through).toBe(TODAY);
    expect(body.collections.from).toBe('2026-11-01');
    expect(body.transit).toEqual(expected.transit);
    expect(body.pendingRequests).toEqual(expected.pendingRequests);
    expect(body.businessDates).toHaveLength(codes.length);
    expect(body.lastFiles.length).toBeLessThanOrEqual(5);
  });

  it('has figures worth showing: credits in several buckets, money received this month and files', async () => {
    const { body } = await summaryOf('admin@demo.mx');
    expect(body.portfolio.count).toBeGreaterThan(0);
    expect(body.portfolio.byBucket.filter((bucket) => bucket.count > 0).length).toBeGreaterThan(1);
    expect(parseCents(body.collections.received, 'recibido')).toBeGreaterThan(0n);
    expect(body.lastFiles.length).toBeGreaterThan(0);
    const uploaded = body.lastFiles.map((file) => file.uploadedAt);
    expect(uploaded).toEqual([...uploaded].sort().reverse());
  });

  it('keeps one company out of the other: PLUS sees none of DEMO’s files', async () => {
    const plus = await summaryOf('plus@demo.mx');
    const demo = await summaryOf('cartera@demo.mx');
    const demoFiles = new Set(demo.body.lastFiles.map((file) => file.id));
    expect(plus.body.lastFiles.some((file) => demoFiles.has(file.id))).toBe(false);
    expect(plus.body.portfolio.count + demo.body.portfolio.count).toBe((await summaryOf('admin@demo.mx')).body.portfolio.count);
  });

  // Last: it closes DEMO's day, which the tests above read as open.
  it('keeps the figures a day close computes, dated, and they still equal the sum of the rows', async () => {
    // The seed kept each company's figures as it finished.
    const seeded = ctx.clock.now().toISOString();
    expect((await summaryOf('cartera@demo.mx')).body.figuresAt).toBe(seeded);
    ctx.clock.advance(3_600_000);
    const demo = await ctx.system(async (tx) => (await tx.select().from(companies).where(eq(companies.code, 'DEMO')))[0]!);
    await closeDay(ctx.db, demo.id, TODAY, { now: () => ctx.clock.now() });

    const after = await summaryOf('cartera@demo.mx');
    expect(after.body.figuresAt).toBe(ctx.clock.now().toISOString());
    expect(after.body.collections.through).toBe(addDays(TODAY, 1));
    const expected = await expectedFor(ctx, ['DEMO']);
    expect(after.body.portfolio.byBucket).toEqual(expected.byBucket);
    expect(after.body.portfolio.outstandingBalance).toBe(expected.outstandingBalance);
    expect(after.body.transit).toEqual(expected.transit);
    expect([after.body.collections.expected, after.body.collections.received]).toEqual([expected.expected, expected.received]);
    // SA adds DEMO's new figures to PLUS's, and dates them by the older (PLUS's, from the seed).
    const all = await summaryOf('admin@demo.mx');
    const plus = await summaryOf('plus@demo.mx');
    expect(all.body.figuresAt).toBe(seeded);
    expect(all.body.portfolio.count).toBe(after.body.portfolio.count + plus.body.portfolio.count);
    const cents = (value: string) => parseCents(value, 'saldo');
    expect(cents(all.body.portfolio.outstandingBalance)).toBe(
      cents(after.body.portfolio.outstandingBalance) + cents(plus.body.portfolio.outstandingBalance),
    );
  });

  it.each(['originacion@demo.mx', 'sinpermisos@demo.mx'])('refuses %s, who holds no Cartera permission', async (email) => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/home/summary', headers: await ctx.as(email) });
    expect(response.statusCode).toBe(403);
  });
});
