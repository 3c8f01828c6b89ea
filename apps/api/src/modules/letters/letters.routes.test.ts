import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { addBusinessDays, isValidPaymentReference } from '@portal/lending';
import { ALL_PERMISSION_PATHS, type Letter, type LetterQuote, type LetterSummary, type LetterTemplateBrand } from '@portal/contract';
import { auditEvents } from '../../db/schema/audit';
import { credits } from '../../db/schema/credits';
import { settlementLetters } from '../../db/schema/letters';
import { companies, profiles, users } from '../../db/schema/users';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { extractText } from '../../test/pdf-text';
import { demoBackground, demoLayout } from '../../seed/seed-letters';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { mexicoToday } from '../shared/business-date';

type Headers = { authorization: string };
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function templateForm(parts: { companyId?: string; background?: Buffer; layout?: string }) {
  const form = new FormData();
  if (parts.companyId) form.append('companyId', parts.companyId);
  if (parts.background) form.append('background', new Blob([parts.background], { type: 'application/pdf' }), 'plantilla-v2.pdf');
  if (parts.layout !== undefined) form.append('layout', new Blob([parts.layout], { type: 'application/json' }), 'layout.json');
  const response = new Response(form);
  return { payload: Buffer.from(await response.arrayBuffer()), headers: { 'content-type': response.headers.get('content-type')! } };
}

