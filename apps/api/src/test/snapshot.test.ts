import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, createTestApp, type TestContext } from './test-app';
import { agreementProducts, agreements } from '../db/schema/agreements';
import { auditEvents, outbox } from '../db/schema/audit';
import { preRequests } from '../db/schema/origination';
import { companies, profiles, users } from '../db/schema/users';

/**
 * One app and database per test file, put back before each test: what one test leaves behind (rows, the next folio of
 * a sequence, the clock) must not reach the next. The first test writes; the second, run after it, finds none of it.
 */
describe.each(ENGINES)('a test app reset between tests (%s)', (engine) => {
  let ctx: TestContext;
  /** What the first test left behind, for the second to look for. */
  const left: { email?: string; folio?: string; counts?: Awaited<ReturnType<typeof counts>> } = {};

  beforeAll(async () => {
    ctx = await createTestApp(engine, { snapshot: true });
  });
  afterAll(() => ctx.close());
  beforeEach(() => ctx.reset());

  const counts = () =>
    ctx.system(async (tx) => ({
      users: (await tx.select({ total: count() }).from(users))[0]!.total,
      auditEvents: (await tx.select({ total: count() }).from(auditEvents))[0]!.total,
      outbox: (await tx.select({ total: count() }).from(outbox))[0]!.total,
      preRequests: (await tx.select({ total: count() }).from(preRequests))[0]!.total,
    }));

  async function createPreRequest(): Promise<string> {
    const [product] = await ctx.system((tx) =>
      tx
        .select({ agreementId: agreements.id, productId: agreementProducts.id })
        .from(agreements)
        .innerJoin(agreementProducts, eq(agreementProducts.agreementId, agreements.id))
        .where(eq(agreements.code, 'GOB-JAL')),
    );
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/pre-requests',
      headers: await ctx.as('originacion@demo.mx'),
      payload: {
        curp: 'PXNE660720HMCXTN06',
        rfc: '',
        firstNames: 'Enrique',
        lastName1: 'Peña',
        lastName2: 'Nieto',
        ...product,
        employeeNumber: 'J-1001',
        netSalary: '8000',
        otherDeductions: '500',
        amount: '20000',
        term: 24,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ folio: string }>().folio;
  }

  it('lets a test write committed rows, draw a folio and move the clock', async () => {
    const before = await counts();
    left.counts = before;
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: await ctx.as('admin@demo.mx'),
      payload: {
        email: 'deja.rastro@demo.mx',
        name: 'Deja Rastro',
        profileId: await profileId('Cartera'),
        companyId: await companyId(),
        active: true,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    left.email = 'deja.rastro@demo.mx';
    left.folio = await createPreRequest();
    ctx.clock.advance(86_400_000);
    // Committed: another pooled connection (another request) sees them.
    const after = await counts();
    expect(after.users).toBe(before.users + 1);
    expect(after.preRequests).toBe(before.preRequests + 1);
    expect(after.auditEvents).toBeGreaterThan(before.auditEvents);
    expect(after.outbox).toBe(before.outbox + 1);
  });

  it('starts the next test without any of it', async () => {
    expect(left.email).toBeDefined();
    expect(await counts()).toEqual(left.counts);
    expect(await ctx.system((tx) => tx.select().from(users).where(eq(users.email, left.email!)))).toEqual([]);
    expect(ctx.clock.now().toISOString()).toBe('2026-11-23T15:00:00.000Z');
    // The sequence behind the folios is back too: the same folio is drawn again.
    expect(await createPreRequest()).toBe(left.folio);
  });

  async function profileId(name: string): Promise<string> {
    return (await ctx.system((tx) => tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.name, name))))[0]!.id;
  }

  async function companyId(): Promise<string> {
    return (await ctx.system((tx) => tx.select({ id: companies.id }).from(companies).where(eq(companies.code, 'DEMO'))))[0]!.id;
  }
});
