import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, ne, sql } from 'drizzle-orm';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { credits, expectedDeductions, installments } from '../../db/schema/credits';
import { clients } from '../../db/schema/origination';
import { users } from '../../db/schema/users';
import { creditListSelect, creditOrder, creditsAfter } from './credits.queries';
import { mexicoToday } from '../shared/business-date';

type Headers = { authorization: string };
const TODAY = '2026-11-23';
/** An amount the API sends as text, in centavos, read here apart from the code under test (parseCents). */
const cents = (value: string) => Math.round(Number(value) * 100);

describe.each(BEHAVIOUR_ENGINES)('Créditos API (%s)', (engine) => {
  let ctx: TestContext;
  let cartera: Headers;

  beforeAll(async () => {
    ctx = await createTestApp(engine, { snapshot: true, seed: async (db, now) => seedDemoPortfolio(db, now, 30) });
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

  it('lists only the user company credits, filtered and sorted in SQL, with totals of the filtered set', async () => {
    const [me] = await ctx.system((tx) => tx.select().from(users).where(eq(users.email, 'cartera@demo.mx')));
    const own = await ctx.system((tx) => tx.select().from(credits).where(eq(credits.companyId, me!.companyId)));
    const list = await get('/api/credits?pageSize=100&sort=-folio');
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(own.length);
    const folios = list.body.items.map((i: { folio: string }) => i.folio);
    expect(folios).toEqual([...folios].sort().reverse());

    const [client] = await ctx.system((tx) => tx.select().from(clients).where(eq(clients.id, own[0]!.clientId)));
    const byCurp = await get(`/api/credits?q=${client!.curp}`);
    expect(byCurp.body.items.every((i: { curp: string }) => i.curp === client!.curp)).toBe(true);
    const byFolio = await get(`/api/credits?q=${own[0]!.number}`);
    expect(byFolio.body.items.map((i: { id: string }) => i.id)).toContain(own[0]!.id);
    // By the client's name without its case or accents, written the other way round from how it is stored (decision 0031).
    const plain = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    const flipped = (text: string) => [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
    const byName = await get(
      `/api/credits?pageSize=100&q=${encodeURIComponent(flipped(plain(`${client!.firstNames} ${client!.lastName1}`)))}`,
    );
    expect(byName.body.items.map((i: { id: string }) => i.id)).toContain(own[0]!.id);

    const totals = await get('/api/credits/totals?status=vigente');
    expect(totals.body.count).toBe(own.filter((c) => c.status === 'vigente').length);

    const bad = await get('/api/credits?bucket=99');
    expect(bad.status).toBe(400);
  });

  it('goes on after a row in every order the list sorts by, as the export reads it a batch at a time (keyset), ties included', async () => {
    const sorts = ['folio', 'disbursementDate', 'daysPastDue', 'outstandingBalance', 'bucket'].flatMap((field) => [field, `-${field}`]);
    for (const sort of [...sorts, undefined, 'unknown', '-unknown']) {
      const all = await ctx.system((tx) => creditListSelect(tx).orderBy(...creditOrder(sort)));
      const read: typeof all = [];
      for (;;) {
        const last = read.at(-1);
        const batch = await ctx.system((tx) =>
          creditListSelect(tx)
            .where(last && creditsAfter(sort, last))
            .orderBy(...creditOrder(sort))
            .limit(7),
        );
        read.push(...batch);
        if (batch.length < 7) break;
      }
      expect(
        read.map((row) => row.id),
        `orden ${sort}`,
      ).toEqual(all.map((row) => row.id));
    }
  });

  /** The parts the credit view's tabs read, each by its own route. */
  const PARTS = ['installments', 'payments', 'deductions', 'history'] as const;

  it('shows a credit with balances by component, and each tab its part: schedule, payments, deductions, history, payoff', async () => {
    const list = await get('/api/credits?pageSize=1&sort=-daysPastDue');
    const id: string = list.body.items[0].id;
    // Its first row with principal owed late for 20 days, its late charges running (as a close leaves a row late and not
    // held): the view's balances add what ran as the schedule charges it.
    await ctx.system((tx) =>
      tx.execute(sql`update installments i set accrues_from = b.business_date - 20 from business_dates b
        where b.company_id = i.company_id and i.credit_id = ${id}
          and i.number = (select min(number) from installments where credit_id = ${id} and principal > paid_principal)`),
    );
    const view = await get(`/api/credits/${id}`);
    expect(view.status).toBe(200);
    expect(view.body.daysPastDue).toBeGreaterThan(0);
    // The header carries no part of a tab.
    for (const part of [...PARTS, 'labelHistory', 'letters']) expect(view.body).not.toHaveProperty(part);
    const schedule = await get(`/api/credits/${id}/installments`);
    expect(schedule.status).toBe(200);
    expect(schedule.body.items.length).toBe(view.body.term);
    // What is owed of each component is what the schedule's rows charged less what was paid of them, and each total the
    // sum of its components: summed here in centavos.
    const components = ['principal', 'interest', 'iva', 'moratoryInterest', 'moratoryIva', 'fees', 'feesIva'] as const;
    type Amounts = Record<(typeof components)[number] | 'total', string>;
    type Row = {
      number: number;
      interest: string;
      iva: string;
      charged: Amounts;
      paid: Amounts;
      outstanding: string;
      deductionState: string;
    };
    const rows: Row[] = schedule.body.items;
    const sumOf = (amounts: Amounts) => components.reduce((sum, key) => sum + cents(amounts[key]), 0);
    for (const row of rows) {
      expect(cents(row.charged.total)).toBe(sumOf(row.charged));
      expect(cents(row.paid.total)).toBe(sumOf(row.paid));
    }
    // Late charges ran on this credit's rows, so the header's moratory balance is not only what the rows store.
    const [stored] = await ctx.system((tx) =>
      tx
        .select({ moratory: sql<string>`sum(${installments.moratoryInterest} - ${installments.paidMoratoryInterest})::text` })
        .from(installments)
        .where(eq(installments.creditId, id)),
    );
    expect(cents(view.body.balances.moratoryInterest)).toBeGreaterThan(cents(stored!.moratory));
    for (const key of components) {
      expect(cents(view.body.balances[key]), key).toBe(rows.reduce((sum, row) => sum + cents(row.charged[key]) - cents(row.paid[key]), 0));
    }
    expect(cents(view.body.balances.total)).toBe(sumOf(view.body.balances));
    expect(rows.some((row) => cents(row.paid.total) > 0)).toBe(true);
    // Rows that owe nothing (the view's sums leave them out), rows that owe, and the running one are all in these sums.
    expect(rows.some((row) => row.outstanding === '0.00')).toBe(true);
    expect(rows.some((row) => row.outstanding !== '0.00' && cents(row.paid.total) === 0)).toBe(true);
    expect(cents(view.body.principal)).toBe(rows.reduce((sum, row) => sum + cents(row.charged.principal), 0));
    expect(view.body.firstInstallment).toEqual({ interest: rows[0]!.interest, iva: rows[0]!.iva });

    const payments = await get(`/api/credits/${id}/payments`);
    expect(payments.status).toBe(200);
    expect(payments.body.items.length).toBe(view.body.paymentCount);
    expect(view.body.paymentCount).toBeGreaterThan(0);
    const deductions = await get(`/api/credits/${id}/deductions`);
    expect(deductions.status).toBe(200);
    type Deduction = { period: number; discountDate: string; amount: string; state: string };
    const expected: Deduction[] = deductions.body.items;
    expect(expected.map((d) => d.state)).toEqual(rows.map((row) => row.deductionState));
    // The next deduction: the earliest not received on or after the fecha flujo.
    const coming = expected
      .filter((d) => d.discountDate >= view.body.businessDate && d.state !== 'recibido')
      .sort((a, b) => a.discountDate.localeCompare(b.discountDate) || a.period - b.period)[0];
    expect(view.body.nextDeduction).toEqual(
      coming ? { period: coming.period, discountDate: coming.discountDate, amount: coming.amount } : null,
    );
    const history = await get(`/api/credits/${id}/history`);
    expect(history.status).toBe(200);
    expect(history.body).toEqual({ history: expect.any(Array), labelHistory: expect.any(Array) });

    const payoff = await get(`/api/credits/${id}/payoff?date=${TODAY}`);
    expect(payoff.status).toBe(200);
    expect(payoff.body.outstandingPrincipal).toBe(view.body.balances.principal);
    const early = await get(`/api/credits/${id}/payoff?date=1990-01-01`);
    expect(early.status).toBe(400);
  });

  it('shows late charges and fees the rows store, partly paid, in the balances: each component summed, fees IVA too', async () => {
    const list = await get('/api/credits?pageSize=1&status=vigente');
    const id: string = list.body.items[0].id;
    // No running row (the balances are then the stored rows' alone), no stored late charge or fee but on rows 2 and 3:
    // row 2 owes 60.00 of 100.00 in fees and 1.97 of late-charge IVA, its late interest and fees' IVA paid; row 3 owes
    // only 8.00 of fees' IVA, its payment paid whole.
    await ctx.system(async (tx) => {
      await tx.execute(sql`update installments set accrues_from = null, moratory_interest = 0, moratory_iva = 0, fees = 0,
        fees_iva = 0, paid_moratory_interest = 0, paid_moratory_iva = 0, paid_fees = 0, paid_fees_iva = 0 where credit_id = ${id}`);
      await tx.execute(sql`update installments set moratory_interest = 12.34, paid_moratory_interest = 12.34, moratory_iva = 1.97,
        fees = 100.00, paid_fees = 40.00, fees_iva = 16.00, paid_fees_iva = 16.00 where credit_id = ${id} and number = 2`);
      await tx.execute(sql`update installments set paid_principal = principal, paid_interest = interest, paid_iva = iva,
        fees_iva = 8.00 where credit_id = ${id} and number = 3`);
    });
    const view = await get(`/api/credits/${id}`);
    expect(view.status).toBe(200);
    expect(view.body.balances).toMatchObject({ moratoryInterest: '0.00', moratoryIva: '1.97', fees: '60.00', feesIva: '8.00' });
    // Principal, interest and IVA: the schedule's rows, charged less paid, summed here in centavos.
    type Amounts = Record<'principal' | 'interest' | 'iva', string>;
    const rows: { charged: Amounts; paid: Amounts }[] = (await get(`/api/credits/${id}/installments`)).body.items;
    for (const key of ['principal', 'interest', 'iva'] as const) {
      expect(cents(view.body.balances[key]), key).toBe(rows.reduce((sum, row) => sum + cents(row.charged[key]) - cents(row.paid[key]), 0));
    }
    expect(cents(view.body.balances.principal)).toBeGreaterThan(0);
    expect(cents(view.body.balances.total)).toBe(
      cents(view.body.balances.principal) + cents(view.body.balances.interest) + cents(view.body.balances.iva) + 6000 + 197 + 800,
    );
  });

  it("shows each credit's first installment (its schedule's first row, paid or not) and next deduction: the earliest not received from the business date on, by date and period", async () => {
    type Deduction = { period: number; discountDate: string; amount: string; state: string };
    const list = await get('/api/credits?pageSize=100');
    expect(list.body.items.length).toBeGreaterThan(10);
    let before = 0;
    let firstPaid = 0;
    for (const { id } of list.body.items as { id: string }[]) {
      const view = await get(`/api/credits/${id}`);
      const [first] = (await get(`/api/credits/${id}/installments`)).body.items as { interest: string; iva: string; outstanding: string }[];
      expect(view.body.firstInstallment, id).toEqual({ interest: first!.interest, iva: first!.iva });
      if (first!.outstanding === '0.00') firstPaid++;
      const deductions: Deduction[] = (await get(`/api/credits/${id}/deductions`)).body.items;
      // The view reads them by period: their dates never go back as the period grows (buildCredit, one per schedule row).
      const byPeriod = [...deductions].sort((a, b) => a.period - b.period);
      for (let k = 1; k < byPeriod.length; k++) expect(byPeriod[k]!.discountDate >= byPeriod[k - 1]!.discountDate, id).toBe(true);
      const open = deductions.filter((d) => d.state !== 'recibido');
      before += open.filter((d) => d.discountDate < view.body.businessDate).length;
      const coming = open
        .filter((d) => d.discountDate >= view.body.businessDate)
        .sort((a, b) => a.discountDate.localeCompare(b.discountDate) || a.period - b.period)[0];
      expect(view.body.nextDeduction, id).toEqual(
        coming ? { period: coming.period, discountDate: coming.discountDate, amount: coming.amount } : null,
      );
    }
    // Some credits have deductions not received before the business date, which the next one must pass over, and a
    // first row paid, which the view's sums leave out.
    expect(before).toBeGreaterThan(0);
    expect(firstPaid).toBeGreaterThan(0);
  });

  it('shows a company that never closed a day at today: its business date and next deduction (the earliest not received from today on)', async () => {
    const today = mexicoToday(ctx.clock.now());
    // One of the company's credits with deductions before and after today, the one before left not applied (unpaid).
    const [me] = await ctx.system((tx) => tx.select().from(users).where(eq(users.email, 'cartera@demo.mx')));
    const [found] = await ctx.system((tx) =>
      tx
        .select({ id: expectedDeductions.creditId })
        .from(expectedDeductions)
        .where(eq(expectedDeductions.companyId, me!.companyId))
        .groupBy(expectedDeductions.creditId)
        .having(sql`min(${expectedDeductions.discountDate}) < ${today}::date and max(${expectedDeductions.discountDate}) > ${today}::date`)
        .limit(1),
    );
    const id = found!.id;
    await ctx.system(async (tx) => {
      await tx.execute(sql`update expected_deductions set state = 'no aplicado'
        where credit_id = ${id} and period = (select min(period) from expected_deductions where credit_id = ${id})`);
      await tx.execute(sql`delete from business_dates where company_id = ${me!.companyId}`);
    });
    const view = await get(`/api/credits/${id}`);
    expect(view.status).toBe(200);
    expect(view.body.businessDate).toBe(today);
    type Deduction = { period: number; discountDate: string; amount: string; state: string };
    const open: Deduction[] = (await get(`/api/credits/${id}/deductions`)).body.items.filter((d: Deduction) => d.state !== 'recibido');
    // Deductions not received lie on both sides of today, so the date decides which one is next.
    expect(open.some((d) => d.discountDate < today)).toBe(true);
    expect(open.some((d) => d.discountDate >= today)).toBe(true);
    const coming = open
      .filter((d) => d.discountDate >= today)
      .sort((a, b) => a.discountDate.localeCompare(b.discountDate) || a.period - b.period)[0]!;
    expect(view.body.nextDeduction).toEqual({ period: coming.period, discountDate: coming.discountDate, amount: coming.amount });
  });

  it("answers 404 for another company's credit, its view (one statement of subqueries), each tab's part and its payoff, however the id is spelled", async () => {
    const [me] = await ctx.system((tx) => tx.select().from(users).where(eq(users.email, 'cartera@demo.mx')));
    const [foreign] = await ctx.system((tx) => tx.select().from(credits).where(ne(credits.companyId, me!.companyId)).limit(1));
    expect(foreign).toBeDefined();
    for (const id of [foreign!.id, foreign!.id.toUpperCase(), foreign!.id.replaceAll('-', '%2D')]) {
      for (const url of [`/api/credits/${id}`, ...PARTS.map((part) => `/api/credits/${id}/${part}`)]) {
        const answer = await get(url);
        expect(answer.status, url).toBe(404);
        expect(answer.body.title, url).toBe('Crédito no encontrado');
      }
      expect((await get(`/api/credits/${id}/payoff?date=${TODAY}`)).status).toBe(404);
    }
    // The same requests for one of its own are answered: the 404 is the company's scope, not a broken route.
    const [own] = await ctx.system((tx) => tx.select().from(credits).where(eq(credits.companyId, me!.companyId)).limit(1));
    for (const id of [own!.id, own!.id.replaceAll('-', '%2D')]) {
      for (const url of [`/api/credits/${id}`, ...PARTS.map((part) => `/api/credits/${id}/${part}`)]) {
        expect((await get(url)).status, url).toBe(200);
      }
    }
    // Without the credits list's permission, none of them (Originación sees no credit).
    const originacion = await ctx.as('originacion@demo.mx');
    for (const url of [`/api/credits/${own!.id}`, ...PARTS.map((part) => `/api/credits/${own!.id}/${part}`)]) {
      expect((await get(url, originacion)).status, url).toBe(403);
    }
  });

  it('lets a user without the close-day action see the date but not close it', async () => {
    const mesa = await ctx.as('mesa@demo.mx');
    const response = await ctx.app.inject({ method: 'POST', url: '/api/flow-date/day-closes', headers: mesa, payload: {} });
    expect(response.statusCode).toBe(403);
  });
});