describe.each(BEHAVIOUR_ENGINES)('Settlement letters API (%s)', (engine) => {
  let ctx: TestContext;
  let cartera: Headers;
  let admin: Headers;
  /** A current credit of each company without seeded letters. */
  let demoCredit: string;
  let plusCredit: string;
  let companyId: { DEMO: string; PLUS: string };
  let today: string;

  beforeAll(async () => {
    ctx = await createTestApp(engine, {
      snapshot: true,
      seed: async (db, now) => {
        await seedDemoPortfolio(db, now, 30);
      },
    });
  });
  afterAll(async () => {
    await ctx.close();
  });
  beforeEach(async () => {
    await ctx.reset();
    cartera = await ctx.as('cartera@demo.mx');
    admin = await ctx.as('admin@demo.mx');
    today = mexicoToday(ctx.clock.now());
    const rows = await ctx.system((tx) => tx.select().from(companies));
    companyId = { DEMO: rows.find((row) => row.code === 'DEMO')!.id, PLUS: rows.find((row) => row.code === 'PLUS')!.id };
    const current = (company: string) =>
      ctx.system(async (tx) => {
        const [row] = await tx
          .select({ id: credits.id })
          .from(credits)
          .where(
            and(
              eq(credits.companyId, company),
              eq(credits.status, 'vigente'),
              sql`not exists (select 1 from settlement_letters l where l.credit_id = ${credits.id})`,
            ),
          )
          .orderBy(asc(credits.number))
          .limit(1);
        return row!.id;
      });
    demoCredit = await current(companyId.DEMO);
    plusCredit = await current(companyId.PLUS);
  });

  const get = async <T>(url: string, headers: Headers = cartera) => {
    const response = await ctx.app.inject({ method: 'GET', url, headers });
    return {
      status: response.statusCode,
      body: (/json/.test(String(response.headers['content-type'])) ? response.json() : null) as T,
      raw: response.rawPayload,
      headers: response.headers,
    };
  };
  const post = async <T>(url: string, body: object, headers: Headers = cartera) => {
    const response = await ctx.app.inject({ method: 'POST', url, headers, payload: body });
    return { status: response.statusCode, body: response.json() as T };
  };

  it('quotes at the company default validity (5 business days after the fecha flujo) with the payoff of the credits API', async () => {
    const quote = await get<LetterQuote>(`/api/credits/${demoCredit}/settlement-quote`);
    expect(quote.status).toBe(200);
    expect(quote.body.validityBusinessDays).toBe(5);
    expect(quote.body.businessDate).toBe(today);
    expect(quote.body.defaultValidUntil).toBe(addBusinessDays(today, 5));
    expect(quote.body.payoff.validUntil).toBe(quote.body.defaultValidUntil);
    expect(quote.body.template).toMatchObject({ version: 1 });
    // The same payoff the credit view quotes (DOMAIN 3): one rule, two screens.
    const payoff = await get<Record<string, string>>(
      `/api/credits/${demoCredit}/payoff?date=${today}&validUntil=${quote.body.defaultValidUntil}`,
    );
    expect(quote.body.payoff).toMatchObject(payoff.body);
    // The identity the letter prints: total = gross − en tránsito − the deductions still to be taken (never below 0).
    const cents = (value: string) => BigInt(value.replace('.', ''));
    const { grossBalance, inTransit, pendingDeduction, totalAmount } = quote.body.payoff;
    const expected = cents(grossBalance) - cents(inTransit) - cents(pendingDeduction);
    expect(cents(totalAmount)).toBe(expected > 0n ? expected : 0n);

    const chosen = await get<LetterQuote>(`/api/credits/${demoCredit}/settlement-quote?validUntil=${addBusinessDays(today, 10)}`);
    expect(chosen.body.payoff.validUntil).toBe(addBusinessDays(today, 10));
    expect((await get(`/api/credits/${demoCredit}/settlement-quote?validUntil=2001-01-01`)).status).toBe(400);
    const far = await get<{ detail: string }>(`/api/credits/${demoCredit}/settlement-quote?validUntil=2099-01-01`);
    expect(far.status).toBe(400);
    expect(far.body.detail).toContain('hasta 60 días');
    // Past the contract's date range (2100), and past the lending calendar's (2199): a 400 naming the field, not a 500.
    for (const date of ['2200-01-01', '9999-12-31']) {
      const beyond = await get<{ errors: { field: string }[] }>(`/api/credits/${demoCredit}/settlement-quote?validUntil=${date}`);
      expect(beyond.status, date).toBe(400);
      expect(beyond.body.errors.map((error) => error.field)).toEqual(['validUntil']);
    }
  });

  it('issues a letter, stores it with its fields and SHA-256, lists it and downloads the same bytes', async () => {
    const quote = await get<LetterQuote>(`/api/credits/${demoCredit}/settlement-quote`);
    const issued = await post<Letter>(`/api/credits/${demoCredit}/settlement-letters`, {});
    expect(issued.status).toBe(201);
    const letter = issued.body;
    expect(letter).toMatchObject({
      number: 1,
      creditId: demoCredit,
      brand: 'Financiera Demo',
      templateVersion: 1,
      issuedBy: 'cartera@demo.mx',
      validUntil: quote.body.defaultValidUntil,
    });
    expect(letter.totalAmount).toBe(quote.body.payoff.totalAmount);
    expect(isValidPaymentReference(letter.reference)).toBe(true);
    expect(letter.texts.referencia).toBe(letter.reference);

    const pdf = await get(`/api/settlement-letters/${letter.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(sha256(pdf.raw)).toBe(letter.pdfSha256);
    const [stored] = await ctx.system((tx) => tx.select().from(settlementLetters).where(eq(settlementLetters.id, letter.id)));
    expect(Buffer.compare(stored!.pdf, pdf.raw)).toBe(0);
    expect(stored!.pdfSha256).toBe(sha256(stored!.pdf));
    expect(stored!.totalAmount).toBe(quote.body.payoff.totalAmount);
    // A second download is byte for byte the first.
    const again = await get(`/api/settlement-letters/${letter.id}/pdf`);
    expect(Buffer.compare(again.raw, pdf.raw)).toBe(0);
    // The PDF says what the quote says: the total (es-MX) and the reference, where the template's layout puts them.
    const layout = demoLayout({ amountsRight: 523 });
    const runs = await extractText(pdf.raw);
    const total = runs.find((run) => run.text === letter.texts.montoTotal);
    expect(total).toBeDefined();
    expect(total!.y).toBeCloseTo(layout.fields.montoTotal.y, 1);
    expect(total!.x + total!.width).toBeCloseTo(layout.fields.montoTotal.x, 0);
    const printed = Number(total!.text.replace(/[$,]/g, '')).toFixed(2);
    expect(printed).toBe(quote.body.payoff.totalAmount);
    expect(runs.some((run) => run.text === letter.reference)).toBe(true);

    const list = await get<{ items: LetterSummary[] }>(`/api/credits/${demoCredit}/settlement-letters`);
    expect(list.body.items.map((item) => item.id)).toEqual([letter.id]);
    expect(list.body.items.map((item) => [item.id, item.totalAmount, item.templateVersion])).toEqual([[letter.id, letter.totalAmount, 1]]);
    // The credit view counts it on its Cartas tab, which reads the same list.
    const view = await get<{ letterCount: number }>(`/api/credits/${demoCredit}`);
    expect(view.body.letterCount).toBe(1);

    const [audit] = await ctx.system((tx) =>
      tx
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.entityId, demoCredit), eq(auditEvents.action, 'letter.issue'))),
    );
    expect(audit).toMatchObject({
      actorEmail: 'cartera@demo.mx',
      after: expect.objectContaining({ letterId: letter.id, pdfSha256: letter.pdfSha256 }),
    });

    const second = await post<Letter>(`/api/credits/${demoCredit}/settlement-letters`, { validUntil: addBusinessDays(today, 2) });
    expect(second.body.number).toBe(2);
    expect(second.body.reference).not.toBe(letter.reference);
  });

  it("answers 404 for another company's credit or letter, and 403 without the permission", async () => {
    const plusLetter = await post<Letter>(`/api/credits/${plusCredit}/settlement-letters`, {}, admin);
    expect(plusLetter.status).toBe(201);
    expect(plusLetter.body.brand).toBe('Crédito Nómina Plus');
    expect((await get(`/api/credits/${plusCredit}/settlement-quote`)).status).toBe(404);
    expect((await post(`/api/credits/${plusCredit}/settlement-letters`, {})).status).toBe(404);
    expect((await get(`/api/credits/${plusCredit}/settlement-letters`)).status).toBe(404);
    expect((await get(`/api/settlement-letters/${plusLetter.body.id}/pdf`)).status).toBe(404);
    const brands = await get<{ items: LetterTemplateBrand[] }>('/api/letter-templates');
    expect(brands.body.items.map((brand) => brand.company)).toEqual(['Financiera Demo']);
    const [count] = await ctx.system((tx) =>
      tx
        .select({ total: sql<number>`count(*)::int` })
        .from(settlementLetters)
        .where(eq(settlementLetters.creditId, plusCredit)),
    );
    expect(count!.total).toBe(1);

    // Mesa de control sees credits (and their letters) but may neither quote nor issue; Sin permisos not even download.
    const mesa = await ctx.as('mesa@demo.mx');
    expect((await get(`/api/credits/${demoCredit}/settlement-quote`, mesa)).status).toBe(403);
    expect((await post(`/api/credits/${demoCredit}/settlement-letters`, {}, mesa)).status).toBe(403);
    expect((await get(`/api/credits/${demoCredit}/settlement-letters`, mesa)).status).toBe(200);
    const seeded = await ctx.system((tx) =>
      tx.select({ id: settlementLetters.id }).from(settlementLetters).where(eq(settlementLetters.companyId, companyId.DEMO)).limit(1),
    );
    expect((await get(`/api/settlement-letters/${seeded[0]!.id}/pdf`, await ctx.as('sinpermisos@demo.mx'))).status).toBe(403);
    // Cartera issues letters but does not upload templates.
    const form = await templateForm({
      background: await demoBackground({ name: 'X', legalName: 'X', rfc: 'X', color: [0, 0, 0], amountsRight: 500 }),
      layout: JSON.stringify(demoLayout({ amountsRight: 500 })),
    });
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/letter-templates', ...form, headers: { ...cartera, ...form.headers } }))
        .statusCode,
    ).toBe(403);
  });

  it('versions templates: new letters use the newest, old letters keep theirs byte for byte', async () => {
    const first = await post<Letter>(`/api/credits/${demoCredit}/settlement-letters`, {});
    const before = await get(`/api/settlement-letters/${first.body.id}/pdf`);

    const look = {
      name: 'Financiera Demo',
      legalName: 'Financiera Demo 2027',
      rfc: 'FDE150101AB1',
      color: [0.6, 0.1, 0.1] as [number, number, number],
      amountsRight: 540,
    };
    const layout = demoLayout(look);
    const form = await templateForm({ companyId: companyId.DEMO, background: await demoBackground(look), layout: JSON.stringify(layout) });
    const uploaded = await ctx.app.inject({
      method: 'POST',
      url: '/api/letter-templates',
      ...form,
      headers: { ...admin, ...form.headers },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json<LetterTemplateBrand>().versions.map((version) => [version.version, version.letters])).toEqual([
      [2, 0],
      [1, 3],
    ]);

    const quote = await get<LetterQuote>(`/api/credits/${demoCredit}/settlement-quote`);
    expect(quote.body.template?.version).toBe(2);
    const second = await post<Letter>(`/api/credits/${demoCredit}/settlement-letters`, {});
    expect(second.body.templateVersion).toBe(2);
    const runs = await extractText((await get(`/api/settlement-letters/${second.body.id}/pdf`)).raw);
    const total = runs.find((run) => run.text === second.body.texts.montoTotal)!;
    expect(total.x + total.width).toBeCloseTo(540, 0);
    expect(runs.some((run) => run.text.includes('Financiera Demo 2027'))).toBe(true);

    const after = await get(`/api/settlement-letters/${first.body.id}/pdf`);
    expect(Buffer.compare(after.raw, before.raw)).toBe(0);
    const list = await get<{ items: LetterSummary[] }>(`/api/credits/${demoCredit}/settlement-letters`);
    expect(list.body.items.map((item) => item.templateVersion)).toEqual([2, 1]);
  });

  it('refuses a template that is not a PDF or whose layout misses a field or leaves the page, with the reasons', async () => {
    const layout = demoLayout({ amountsRight: 523 }) as unknown as { fields: Record<string, { x: number }> };
    delete layout.fields.referencia;
    layout.fields.cliente!.x = 900;
    const upload = async (parts: Parameters<typeof templateForm>[0], headers: Headers = admin) => {
      const form = await templateForm(parts);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/letter-templates',
        ...form,
        headers: { ...headers, ...form.headers },
      });
      return { status: response.statusCode, body: response.json<{ title: string; errors?: { field: string; message: string }[] }>() };
    };
    const missing = await upload({
      companyId: companyId.DEMO,
      background: await demoBackground({ name: 'D', legalName: 'D', rfc: 'D', color: [0, 0, 0], amountsRight: 523 }),
      layout: JSON.stringify(layout),
    });
    expect(missing.status).toBe(400);
    expect(missing.body.title).toBe('Plantilla no válida');
    expect(missing.body.errors?.map((error) => error.message)).toEqual(['Falta el campo referencia (Referencia de pago).']);

    const notPdf = await upload({
      companyId: companyId.DEMO,
      background: Buffer.from('no soy un pdf'),
      layout: JSON.stringify(demoLayout({ amountsRight: 523 })),
    });
    expect(notPdf.status).toBe(400);
    expect(notPdf.body.errors).toEqual([{ field: 'background', message: 'El fondo no es un PDF (no empieza con %PDF-).' }]);
    const nothing = await upload({ companyId: companyId.DEMO });
    expect(nothing.status).toBe(400);
    expect(nothing.body.errors?.map((error) => error.field)).toEqual(['background', 'layout']);

    // A user of Crédito Nómina Plus holding every permission (not SA) cannot add a version to Financiera Demo's brand.
    await ctx.system(async (tx) => {
      const [everything] = await tx
        .insert(profiles)
        .values({ name: 'Todo sin SA', roleCode: 'OPERACION_TOTAL', permissions: [...ALL_PERMISSION_PATHS] })
        .returning();
      await tx.insert(users).values({ email: 'todo@plus.mx', name: 'Todo Plus', profileId: everything!.id, companyId: companyId.PLUS });
    });
    const foreign = await upload(
      {
        companyId: companyId.DEMO,
        background: await demoBackground({ name: 'D', legalName: 'D', rfc: 'D', color: [0, 0, 0], amountsRight: 523 }),
        layout: JSON.stringify(demoLayout({ amountsRight: 523 })),
      },
      await ctx.as('todo@plus.mx'),
    );
    expect(foreign.status).toBe(404);
    const own = await upload(
      {
        background: await demoBackground({ name: 'P', legalName: 'P', rfc: 'P', color: [0, 0, 0], amountsRight: 523 }),
        layout: JSON.stringify(demoLayout({ amountsRight: 523 })),
      },
      await ctx.as('todo@plus.mx'),
    );
    expect(own.status).toBe(201);
    expect((own.body as unknown as LetterTemplateBrand).company).toBe('Crédito Nómina Plus');
  });

  it('lists the seeded letters of their credit and counts them on its view', async () => {
    const [seeded] = await ctx.system((tx) =>
      tx
        .select({ creditId: settlementLetters.creditId })
        .from(settlementLetters)
        .where(eq(settlementLetters.companyId, companyId.DEMO))
        .limit(1),
    );
    const list = await get<{ items: LetterSummary[] }>(`/api/credits/${seeded!.creditId}/settlement-letters`);
    expect(list.body.items.map((letter) => letter.number)).toEqual([2, 1]);
    const view = await get<{ letterCount: number }>(`/api/credits/${seeded!.creditId}`);
    expect(view.body.letterCount).toBe(2);
  });
});
