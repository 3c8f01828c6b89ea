import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildSchedule } from '@portal/lending';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { agreementProducts, agreements } from '../../db/schema/agreements';
import { auditEvents } from '../../db/schema/audit';
import { profiles, users } from '../../db/schema/users';
import { CURP, quoteFields } from '../../test/origination-fixtures';

type Json = Record<string, unknown>;

describe.each(BEHAVIOUR_ENGINES)('Pre-solicitudes API (%s)', (engine) => {
  let ctx: TestContext;
  let originacion: { authorization: string };
  let jal: { agreementId: string; productId: string };
  let acme: { agreementId: string; productId: string };

  const productOf = async (code: string) => {
    const [row] = await ctx.system((db) =>
      db
        .select({ agreementId: agreements.id, productId: agreementProducts.id })
        .from(agreements)
        .innerJoin(agreementProducts, eq(agreementProducts.agreementId, agreements.id))
        .where(eq(agreements.code, code)),
    );
    return row!;
  };

  beforeAll(async () => {
    ctx = await createTestApp(engine, { snapshot: true });
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await ctx.reset();
    originacion = await ctx.as('originacion@demo.mx');
    jal = await productOf('GOB-JAL');
    acme = await productOf('ACME-PRIV');
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Json, headers = originacion) =>
    ctx.app.inject({ method, url, payload, headers });

  // The shared quote with a second surname and the CURP typed in lower case (kept upper).
  const input = (overrides: Json = {}) => quoteFields(jal, { curp: CURP.toLowerCase(), lastName2: 'Nieto', ...overrides });

  it("offers the agreements in force of the user's company with their active products", async () => {
    const catalog = (await call('GET', '/api/pre-requests/catalog')).json<{
      today: string;
      agreements: { code: string; products: { name: string }[] }[];
    }>();
    expect(catalog.today).toBe('2026-11-23');
    // ACME-PRIV belongs to the second brand: only a role-SA user captures for every company.
    expect(catalog.agreements.map((agreement) => agreement.code)).toEqual(['GOB-JAL', 'IMSS-FED']);
    expect(catalog.agreements[1]!.products.map((product) => product.name)).toEqual(['Federal 26', 'Federal Express']);
    const everyCompany = (await call('GET', '/api/pre-requests/catalog', undefined, await ctx.as('admin@demo.mx'))).json<typeof catalog>();
    expect(everyCompany.agreements.map((agreement) => agreement.code)).toEqual(['ACME-PRIV', 'GOB-JAL', 'IMSS-FED']);
  });

  it('simulates on the server: CURP facts, capacity, schedule and CAT from packages/lending', async () => {
    const response = await call('POST', '/api/pre-requests/simulate', input());
    expect(response.statusCode).toBe(200);
    const simulation = response.json<{ schedule: { balance: string }[]; installment: string; result: string }>();
    // Fee 2 % of 20,000.00 = 400.00 plus 16 % IVA 64.00, deducted: 19,536.00 disbursed. GOB-JAL pays on the 15th and the
    // month end and needs 5 days before its payroll closes: from 2026-11-23 the first discount is 2026-11-30, 7 days,
    // charged by days: 20,000.00 × 0.36 × 7 / 360 = 140.00 interest, 22.40 IVA.
    expect(simulation).toMatchObject({
      birthDate: '1966-07-20',
      sex: 'H',
      capacity: '1900.00',
      firstDueDate: '2026-11-30',
      firstPeriodDays: 7,
      firstPeriodByDays: true,
      result: 'pre-aprobada',
      reasons: [],
      openingFee: '400.00',
      openingFeeIva: '64.00',
      netDisbursement: '19536.00',
    });
    const expected = buildSchedule({
      principal: '20000.00',
      annualRate: '0.36',
      ivaRate: '0.16',
      term: 24,
      frequency: 'quincenal',
      firstDueDate: '2026-11-30',
      disbursementDate: '2026-11-23',
    });
    expect(simulation.installment).toBe(expected.installment);
    expect(simulation.schedule).toEqual(expected.rows);
    expect(simulation.schedule[0]).toMatchObject({ interest: '140.00', iva: '22.40', days: 7 });
  });

  it('rejects with every reason, and refuses a bad CURP or a product of another agreement', async () => {
    // ACME is Crédito Nómina Plus's agreement: judged for its own staff.
    const rejected = await call(
      'POST',
      '/api/pre-requests/simulate',
      input({ curp: 'LOOA531113HTCPBN07', ...acme, amount: '1000', term: 30, netSalary: '3000', otherDeductions: '700' }),
      await ctx.as('plus@demo.mx'),
    );
    // 3,000.00 a month less 700.00 and the installment leaves far less than 30 × 315.04 = 9,451.20.
    expect(rejected.json<{ reasons: { code: string }[] }>().reasons.map((reason) => reason.code)).toEqual([
      'capacity',
      'minimum-wage',
      'amount',
      'term',
      'age',
    ]);
    const badCurp = await call('POST', '/api/pre-requests/simulate', input({ curp: 'PXNE661320HMCXTN06' }));
    expect(badCurp.statusCode).toBe(400);
    expect(badCurp.json()).toMatchObject({
      errors: [{ field: 'curp', message: 'La fecha de nacimiento de la CURP no existe en el calendario.' }],
    });
    const mixed = await call('POST', '/api/pre-requests/simulate', input({ productId: acme.productId }));
    expect(mixed.json()).toMatchObject({ errors: [{ field: 'productId', message: 'El producto no pertenece al convenio elegido.' }] });
  });

  it('judges the pay left against the configured daily minimum wage (DAILY_MINIMUM_WAGE), not a constant', async () => {
    // 8,000.00 a quincena less 500.00 and an installment of more than 833.33 (20,000.00 / 24 without interest) leaves
    // less than 6,666.67: above 15 × 315.04 = 4,725.60 (the 2026 default), below 15 × 450.00 = 6,750.00.
    const atDefault = (await call('POST', '/api/pre-requests/simulate', input())).json<{ result: string; reasons: { code: string }[] }>();
    expect(atDefault).toMatchObject({ result: 'pre-aprobada', reasons: [] });
    expect((await call('GET', '/api/pre-requests/catalog')).json()).toMatchObject({ dailyMinimumWage: '315.04' });

    const higher = await createTestApp(engine, { dailyMinimumWage: '450.00' });
    try {
      const headers = await higher.as('originacion@demo.mx');
      const judged = (await higher.app.inject({ method: 'POST', url: '/api/pre-requests/simulate', payload: input(), headers })).json<{
        result: string;
        reasons: { code: string; message: string }[];
      }>();
      expect(judged.result).toBe('rechazada');
      expect(judged.reasons.map((reason) => reason.code)).toEqual(['minimum-wage']);
      expect(judged.reasons[0]!.message).toContain('6,750.00');
      // The browser's live verdict judges with the same figure.
      expect((await higher.app.inject({ method: 'GET', url: '/api/pre-requests/catalog', headers })).json()).toMatchObject({
        dailyMinimumWage: '450.00',
      });
    } finally {
      await higher.close();
    }
  });

  it('saves a draft, lists it as mine, sends it, and then refuses a second open one for the same CURP', async () => {
    const created = await call('POST', '/api/pre-requests', input());
    expect(created.statusCode).toBe(201);
    const draft = created.json<{ id: string; folio: string; status: string; version: number }>();
    expect(draft).toMatchObject({
      status: 'borrador',
      result: 'pre-aprobada',
      curp: 'PXNE660720HMCXTN06',
      createdBy: 'originacion@demo.mx',
    });
    expect(draft.folio).toMatch(/^PS-\d{6}$/);

    expect((await call('GET', '/api/pre-requests')).json<{ total: number }>().total).toBe(1);
    expect((await call('GET', '/api/pre-requests', undefined, await ctx.as('admin@demo.mx'))).json<{ total: number }>().total).toBe(0);

    const sent = await call('POST', `/api/pre-requests/${draft.id}/send`, { version: draft.version });
    expect(sent.json()).toMatchObject({ status: 'enviada', version: draft.version + 1 });
    const again = await call('POST', `/api/pre-requests/${draft.id}/send`, { version: draft.version + 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ detail: string }>().detail).toBe('No se puede enviar una pre-solicitud en estado enviada; solo los borradores.');

    const second = await call('POST', '/api/pre-requests/simulate', input({ amount: '5000' }));
    expect(second.json()).toMatchObject({
      result: 'rechazada',
      reasons: [{ code: 'open-request', message: `Esta CURP ya tiene una pre-solicitud enviada (${draft.folio}).` }],
    });
    const audit = await ctx.system((db) => db.select().from(auditEvents).where(eq(auditEvents.entityId, draft.id)));
    expect(audit.map((event) => event.action).sort()).toEqual(['pre-request.create', 'pre-request.send']);
  });

  it('re-judges a draft on edit, refuses stale edits and refuses to send a rejected one', async () => {
    const draft = (await call('POST', '/api/pre-requests', input())).json<{ id: string; version: number }>();
    const edited = await call('PUT', `/api/pre-requests/${draft.id}`, { ...input({ amount: '150000', term: 12 }), version: draft.version });
    expect(edited.json()).toMatchObject({
      result: 'rechazada',
      reasons: [{ code: 'capacity' }, { code: 'minimum-wage' }],
      amount: '150000.00',
      version: draft.version + 1,
    });
    expect((await call('PUT', `/api/pre-requests/${draft.id}`, { ...input(), version: draft.version })).statusCode).toBe(409);
    const send = await call('POST', `/api/pre-requests/${draft.id}/send`, { version: draft.version + 1 });
    expect(send.statusCode).toBe(409);
    expect(send.json<{ detail: string }>().detail).toMatch(/^Solo se envían pre-solicitudes pre-aprobadas\. El descuento de /);
  });

  it('answers 401 without a token and 403 without the permission on every route of the module', async () => {
    const draft = (await call('POST', '/api/pre-requests', input())).json<{ id: string }>();
    const routes: ['GET' | 'POST' | 'PUT', string, Json?][] = [
      ['GET', '/api/pre-requests/catalog'],
      ['POST', '/api/pre-requests/simulate', input()],
      ['GET', '/api/pre-requests'],
      ['GET', `/api/pre-requests/${draft.id}`],
      ['POST', '/api/pre-requests', input()],
      ['PUT', `/api/pre-requests/${draft.id}`, { ...input(), version: 1 }],
      ['POST', `/api/pre-requests/${draft.id}/send`, { version: 1 }],
    ];
    const cartera = await ctx.as('cartera@demo.mx');
    for (const [method, url, payload] of routes) {
      expect((await ctx.app.inject({ method, url, payload })).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, payload, cartera)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect(ctx.app.registeredRoutes.filter((route) => route.url.startsWith('/api/pre-requests'))).toHaveLength(routes.length);
  });

  it('lets a user who only captures requests read the catalog and their sent pre-requests, and nothing more', async () => {
    const [admin] = await ctx.system((db) => db.select().from(users).where(eq(users.email, 'admin@demo.mx')));
    const [profile] = await ctx.system((db) =>
      db
        .insert(profiles)
        .values({ name: 'Solo solicitudes', roleCode: 'SOLICITUDES', permissions: ['/origination/request-new'] })
        .returning(),
    );
    await ctx.system((db) =>
      db.insert(users).values({ email: 'solicitudes@demo.mx', profileId: profile!.id, companyId: admin!.companyId }),
    );
    const draft = (await call('POST', '/api/pre-requests', input())).json<{ id: string }>();
    const clerk = await ctx.as('solicitudes@demo.mx');
    for (const url of ['/api/pre-requests/catalog', '/api/pre-requests?status=enviada', `/api/pre-requests/${draft.id}`]) {
      expect((await call('GET', url, undefined, clerk)).statusCode, url).toBe(200);
    }
    const writes: ['POST' | 'PUT', string, Json][] = [
      ['POST', '/api/pre-requests/simulate', input()],
      ['POST', '/api/pre-requests', input()],
      ['PUT', `/api/pre-requests/${draft.id}`, { ...input(), version: 1 }],
      ['POST', `/api/pre-requests/${draft.id}/send`, { version: 1 }],
    ];
    for (const [method, url, payload] of writes) expect((await call(method, url, payload, clerk)).statusCode, `${method} ${url}`).toBe(403);
  });
});
