import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatCents, parseCents } from '@portal/lending';
import { ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { CURP, OTHER_CURP, captureFields, payFirstInstallments, quoteFields, requestMultipart } from '../../test/origination-fixtures';
import { agreementProducts, agreements } from '../../db/schema/agreements';
import { credits } from '../../db/schema/credits';
import { preRequests } from '../../db/schema/origination';
import { companies } from '../../db/schema/users';

/** Renewals named in Pre-Solicitudes (issue 48; docs/domain.md, "Renewals"), and carried into the request on conversion. */

type Json = Record<string, unknown>;
type Headers = { authorization: string };
type Renewal = { payoffDate: string; credits: { creditId: string; payoff: string }[]; payoffTotal: string; netAmount: string };

const cents = (value: string) => parseCents(value, 'importe');

describe.each(ENGINES)('Pre-solicitudes que renuevan (%s)', (engine) => {
  let ctx: TestContext;
  let originacion: Headers;
  let admin: Headers;
  let tesoreria: Headers;
  let jal: { agreementId: string; productId: string };

  beforeAll(async () => {
    ctx = await createTestApp(engine, { snapshot: true });
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await ctx.reset();
    originacion = await ctx.as('originacion@demo.mx');
    admin = await ctx.as('admin@demo.mx');
    tesoreria = await ctx.as('tesoreria@demo.mx');
    const [row] = await ctx.system((db) =>
      db
        .select({ agreementId: agreements.id, productId: agreementProducts.id })
        .from(agreements)
        .innerJoin(agreementProducts, eq(agreementProducts.agreementId, agreements.id))
        .where(eq(agreements.code, 'GOB-JAL')),
    );
    jal = row!;
    await ctx.system((db) =>
      db.update(agreementProducts).set({ renewalMinPaid: 3, renewalMaxDaysPastDue: 5 }).where(eq(agreementProducts.id, jal.productId)),
    );
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: Json, headers: Headers = originacion) =>
    ctx.app.inject({ method, url, payload, headers });

  const quote = (overrides: Json = {}) => quoteFields(jal, overrides);
  const capture = (overrides: Json = {}) => captureFields(jal, overrides);

  async function postRequest(data: Json) {
    const body = await requestMultipart(data);
    return ctx.app.inject({
      method: 'POST',
      url: '/api/requests',
      payload: body.payload,
      headers: { ...originacion, 'content-type': body.contentType },
    });
  }

  /** A credit of `curp` disbursed on 2026-11-23 with its first 3 installments paid. */
  async function oldCredit(overrides: Json = {}): Promise<string> {
    const created = await postRequest(capture(overrides));
    expect(created.statusCode, created.body).toBe(201);
    let request = created.json<{ id: string; version: number }>();
    for (const [action, headers, extra] of [
      ['submit', originacion, {}],
      ['approve', admin, {}],
      ['disburse', tesoreria, { disbursementDate: '2026-11-23' }],
    ] as const) {
      const response = await call('POST', `/api/requests/${request.id}/${action}`, { version: request.version, ...extra }, headers);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{ id: string; version: number; request?: { id: string; version: number }; creditId?: string }>();
      if (action === 'disburse') {
        const creditId = body.creditId!;
        await ctx.system((db) => payFirstInstallments(db, creditId, 3));
        return creditId;
      }
      request = body;
    }
    throw new Error('unreachable');
  }

  it('a pre-request naming a renewable credit shows its payoff and the net amount, keeps it, and its conversion carries it', async () => {
    const old = await oldCredit();
    ctx.clock.set('2027-01-05T18:00:00.000Z');
    const letter = (await call('GET', `/api/credits/${old}/payoff`, undefined, admin)).json<{ finalBalance: string }>();

    // Pre-Solicitudes reads the client's renewable credits too.
    const renewable = await call('GET', `/api/requests/renewable-credits?curp=${CURP}`);
    expect(renewable.statusCode, renewable.body).toBe(200);

    const simulated = await call('POST', '/api/pre-requests/simulate', quote({ amount: '30000', renews: [old] }));
    expect(simulated.statusCode, simulated.body).toBe(200);
    const verdict = simulated.json<{ result: string; reasons: { code: string }[]; renewal: Renewal }>();
    // 30,000.00 − 2 % fee 600.00 − its IVA 96.00 = 29,304.00 disbursed; less the settlement letter's payoff.
    expect(verdict.renewal).toMatchObject({
      payoffDate: '2027-01-05',
      payoffTotal: letter.finalBalance,
      netAmount: formatCents(2_930_400n - cents(letter.finalBalance)),
      credits: [{ creditId: old, payoff: letter.finalBalance }],
    });
    expect(verdict.result, JSON.stringify(verdict.reasons)).toBe('pre-aprobada');

    // Without naming it, the active credit stops the pre-request.
    const plain = (await call('POST', '/api/pre-requests/simulate', quote({ amount: '30000' }))).json<{ reasons: { code: string }[] }>();
    expect(plain.reasons.map((reason) => reason.code)).toContain('active-credit');

    // A net below the company's minimum is refused.
    await ctx.system((db) => db.update(companies).set({ renewalMinimumNet: '999999.00' }));
    const below = (await call('POST', '/api/pre-requests/simulate', quote({ amount: '30000', renews: [old] }))).json<{
      reasons: { code: string }[];
    }>();
    expect(below.reasons.map((reason) => reason.code)).toContain('renewal-minimum');
    await ctx.system((db) => db.update(companies).set({ renewalMinimumNet: '0.00' }));

    const saved = await call('POST', '/api/pre-requests', quote({ amount: '30000', renews: [old] }));
    expect(saved.statusCode, saved.body).toBe(201);
    const draft = saved.json<{ id: string; version: number; renews: string[]; result: string }>();
    expect(draft).toMatchObject({ renews: [old], result: 'pre-aprobada' });
    const sent = await call('POST', `/api/pre-requests/${draft.id}/send`, { version: draft.version });
    expect(sent.statusCode, sent.body).toBe(200);

    // The conversion names no credits: the pre-request's are carried, and the request's verdict pays them off.
    const converted = await postRequest(capture({ amount: '30000', preRequestId: draft.id }));
    expect(converted.statusCode, converted.body).toBe(201);
    const request = converted.json<{ renews: string[]; simulation: { renewal: Renewal } }>();
    expect(request.renews).toEqual([old]);
    expect(request.simulation.renewal.payoffTotal).toBe(letter.finalBalance);
    const [row] = await ctx.system((db) => db.select().from(preRequests).where(eq(preRequests.id, draft.id)));
    expect(row).toMatchObject({ status: 'convertida', renews: [old] });
  });

  it("refuses a pre-request naming another client's credit or another company's", async () => {
    const others = await oldCredit({ curp: OTHER_CURP, employeeNumber: 'J-2002' });
    ctx.clock.set('2027-01-05T18:00:00.000Z');
    const foreign = await call('POST', '/api/pre-requests', quote({ renews: [others] }));
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json<{ errors: { field: string; message: string }[] }>().errors[0]).toMatchObject({ field: 'renews' });
    expect(foreign.json<{ errors: { message: string }[] }>().errors[0]!.message).toContain('no es de la CURP');

    // The same credit moved to the other company: as missing as one that does not exist.
    const [plus] = await ctx.system((db) => db.select({ id: companies.id }).from(companies).where(eq(companies.code, 'PLUS')));
    await ctx.system((db) => db.update(credits).set({ companyId: plus!.id }).where(eq(credits.id, others)));
    const elsewhere = await call('POST', '/api/pre-requests', quote({ curp: OTHER_CURP, employeeNumber: 'J-2002', renews: [others] }));
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json<{ errors: { message: string }[] }>().errors[0]!.message).toContain('no existe o no es de la empresa');
    const stored = await ctx.system((db) => db.select().from(preRequests));
    expect(stored).toHaveLength(0);
  });
});
