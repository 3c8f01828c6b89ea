import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatCents, parseCents } from '@portal/lending';
import type { RequestAction } from '@portal/contract';
import { ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { CURP, OTHER_CURP, captureFields, payFirstInstallments, requestMultipart } from '../../test/origination-fixtures';
import { agreementProducts, agreements } from '../../db/schema/agreements';
import { credits, expectedDeductions, installments } from '../../db/schema/credits';
import { requests } from '../../db/schema/origination';
import { payments } from '../../db/schema/payments';
import { businessDates } from '../../db/schema/portfolio';
import { paymentOrders } from '../../db/schema/treasury';

/** Renewals end to end over HTTP (issue 48; docs/domain.md, "Renewals"), on both engines: money moves here. */

type Json = Record<string, unknown>;
type Headers = { authorization: string };
type Detail = {
  id: string;
  folio: string;
  status: string;
  version: number;
  creditId: string | null;
  simulation: Json & { renewal?: Renewal };
};
type Renewal = {
  payoffDate: string;
  credits: { creditId: string; folio: string; payoff: string; paidInstallments: number }[];
  netDisbursement: string;
  payoffTotal: string;
  netAmount: string;
};
type Disbursed = { request: Detail; creditId: string; creditFolio: string; amountToTransfer: string };

const cents = (value: string) => parseCents(value, 'importe');

describe.each(ENGINES)('Renovaciones (%s)', (engine) => {
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
    // The rule of these tests: 3 installments paid at least, 5 days past due at most.
    await ctx.system((db) =>
      db.update(agreementProducts).set({ renewalMinPaid: 3, renewalMaxDaysPastDue: 5 }).where(eq(agreementProducts.id, jal.productId)),
    );
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: Json, headers: Headers = originacion) =>
    ctx.app.inject({ method, url, payload, headers });

  const capture = (overrides: Json = {}) => captureFields(jal, overrides);

  async function post(overrides: Json = {}) {
    const body = await requestMultipart(capture(overrides));
    return ctx.app.inject({
      method: 'POST',
      url: '/api/requests',
      payload: body.payload,
      headers: { ...originacion, 'content-type': body.contentType },
    });
  }

  async function step(request: Detail, action: RequestAction, headers: Headers, extra: Json = {}) {
    const response = await call('POST', `/api/requests/${request.id}/${action}`, { version: request.version, ...extra }, headers);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<Detail | Disbursed>();
    return body;
  }

  /** A request captured, sent and approved. */
  async function approved(overrides: Json = {}): Promise<Detail> {
    const response = await post(overrides);
    expect(response.statusCode, response.body).toBe(201);
    let request = response.json<Detail>();
    request = (await step(request, 'submit', originacion)) as Detail;
    return (await step(request, 'approve', admin)) as Detail;
  }

  /** A credit disbursed on 2026-11-23 with its first `paid` installments paid (as a payment file would leave them). */
  async function oldCredit(overrides: Json = {}, paid = 3): Promise<string> {
    const request = await approved(overrides);
    const { creditId } = (await step(request, 'disburse', tesoreria, { disbursementDate: '2026-11-23' })) as Disbursed;
    await ctx.system((db) => payFirstInstallments(db, creditId, paid));
    return creditId;
  }

  const payoffAt = async (creditId: string) =>
    (await call('GET', `/api/credits/${creditId}/payoff`, undefined, admin)).json<{ finalBalance: string }>();

  const creditRow = (id: string) => ctx.system(async (db) => (await db.select().from(credits).where(eq(credits.id, id)))[0]!);

  it('renews one credit: payoff as the settlement letter computes it, net amount, the old credit liquidado by renovación, money conserved', async () => {
    const old = await oldCredit();
    // 2027-01-05: installments of 30/11, 15/12 and 31/12 paid; the company never closed a day, so its fecha flujo is today.
    ctx.clock.set('2027-01-05T18:00:00.000Z');
    const letter = await payoffAt(old);

    const renewable = await call('GET', `/api/requests/renewable-credits?curp=${CURP}`);
    expect(renewable.json()).toMatchObject({
      payoffDate: '2027-01-05',
      credits: [{ creditId: old, payoff: letter.finalBalance, paidInstallments: 3 }],
    });

    // Without naming it, the active credit stops the request; naming it, it passes.
    const plain = await post({ amount: '30000' });
    expect(plain.statusCode).toBe(409);
    expect(plain.json<{ detail: string }>().detail).toContain('ya tiene un crédito activo');

    const request = await approved({ amount: '30000', renews: [old] });
    const renewal = request.simulation.renewal!;
    // 30,000.00 − 2 % fee 600.00 − its IVA 96.00 = 29,304.00 disbursed; less the payoff.
    const net = formatCents(2_930_400n - cents(letter.finalBalance));
    expect(renewal).toMatchObject({
      payoffDate: '2027-01-05',
      netDisbursement: '29304.00',
      payoffTotal: letter.finalBalance,
      netAmount: net,
      credits: [{ creditId: old, payoff: letter.finalBalance }],
    });

    const result = (await step(request, 'disburse', tesoreria, { disbursementDate: '2027-01-05' })) as Disbursed;
    expect(result.amountToTransfer).toBe(net);

    const before = await creditRow(old);
    expect(before).toMatchObject({
      status: 'liquidado',
      liquidationReason: 'renovacion',
      renewedByCreditId: result.creditId,
      outstandingBalance: '0.00',
    });
    const [payment] = await ctx.system((db) => db.select().from(payments).where(eq(payments.creditId, old)));
    expect(payment).toMatchObject({ amount: letter.finalBalance, overpayment: '0.00', valueDate: '2027-01-05', fileId: null });
    // Money conserved to the centavo: the new credit's net disbursement = payoffs paid + what is transferred.
    const created = await creditRow(result.creditId);
    expect(cents(created.netDisbursed)).toBe(cents(payment!.amount) + cents(result.amountToTransfer));
    // Tesorería sends only the net: one pending order of the new credit for what is transferred; the old credit keeps
    // only the order of its own disbursement.
    const orders = await ctx.system((db) => db.select().from(paymentOrders));
    expect(orders.filter((order) => order.creditId === result.creditId).map((order) => [order.kind, order.status, order.amount])).toEqual([
      ['dispersión', 'por enviar', result.amountToTransfer],
    ]);
    expect(orders.filter((order) => order.creditId === old)).toHaveLength(1);
    expect(orders).toHaveLength(2);
    const left = await ctx.system((db) => db.select().from(expectedDeductions).where(eq(expectedDeductions.creditId, old)));
    expect(left.filter((d) => d.period <= 3).every((d) => d.state === 'recibido')).toBe(true);
    expect(left.filter((d) => d.period > 3).every((d) => d.state === 'cancelado')).toBe(true);

    // The credit views link both ways; the list filters by liquidation reason.
    const oldAnswer = await call('GET', `/api/credits/${old}`, undefined, admin);
    expect(oldAnswer.statusCode, oldAnswer.body).toBe(200);
    const oldView = oldAnswer.json<Json>();
    expect(oldView).toMatchObject({
      status: 'liquidado',
      liquidationReason: 'renovacion',
      renewedBy: { id: result.creditId, folio: result.creditFolio },
    });
    const newView = (await call('GET', `/api/credits/${result.creditId}`, undefined, admin)).json<Json>();
    expect(newView).toMatchObject({ liquidationReason: null, renewedBy: null, renews: [{ id: old }] });
    const renewed = (await call('GET', '/api/credits?liquidation=renovacion', undefined, admin)).json<{ items: { id: string }[] }>();
    expect(renewed.items.map((item) => item.id)).toEqual([old]);
    const paidOff = (await call('GET', '/api/credits?liquidation=pago', undefined, admin)).json<{ items: unknown[] }>();
    expect(paidOff.items).toEqual([]);
    const odd = await call('GET', '/api/credits?liquidation=RENOVACION', undefined, admin);
    expect(odd.statusCode).toBe(400);
  });

  it("the next cédula carries the renewed credit's baja (renovación) and the new credit's alta in the same payday", async () => {
    const old = await oldCredit();
    // Fecha flujo 2027-01-05: GOB-JAL's next payday is 15 January (cut-off 10 January, not passed), the one before 31
    // December, the old credit's 3rd installment; renewed today, the new credit's first payday is that 15 January.
    ctx.clock.set('2027-01-05T18:00:00.000Z');
    const request = await approved({ amount: '30000', renews: [old] });
    const result = (await step(request, 'disburse', tesoreria, { disbursementDate: '2027-01-05' })) as Disbursed;
    const paymentOn = async (creditId: string, dueDate: string) => {
      const [row] = await ctx.system((db) =>
        db
          .select({ payment: installments.payment })
          .from(installments)
          .where(and(eq(installments.creditId, creditId), eq(installments.dueDate, dueDate))),
      );
      return row!.payment;
    };

    const cartera = await ctx.as('cartera@demo.mx');
    const generated = await call('POST', '/api/deduction-orders', { agreementId: jal.agreementId }, cartera);
    expect(generated.statusCode, generated.body).toBe(201);
    const order = generated.json<{ id: string; payday: string }>();
    expect(order.payday).toBe('2027-01-15');
    const lines = (await call('GET', `/api/deduction-orders/${order.id}/lines?pageSize=100`, undefined, cartera)).json<{
      items: { creditFolio: string; movement: string; amountBefore: string; amountAfter: string; reason: string | null }[];
    }>().items;
    const oldFolio = request.simulation.renewal!.credits[0]!.folio;
    expect(lines.find((line) => line.creditFolio === oldFolio)).toMatchObject({
      movement: 'baja',
      amountBefore: await paymentOn(old, '2026-12-31'),
      amountAfter: '0.00',
      reason: 'renovacion',
    });
    expect(lines.find((line) => line.creditFolio === result.creditFolio)).toMatchObject({
      movement: 'alta',
      amountBefore: '0.00',
      amountAfter: await paymentOn(result.creditId, '2027-01-15'),
      reason: 'credito-nuevo',
    });
  });

  it("with the agreement's renewal setting the next cédula carries one cambio: the new credit in place of the renewed one", async () => {
    const old = await oldCredit();
    await ctx.system((db) => db.update(agreements).set({ renewalAsChange: true }).where(eq(agreements.id, jal.agreementId)));
    ctx.clock.set('2027-01-05T18:00:00.000Z');
    const request = await approved({ amount: '30000', renews: [old] });
    const result = (await step(request, 'disburse', tesoreria, { disbursementDate: '2027-01-05' })) as Disbursed;
    const paymentOn = async (creditId: string, dueDate: string) => {
      const [row] = await ctx.system((db) =>
        db
          .select({ payment: installments.payment })
          .from(installments)
          .where(and(eq(installments.creditId, creditId), eq(installments.dueDate, dueDate))),
      );
      return row!.payment;
    };
    const cartera = await ctx.as('cartera@demo.mx');
    const generated = await call('POST', '/api/deduction-orders', { agreementId: jal.agreementId }, cartera);
    expect(generated.statusCode, generated.body).toBe(201);
    const order = generated.json<{ id: string; payday: string; altas: { count: number }; bajas: { count: number } }>();
    expect(order.payday).toBe('2027-01-15');
    const lines = (await call('GET', `/api/deduction-orders/${order.id}/lines?pageSize=100`, undefined, cartera)).json<{
      items: {
        creditFolio: string;
        movement: string;
        amountBefore: string;
        amountAfter: string;
        reason: string | null;
        replacesCreditFolio: string | null;
      }[];
    }>().items;
    const oldFolio = request.simulation.renewal!.credits[0]!.folio;
    // The renewed credit has no line; the new credit's line changes its installment (31 December's) into the new one.
    expect(lines.find((line) => line.creditFolio === oldFolio)).toBeUndefined();
    expect(lines.find((line) => line.creditFolio === result.creditFolio)).toEqual({
      ...lines.find((line) => line.creditFolio === result.creditFolio),
      movement: 'cambio',
      amountBefore: await paymentOn(old, '2026-12-31'),
      amountAfter: await paymentOn(result.creditId, '2027-01-15'),
      reason: 'renovacion-cambio',
      replacesCreditFolio: oldFolio,
    });
    // The counts follow the lines.
    expect(order.altas.count).toBe(lines.filter((line) => line.movement === 'alta').length);
    expect(order.bajas.count).toBe(lines.filter((line) => line.movement === 'baja').length);
  });

  it('renews two credits in one disbursement, and the capacity frees both installments', async () => {
    const first = await oldCredit();
    const second = await oldCredit({ curp: OTHER_CURP, employeeNumber: 'J-2002', amount: '5000' });
    // The second becomes the same client's (one person, two credits).
    await ctx.system(async (db) => {
      const [owner] = await db.select({ clientId: credits.clientId }).from(credits).where(eq(credits.id, first));
      await db.update(credits).set({ clientId: owner!.clientId }).where(eq(credits.id, second));
    });
    ctx.clock.set('2027-01-05T18:00:00.000Z');
    const a = await payoffAt(first);
    const b = await payoffAt(second);
    // Salary 8,000.00 at 30 %: capacity 2,400.00 less other deductions. With 2,000.00 of others (both installments
    // among them) a 25,000.00 loan's installment (about 1,283) does not fit in 400.00; with both freed it does.
    const request = await approved({ amount: '25000', otherDeductions: '2000', renews: [first, second] });
    const renewal = request.simulation.renewal!;
    const firstRow = await creditRow(first);
    const secondRow = await creditRow(second);
    expect(renewal).toMatchObject({
      otherDeductionsAfter: formatCents(200_000n - cents(firstRow.installment) - cents(secondRow.installment)),
      payoffTotal: formatCents(cents(a.finalBalance) + cents(b.finalBalance)),
    });
    const result = (await step(request, 'disburse', tesoreria, { disbursementDate: '2027-01-05' })) as Disbursed;
    const paid = await ctx.system((db) => db.select({ amount: payments.amount, creditId: payments.creditId }).from(payments));
    const created = await creditRow(result.creditId);
    const total = paid.reduce((sum, row) => sum + cents(row.amount), 0n);
    expect(total).toBe(cents(a.finalBalance) + cents(b.finalBalance));
    expect(cents(created.netDisbursed)).toBe(total + cents(result.amountToTransfer));
    for (const id of [first, second]) expect(await creditRow(id)).toMatchObject({ status: 'liquidado', liquidationReason: 'renovacion' });
  });

  it('refuses a credit late past the rule, one with too few installments paid, and one of another client', async () => {
    const old = await oldCredit({}, 2);
    ctx.clock.set('2027-01-05T18:00:00.000Z');
    const fewPaid = await post({ amount: '30000', renews: [old] });
    expect(fewPaid.statusCode).toBe(409);
    expect(fewPaid.json<{ detail: string }>().detail).toContain('lleva 2 pagos; para renovarlo se necesitan al menos 3.');
    await ctx.system((db) => db.update(credits).set({ daysPastDue: 6 }).where(eq(credits.id, old)));
    const late = await post({ amount: '30000', renews: [old] });
    expect(late.json<{ detail: string }>().detail).toContain('tiene 6 días de atraso; para renovarlo se admiten hasta 5.');
    const stranger = await post({ curp: OTHER_CURP, employeeNumber: 'J-9', amount: '30000', renews: [old] });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json()).toMatchObject({ errors: [{ field: 'renews', message: expect.stringContaining('no es de la CURP') }] });
    const missing = await post({ amount: '30000', renews: [crypto.randomUUID()] });
    expect(missing.json()).toMatchObject({ errors: [{ field: 'renews' }] });
  });

  it('refuses a negative net amount, and one below the company minimum set on Convenios; accepts it with the minimum at 0', async () => {
    const old = await oldCredit();
    ctx.clock.set('2027-01-05T18:00:00.000Z');
    const negative = await post({ amount: '3000', renews: [old] });
    expect(negative.statusCode).toBe(409);
    expect(negative.json<{ detail: string }>().detail).toContain('superan lo que dispersa el nuevo crédito');
    const setMinimum = (renewalMinimumNet: string) =>
      ctx.app.inject({ method: 'PUT', url: '/api/agreements/renewal-minimum', payload: { renewalMinimumNet }, headers: admin });
    expect((await setMinimum('20000')).statusCode).toBe(200);
    const belowMinimum = await post({ amount: '30000', renews: [old] });
    expect(belowMinimum.statusCode).toBe(409);
    expect(belowMinimum.json<{ detail: string }>().detail).toContain('es menor que el mínimo de renovación de la empresa ($20,000.00)');
    expect((await setMinimum('0')).statusCode).toBe(200);
    const accepted = await post({ amount: '30000', renews: [old] });
    expect(accepted.statusCode, accepted.body).toBe(201);
  });

  it('a later disbursement date moves the payoffs: refused until the new net is confirmed, then paid at the new figure', async () => {
    const old = await oldCredit();
    ctx.clock.set('2027-01-05T18:00:00.000Z');
    const request = await approved({ amount: '30000', renews: [old] });
    const frozen = request.simulation.renewal!;
    ctx.clock.set('2027-01-12T18:00:00.000Z');
    const later = await payoffAt(old);
    expect(cents(later.finalBalance)).toBeGreaterThan(cents(frozen.payoffTotal));
    const netNow = formatCents(cents(frozen.netDisbursement) - cents(later.finalBalance));
    const unseen = await call(
      'POST',
      `/api/requests/${request.id}/disburse`,
      { version: request.version, disbursementDate: '2027-01-12' },
      tesoreria,
    );
    expect(unseen.statusCode).toBe(409);
    expect(unseen.json()).toMatchObject({ title: 'Los finiquitos cambiaron', errors: [{ field: 'expectedNetAmount', message: netNow }] });
    expect(await creditRow(old)).toMatchObject({ status: 'vigente', renewedByCreditId: null });
    const stale = await call(
      'POST',
      `/api/requests/${request.id}/disburse`,
      { version: request.version, disbursementDate: '2027-01-12', expectedNetAmount: frozen.netAmount },
      tesoreria,
    );
    expect(stale.statusCode).toBe(409);
    const result = (await step(request, 'disburse', tesoreria, { disbursementDate: '2027-01-12', expectedNetAmount: netNow })) as Disbursed;
    expect(result.amountToTransfer).toBe(netNow);
    const [payment] = await ctx.system((db) => db.select().from(payments).where(eq(payments.creditId, old)));
    expect(payment!.amount).toBe(later.finalBalance);
    expect(await creditRow(old)).toMatchObject({ status: 'liquidado', outstandingBalance: '0.00' });
  });

  it("after the day's close the fecha flujo is ahead of today: the renewal disburses on it, and on no other date", async () => {
    const old = await oldCredit();
    ctx.clock.set('2027-01-05T23:30:00.000Z'); // 17:30 in Mexico City, 2027-01-05; the day is already closed
    const { companyId } = await creditRow(old);
    await ctx.system((db) =>
      db
        .insert(businessDates)
        .values({ companyId, businessDate: '2027-01-06' })
        .onConflictDoUpdate({ target: businessDates.companyId, set: { businessDate: '2027-01-06' } }),
    );
    const request = await approved({ amount: '30000', renews: [old] });
    const frozen = request.simulation.renewal!;
    expect(frozen.payoffDate).toBe('2027-01-06');
    const disburseOn = (disbursementDate: string) =>
      call('POST', `/api/requests/${request.id}/disburse`, { version: request.version, disbursementDate }, tesoreria);
    const beyond = await disburseOn('2027-01-07');
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().errors).toEqual([
      {
        field: 'disbursementDate',
        message: 'La fecha de dispersión debe estar entre la aprobación (2027-01-05) y la fecha flujo (2027-01-06).',
      },
    ]);
    const civil = await disburseOn('2027-01-05');
    expect(civil.statusCode).toBe(400);
    expect(civil.json().errors[0].message).toMatch(/^Una renovación se dispersa en la fecha flujo de la empresa \(2027-01-06\)/);
    expect(await creditRow(old)).toMatchObject({ status: 'vigente', renewedByCreditId: null });

    const result = (await step(request, 'disburse', tesoreria, { disbursementDate: '2027-01-06' })) as Disbursed;
    expect(result.amountToTransfer).toBe(frozen.netAmount);
    const [payment] = await ctx.system((db) => db.select().from(payments).where(eq(payments.creditId, old)));
    expect(payment).toMatchObject({ amount: frozen.credits[0]!.payoff, valueDate: '2027-01-06' });
    expect(await creditRow(result.creditId)).toMatchObject({ disbursementDate: '2027-01-06' });
    expect(await creditRow(old)).toMatchObject({ status: 'liquidado', outstandingBalance: '0.00', renewedByCreditId: result.creditId });
  });

  it('two renewals of the same credit disbursed at once: one wins, the other is refused and changes nothing', async () => {
    const old = await oldCredit();
    ctx.clock.set('2027-01-05T18:00:00.000Z');
    const first = await approved({ amount: '30000', renews: [old] });
    // A second approved renewal of the same credit (the open-request rule keeps the screens from capturing it; a
    // migrated or concurrent one must still lose).
    const second = await ctx.system(async (db) => {
      const [row] = await db.select().from(requests).where(eq(requests.id, first.id));
      const { id: _id, number: _number, ...copy } = row!;
      const [inserted] = await db.insert(requests).values(copy).returning({ id: requests.id, version: requests.version });
      return inserted!;
    });
    const body = { disbursementDate: '2027-01-05' };
    const answers = await Promise.all([
      call('POST', `/api/requests/${first.id}/disburse`, { ...body, version: first.version }, tesoreria),
      call('POST', `/api/requests/${second.id}/disburse`, { ...body, version: second.version }, tesoreria),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const loser = answers.find((answer) => answer.statusCode === 409)!;
    expect(loser.json<{ detail: string }>().detail).toMatch(/ya fue renovado por CR-\d+/);
    const paid = await ctx.system((db) => db.select().from(payments).where(eq(payments.creditId, old)));
    expect(paid).toHaveLength(1);
    const made = await ctx.system((db) => db.select({ id: credits.id }).from(credits));
    expect(made).toHaveLength(2);
    // The old credit's own disbursement order and the winner's: the loser sent no money.
    expect(await ctx.system((db) => db.select().from(paymentOrders))).toHaveLength(2);
  });

  it('cancelling an approved renewal leaves the old credit untouched', async () => {
    const old = await oldCredit();
    ctx.clock.set('2027-01-05T18:00:00.000Z');
    const request = await approved({ amount: '30000', renews: [old] });
    const before = await creditRow(old);
    await step(request, 'cancel', originacion, { reason: 'El cliente desistió.' });
    expect(await creditRow(old)).toEqual(before);
    const deductions = await ctx.system((db) => db.select().from(expectedDeductions).where(eq(expectedDeductions.creditId, old)));
    expect(deductions.some((d) => d.state === 'cancelado')).toBe(false);
  });
});
