import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { addDays } from '@portal/lending';
import { dayCloseRuns } from '../../db/schema/portfolio';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { until } from '../../test/until';

/** dd/mm/aaaa, written here apart from the code's own formatter. */
const dmy = (iso: string) => iso.split('-').reverse().join('/');

type Headers = { authorization: string };
const TODAY = '2026-11-23';

describe.each(BEHAVIOUR_ENGINES)('Admin Fecha Flujo API (%s)', (engine) => {
  let ctx: TestContext;
  let cartera: Headers;

  beforeAll(async () => {
    ctx = await createTestApp(engine, { jobs: true, snapshot: true, seed: async (db, now) => seedDemoPortfolio(db, now, 30) });
    cartera = await ctx.as('cartera@demo.mx');
  });
  beforeEach(async () => {
    await ctx.reset();
  });
  afterAll(async () => {
    await ctx.close();
  });

  const get = async (url: string, headers: Headers = cartera) => {
    const response = await ctx.app.inject({ method: 'GET', url, headers });
    return { status: response.statusCode, body: response.json() };
  };

  it('closes the missed days as a background job whose progress the API reports, refusing days still to come and the same day again', async () => {
    const dates = await get('/api/flow-date/business-dates');
    expect(dates.status).toBe(200);
    const mine = dates.body[0];
    expect(mine.businessDate).toBe(TODAY);

    // Nobody closed for two days: today is TODAY + 2, and the days since replay in order.
    const tooSoon = await ctx.app.inject({
      method: 'POST',
      url: '/api/flow-date/day-closes',
      headers: cartera,
      payload: { throughDate: addDays(TODAY, 1) },
    });
    expect(tooSoon.statusCode).toBe(409);
    expect(tooSoon.json().detail).toBe(
      `El día ${dmy(addDays(TODAY, 1))} todavía no llega: hoy es ${dmy(TODAY)}. Se cierra hasta el día de hoy.`,
    );
    ctx.clock.advance(2 * 86_400_000);
    const started = await ctx.app.inject({
      method: 'POST',
      url: '/api/flow-date/day-closes',
      headers: cartera,
      payload: { throughDate: addDays(TODAY, 2) },
    });
    expect(started.statusCode).toBe(202);
    const run = started.json();
    expect(run.jobId).toBeTruthy();
    let progress = run;
    await until(async () => {
      if (progress.status !== 'en espera' && progress.status !== 'en curso') return true;
      progress = (await get(`/api/flow-date/day-close-runs/${run.id}`)).body;
      return false;
    });
    expect([progress.status, progress.daysDone, progress.daysTotal]).toEqual(['completado', 3, 3]);
    const history = await get('/api/flow-date/day-closes');
    // The three closes of the run, after the seed's close of the day before TODAY.
    expect(history.body.items.map((c: { businessDate: string }) => c.businessDate)).toEqual([
      addDays(TODAY, 2),
      addDays(TODAY, 1),
      TODAY,
      addDays(TODAY, -1),
    ]);
    expect((await get('/api/flow-date/business-dates')).body[0].businessDate).toBe(addDays(TODAY, 3));

    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/flow-date/day-closes',
      headers: cartera,
      payload: { throughDate: TODAY },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(`El día ${dmy(TODAY)} ya está cerrado: la fecha flujo es ${dmy(addDays(TODAY, 3))}.`);
  });

  it('queues one close when two "Cerrar día" arrive at the same moment, and refuses the other with 409', async () => {
    const both = await Promise.all(
      [0, 1].map(() => ctx.app.inject({ method: 'POST', url: '/api/flow-date/day-closes', headers: cartera, payload: {} })),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([202, 409]);
    const [runs] = await ctx.system((tx) => tx.select({ total: count() }).from(dayCloseRuns));
    expect(runs!.total).toBe(1);
  });

  it('lets a user without the close-day action see the date but not close it', async () => {
    const mesa = await ctx.as('mesa@demo.mx');
    const response = await ctx.app.inject({ method: 'POST', url: '/api/flow-date/day-closes', headers: mesa, payload: {} });
    expect(response.statusCode).toBe(403);
  });
});
