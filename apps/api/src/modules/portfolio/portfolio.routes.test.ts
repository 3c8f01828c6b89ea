import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { addDays } from '@portal/lending';
import { ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { seedDemoPortfolio } from '../../db/seed-portfolio';
import { clients, credits, users } from '../../db/schema';

type Headers = { authorization: string };
const TODAY = '2026-11-23';

describe.each(ENGINES)('Cartera API (%s)', (engine) => {
  let ctx: TestContext;
  let cartera: Headers;

  beforeEach(async () => {
    ctx = await createTestApp(engine, { jobs: true });
    await seedDemoPortfolio(ctx.db, ctx.clock.now(), 30);
    cartera = await ctx.as('cartera@demo.mx');
  });
  afterEach(async () => {
    await ctx.close();
  });

  const get = async (url: string, headers: Headers = cartera) => {
    const response = await ctx.app.inject({ method: 'GET', url, headers });
    return { status: response.statusCode, body: response.json() };
  };

  it('lists only the user company credits, filtered and sorted in SQL, with totals of the filtered set', async () => {
    const [me] = await ctx.system((tx) => tx.select().from(users).where(eq(users.email, 'cartera@demo.mx')));
    const own = await ctx.system((tx) => tx.select().from(credits).where(eq(credits.companyId, me!.companyId)));
    const list = await get('/api/portfolio/credits?pageSize=100&sort=-folio');
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(own.length);
    const folios = list.body.items.map((i: { folio: string }) => i.folio);
    expect(folios).toEqual([...folios].sort().reverse());

    const [client] = await ctx.system((tx) => tx.select().from(clients).where(eq(clients.id, own[0]!.clientId)));
    const byCurp = await get(`/api/portfolio/credits?q=${client!.curp}`);
    expect(byCurp.body.items.every((i: { curp: string }) => i.curp === client!.curp)).toBe(true);
    const byFolio = await get(`/api/portfolio/credits?q=${own[0]!.number}`);
    expect(byFolio.body.items.map((i: { id: string }) => i.id)).toContain(own[0]!.id);

    const totals = await get('/api/portfolio/credits/totals?status=vigente');
    expect(totals.body.count).toBe(own.filter((c) => c.status === 'vigente').length);

    const bad = await get('/api/portfolio/credits?bucket=99');
    expect(bad.status).toBe(400);
  });

  it('closes the day as a background job whose progress the API reports, then refuses the same day again', async () => {
    const dates = await get('/api/portfolio/business-dates');
    expect(dates.status).toBe(200);
    const mine = dates.body[0];
    expect(mine.businessDate).toBe(TODAY);

    const started = await ctx.app.inject({ method: 'POST', url: '/api/portfolio/day-closes', headers: cartera, payload: { throughDate: addDays(TODAY, 2) } });
    expect(started.statusCode).toBe(202);
    const run = started.json();
    expect(run.jobId).toBeTruthy();
    let progress = run;
    for (let i = 0; i < 120 && (progress.status === 'en espera' || progress.status === 'en curso'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      progress = (await get(`/api/portfolio/day-close-runs/${run.id}`)).body;
    }
    expect([progress.status, progress.daysDone, progress.daysTotal]).toEqual(['completado', 3, 3]);
    const history = await get('/api/portfolio/day-closes');
    expect(history.body.items.map((c: { businessDate: string }) => c.businessDate)).toEqual([addDays(TODAY, 2), addDays(TODAY, 1), TODAY]);
    expect((await get('/api/portfolio/business-dates')).body[0].businessDate).toBe(addDays(TODAY, 3));

    const again = await ctx.app.inject({ method: 'POST', url: '/api/portfolio/day-closes', headers: cartera, payload: { throughDate: TODAY } });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(`El día ${TODAY} ya está cerrado: la fecha flujo es ${addDays(TODAY, 3)}.`);
  });

  it('shows a credit with balances by component, schedule, deductions and a payoff at a chosen date', async () => {
    const list = await get('/api/portfolio/credits?pageSize=1');
    const id = list.body.items[0].id;
    const view = await get(`/api/portfolio/credits/${id}`);
    expect(view.status).toBe(200);
    expect(view.body.schedule.length).toBe(view.body.term);
    expect(view.body.balances.principal).toBe(view.body.principal);
    const payoff = await get(`/api/portfolio/credits/${id}/payoff?date=${TODAY}`);
    expect(payoff.status).toBe(200);
    expect(payoff.body.outstandingPrincipal).toBe(view.body.principal);
    const early = await get(`/api/portfolio/credits/${id}/payoff?date=1990-01-01`);
    expect(early.status).toBe(400);
  });

  it('lets a user without the close-day action see the date but not close it', async () => {
    const mesa = await ctx.as('mesa@demo.mx');
    const response = await ctx.app.inject({ method: 'POST', url: '/api/portfolio/day-closes', headers: mesa, payload: {} });
    expect(response.statusCode).toBe(403);
  });
});
