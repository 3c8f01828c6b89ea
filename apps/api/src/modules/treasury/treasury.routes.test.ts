import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { addDays, daysBetween } from '@portal/lending';
import { auditEvents } from '../../db/schema/audit';
import { credits, installments } from '../../db/schema/credits';
import { paymentBatchLines, paymentOrders } from '../../db/schema/treasury';
import { companies, profiles } from '../../db/schema/users';
import { ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { createDisbursementOrder } from '../portfolio/payment-orders';

type Headers = { authorization: string };

/** Banamex's CLABE of the CLABE literature (bank-layout.test.ts checks its control digit by hand). */
const SOURCE = '002010077777777771';
/** The clock of createTestApp: 23 November 2026, 09:00 in Mexico City. */
const TODAY = '2026-11-23';

describe.each(ENGINES)('Tesorería API (%s)', (engine) => {
  let ctx: TestContext;
  let tesoreria: Headers;
  let admin: Headers;
  let cartera: Headers;
  let plus: Headers;
  /** Five credits of the demo company, by number. */
  let chosen: { id: string; number: number; netDisbursed: string }[];

  beforeAll(async () => {
    ctx = await createTestApp(engine, { snapshot: true, seed: async (db, now) => seedDemoPortfolio(db, now, 30) });
  });
  afterAll(async () => {
    await ctx.close();
  });

  beforeEach(async () => {
    await ctx.reset();
    tesoreria = await ctx.as('tesoreria@demo.mx');
    admin = await ctx.as('admin@demo.mx');
    cartera = await ctx.as('cartera@demo.mx');
    plus = await ctx.as('plus@demo.mx');
    chosen = await ctx.system(async (tx) => {
      const [demo] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.code, 'DEMO'));
      return tx
        .select({ id: credits.id, number: credits.number, netDisbursed: credits.netDisbursed })
        .from(credits)
        .where(eq(credits.companyId, demo!.id))
        .orderBy(asc(credits.number))
        .limit(5);
    });
  });

  const call = async (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) => {
    const response = await ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.headers['content-type']?.includes('json') ? response.json() : response.body };
  };

  /** A pending disbursement order for each chosen credit, as Dispersar creates it. */
  const disbursementOrders = (count = chosen.length) =>
    ctx.system(async (tx) => {
      for (const credit of chosen.slice(0, count)) {
        await createDisbursementOrder(tx, { creditId: credit.id, amount: credit.netDisbursed, createdBy: null, now: ctx.clock.now() });
      }
    });

  const orders = () => ctx.system((tx) => tx.select().from(paymentOrders).orderBy(asc(paymentOrders.number)));
  const lines = (batchId: string) =>
    ctx.system((tx) =>
      tx.select().from(paymentBatchLines).where(eq(paymentBatchLines.batchId, batchId)).orderBy(asc(paymentBatchLines.line)),
    );

  it('creates a disbursement order for what the client receives, once per credit', async () => {
    await disbursementOrders(1);
    const [order] = await orders();
    expect(order).toMatchObject({ kind: 'dispersión', status: 'por enviar', amount: chosen[0]!.netDisbursed, creditId: chosen[0]!.id });
    expect(order!.concept).toBe(`DISPERSION CREDITO ${String(chosen[0]!.number).padStart(8, '0')}`);
    expect(order!.concept.length).toBeLessThanOrEqual(40);
    await expect(disbursementOrders(1)).rejects.toThrow();
    const listed = await call('GET', '/api/payment-orders?status=por%20enviar', tesoreria);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(1);
    // Another company sees none of it.
    expect((await call('GET', '/api/payment-orders', plus)).status).toBe(403);
  });

  it('picks each pending order once when two batches are generated at once', async () => {
    await disbursementOrders();
    const [first, second] = await Promise.all([
      call('POST', '/api/payment-batches', tesoreria, { sourceAccount: SOURCE }),
      call('POST', '/api/payment-batches', admin, { sourceAccount: SOURCE }),
    ]);
    const made = [first, second].filter((answer) => answer.status === 201);
    expect(made.length).toBeGreaterThanOrEqual(1);
    for (const answer of [first, second].filter((candidate) => candidate.status !== 201)) {
      expect(answer).toMatchObject({ status: 409, body: { title: 'Nada por enviar' } });
    }
    const picked = (await Promise.all(made.map((answer) => lines(answer.body.id)))).flat().map((line) => line.orderId);
    expect(picked.sort()).toEqual((await orders()).map((order) => order.id).sort());
    expect(made.reduce((sum, answer) => sum + answer.body.orderCount, 0)).toBe(chosen.length);
    // Nothing is left to pick.
    expect((await call('POST', '/api/payment-batches', tesoreria, { sourceAccount: SOURCE })).status).toBe(409);
  });

  it('refuses a second open line for the same order in the database itself', async () => {
    await disbursementOrders(1);
    const batch = await call('POST', '/api/payment-batches', tesoreria, { sourceAccount: SOURCE });
    const [line] = await lines(batch.body.id);
    await expect(ctx.system((tx) => tx.insert(paymentBatchLines).values({ ...line!, line: 2, trackingKey: 'OTRA' }))).rejects.toThrow();
  });

  it('authorizes by another person only, and then downloads the bank file', async () => {
    await disbursementOrders(2);
    const batch = await call('POST', '/api/payment-batches', tesoreria, { sourceAccount: SOURCE });
    expect(batch.body).toMatchObject({ status: 'por autorizar', orderCount: 2, generatedBy: 'tesoreria@demo.mx' });
    expect((await call('GET', `/api/payment-batches/${batch.body.id}/file`, tesoreria)).status).toBe(409);
    const same = await call('POST', `/api/payment-batches/${batch.body.id}/authorize`, tesoreria);
    expect(same).toMatchObject({ status: 409, body: { title: 'Se requiere otra persona' } });
    const other = await call('POST', `/api/payment-batches/${batch.body.id}/authorize`, admin);
    expect(other.body).toMatchObject({ status: 'autorizado', authorizedBy: 'admin@demo.mx' });
    expect((await call('POST', `/api/payment-batches/${batch.body.id}/authorize`, admin)).status).toBe(409);
    expect((await orders()).map((order) => order.status)).toEqual(['enviada', 'enviada']);
    const file = await call('GET', `/api/payment-batches/${batch.body.id}/file`, tesoreria);
    const records = String(file.body).split('\r\n').filter(Boolean);
    expect(records.map((record) => record[0])).toEqual(['H', 'D', 'D', 'T']);
    expect(records[0]!.slice(1, 19)).toBe(SOURCE);
    const csv = await call('GET', `/api/payment-batches/${batch.body.id}/file?format=csv`, tesoreria);
    expect(String(csv.body).split('\r\n').filter(Boolean)).toHaveLength(3);
    const actions = await ctx.system((tx) =>
      tx.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.entityId, batch.body.id)),
    );
    expect(actions.map((row) => row.action).sort()).toEqual(['payment-batch.authorize', 'payment-batch.generate']);
    // Another company's user cannot reach the batch (row-level security: not found).
    const plusAdmin = await call('GET', `/api/payment-batches/${batch.body.id}`, plus);
    expect([403, 404]).toContain(plusAdmin.status);
  });

  it('returns a rejected line to pending with its reason; the next batch pays it and the credit starts that day', async () => {
    await disbursementOrders(2);
    const credit = chosen[0]!;
    // A credit with nothing of its own yet (nothing paid, no deduction moved): disbursed on 2 November, first payday 30 November.
    await ctx.system(async (tx) => {
      await tx.execute(sql`update installments set paid_principal = 0, paid_interest = 0, paid_iva = 0, moratory_interest = 0, moratory_iva = 0,
                           fees = 0, fees_iva = 0, paid_moratory_interest = 0, paid_moratory_iva = 0, paid_fees = 0, paid_fees_iva = 0, accrues_from = null
                           where credit_id = ${credit.id}`);
      await tx.execute(sql`update expected_deductions set state = 'esperado' where credit_id = ${credit.id}`);
      await tx.execute(sql`delete from deduction_order_lines where credit_id = ${credit.id}`);
      await tx.update(credits).set({ disbursementDate: '2026-11-02' }).where(eq(credits.id, credit.id));
    });
    const first = await call('POST', '/api/payment-batches', tesoreria, { sourceAccount: SOURCE });
    await call('POST', `/api/payment-batches/${first.body.id}/authorize`, admin);
    const [line1, line2] = await lines(first.body.id);
    expect(
      (
        await call('POST', `/api/payment-batches/${first.body.id}/results`, admin, {
          lines: [{ trackingKey: line1!.trackingKey, result: 'rechazada' }],
        })
      ).status,
    ).toBe(400);
    const bankAnswer = (settled: string) => ({
      answer: `clave_rastreo,resultado,motivo,fecha\n${line1!.trackingKey},RECHAZADA,Cuenta cancelada,\n${line2!.trackingKey},LIQUIDADA,,${settled}\n`,
    });
    // No money leaves before its batch is authorized (today): an earlier date is refused, and nothing is recorded.
    const early = await call('POST', `/api/payment-batches/${first.body.id}/results`, admin, bankAnswer('20/11/2026'));
    expect(early).toMatchObject({
      status: 422,
      body: { detail: expect.stringContaining(`anterior a la autorización del lote (${TODAY})`) },
    });
    expect((await lines(first.body.id)).map((line) => line.result)).toEqual(['pendiente', 'pendiente']);
    const answer = await call('POST', `/api/payment-batches/${first.body.id}/results`, admin, bankAnswer('23/11/2026'));
    expect(answer.body).toMatchObject({ settled: 1, rejected: 1, batch: { status: 'cerrado', settledCount: 1, rejectedCount: 1 } });
    const [rejected, paid] = await orders();
    expect(rejected).toMatchObject({ status: 'por enviar', batchId: null, lastRejectionReason: 'Cuenta cancelada', rejections: 1 });
    expect(paid).toMatchObject({ status: 'liquidada', settledOn: TODAY });
    // Answered twice: refused.
    expect(
      (
        await call('POST', `/api/payment-batches/${first.body.id}/results`, admin, {
          lines: [{ trackingKey: line2!.trackingKey, result: 'liquidada' }],
        })
      ).status,
    ).toBe(409);

    const second = await call('POST', '/api/payment-batches', tesoreria, { sourceAccount: SOURCE });
    expect(second.body.orderCount).toBe(1);
    await call('POST', `/api/payment-batches/${second.body.id}/authorize`, admin);
    const [again] = await lines(second.body.id);
    expect(again!.orderId).toBe(rejected!.id);
    expect(again!.trackingKey).not.toBe(line1!.trackingKey);
    const settled = await call('POST', `/api/payment-batches/${second.body.id}/results`, admin, {
      lines: [{ trackingKey: again!.trackingKey, result: 'liquidada', settledOn: TODAY }],
    });
    expect(settled.status).toBe(200);
    // The credit starts on the day its money left: 23 November, its first row charged from then to its first payday.
    const [after] = await ctx.system((tx) => tx.select().from(credits).where(eq(credits.id, credit.id)));
    expect(after!.disbursementDate).toBe(TODAY);
    const rows = await ctx.system((tx) =>
      tx.select().from(installments).where(eq(installments.creditId, credit.id)).orderBy(asc(installments.number)),
    );
    expect(rows).toHaveLength(after!.term);
    expect(rows[0]!.dueDate).toBe(after!.firstDueDate);
    expect(rows[0]!.dueDate > TODAY).toBe(true);
    if (rows[0]!.days !== null) expect(rows[0]!.days).toBe(daysBetween(TODAY, rows[0]!.dueDate));
    expect(addDays(after!.disbursementDate, 0)).toBe(TODAY);
    const started = await ctx.system((tx) =>
      tx.select({ action: auditEvents.action, after: auditEvents.after }).from(auditEvents).where(eq(auditEvents.entityId, credit.id)),
    );
    expect(started.map((row) => row.action)).toContain('credit.start');
  });

  it('keeps the schedule of a credit that already has payments when its rejected disbursement is paid later', async () => {
    await disbursementOrders(1);
    const credit = chosen[0]!;
    const [before] = await ctx.system((tx) => tx.select().from(credits).where(eq(credits.id, credit.id)));
    await ctx.system((tx) => tx.execute(sql`update installments set paid_principal = 1 where credit_id = ${credit.id} and number = 1`));
    await ctx.system((tx) => tx.update(paymentOrders).set({ rejections: 1 }));
    const batch = await call('POST', '/api/payment-batches', tesoreria, { sourceAccount: SOURCE });
    await call('POST', `/api/payment-batches/${batch.body.id}/authorize`, admin);
    const [line] = await lines(batch.body.id);
    await call('POST', `/api/payment-batches/${batch.body.id}/results`, admin, {
      lines: [{ trackingKey: line!.trackingKey, result: 'liquidada' }],
    });
    const [after] = await ctx.system((tx) => tx.select().from(credits).where(eq(credits.id, credit.id)));
    expect(after!.disbursementDate).toBe(before!.disbursementDate);
  });

  it("keeps another company's orders, batches and credits out of reach of a user holding every Tesorería permission", async () => {
    await disbursementOrders(2);
    const batch = await call('POST', '/api/payment-batches', tesoreria, { sourceAccount: SOURCE });
    await ctx.system((tx) =>
      tx
        .update(profiles)
        .set({
          permissions: sql`${profiles.permissions} || array['/treasury/payment-orders', '/actions/treasury/generate-batch', '/actions/treasury/authorize-batch', '/wallet/refunds', '/actions/wallet/request-refund']::text[]`,
        })
        .where(eq(profiles.name, 'Operación')),
    );
    expect((await call('GET', '/api/payment-orders', plus)).body).toMatchObject({ items: [], total: 0 });
    expect((await call('GET', '/api/payment-batches', plus)).body).toMatchObject({ items: [], total: 0 });
    expect((await call('GET', `/api/payment-batches/${batch.body.id}`, plus)).status).toBe(404);
    expect((await call('POST', `/api/payment-batches/${batch.body.id}/authorize`, plus)).status).toBe(404);
    expect((await call('POST', '/api/payment-batches', plus, { sourceAccount: SOURCE })).status).toBe(409);
    expect((await call('POST', '/api/refunds', plus, { creditId: chosen[0]!.id, amount: '10', clabeSource: 'expediente' })).status).toBe(
      404,
    );
    expect((await orders()).map((order) => order.status)).toEqual(['en lote', 'en lote']);
  });

  describe('refunds of saldo a favor', () => {
    const setBalance = (creditId: string, amount: string) =>
      ctx.system((tx) => tx.update(credits).set({ creditBalance: amount }).where(eq(credits.id, creditId)));
    const balanceOf = async (creditId: string) =>
      (await ctx.system((tx) => tx.select({ balance: credits.creditBalance }).from(credits).where(eq(credits.id, creditId))))[0]!.balance;

    it('never asks for more than the saldo a favor, and approval is by another person', async () => {
      const credit = chosen[1]!;
      await setBalance(credit.id, '500.00');
      const candidates = await call('GET', '/api/refunds/candidates', cartera);
      expect(candidates.body.items).toContainEqual(
        expect.objectContaining({ creditId: credit.id, creditBalance: '500.00', available: '500.00' }),
      );
      const ask = (amount: string, headers = cartera) =>
        call('POST', '/api/refunds', headers, { creditId: credit.id, amount, clabeSource: 'expediente' });
      expect(await ask('500.01')).toMatchObject({ status: 409, body: { title: 'Importe mayor al saldo a favor' } });
      const first = await ask('300');
      expect(first).toMatchObject({ status: 201, body: { status: 'solicitada', amount: '300.00' } });
      // 200.00 remain to ask for.
      expect((await ask('200.01')).status).toBe(409);
      expect((await ask('0')).status).toBe(422);
      // A new CLABE needs a valid one and its evidence.
      const bad = await call('POST', '/api/refunds', cartera, {
        creditId: credit.id,
        amount: '10',
        clabeSource: 'nueva',
        clabe: '012180001234567898',
        evidence: 'Estado de cuenta de noviembre',
      });
      expect(bad).toMatchObject({ status: 422, body: { title: 'CLABE no válida' } });
      const noEvidence = await call('POST', '/api/refunds', cartera, {
        creditId: credit.id,
        amount: '10',
        clabeSource: 'nueva',
        clabe: '012180001234567899',
      });
      expect(noEvidence.status).toBe(400);
      // Another company cannot ask for this credit's money.
      expect((await ask('10', plus)).status).toBe(403);

      const same = await call('POST', `/api/refunds/${first.body.id}/decision`, cartera, { decision: 'aprobar' });
      expect(same).toMatchObject({ status: 409, body: { title: 'Se requiere otra persona' } });
      const approved = await call('POST', `/api/refunds/${first.body.id}/decision`, tesoreria, { decision: 'aprobar' });
      expect(approved.body).toMatchObject({ status: 'aprobada', orderStatus: 'por enviar' });
      expect((await call('POST', `/api/refunds/${first.body.id}/decision`, tesoreria, { decision: 'aprobar' })).status).toBe(409);
      const [order] = await orders();
      expect(order).toMatchObject({ kind: 'devolución', amount: '300.00', refundId: first.body.id });
    });

    it('lowers the saldo a favor when its batch is authorized, restores it when the bank rejects, and pays it on the next', async () => {
      const credit = chosen[1]!;
      await setBalance(credit.id, '500.00');
      const refund = await call('POST', '/api/refunds', cartera, { creditId: credit.id, amount: '300', clabeSource: 'expediente' });
      await call('POST', `/api/refunds/${refund.body.id}/decision`, tesoreria, { decision: 'aprobar' });
      const batch = await call('POST', '/api/payment-batches', tesoreria, { sourceAccount: SOURCE });
      expect(await balanceOf(credit.id)).toBe('500.00');
      await call('POST', `/api/payment-batches/${batch.body.id}/authorize`, admin);
      expect(await balanceOf(credit.id)).toBe('200.00');
      const [line] = await lines(batch.body.id);
      await call('POST', `/api/payment-batches/${batch.body.id}/results`, admin, {
        lines: [{ trackingKey: line!.trackingKey, result: 'rechazada', reason: 'Cuenta inexistente' }],
      });
      expect(await balanceOf(credit.id)).toBe('500.00');
      const listed = await call('GET', '/api/refunds', cartera);
      expect(listed.body.items[0]).toMatchObject({
        status: 'aprobada',
        orderStatus: 'por enviar',
        lastRejectionReason: 'Cuenta inexistente',
      });

      const next = await call('POST', '/api/payment-batches', tesoreria, { sourceAccount: SOURCE });
      await call('POST', `/api/payment-batches/${next.body.id}/authorize`, admin);
      expect(await balanceOf(credit.id)).toBe('200.00');
      const [paid] = await lines(next.body.id);
      await call('POST', `/api/payment-batches/${next.body.id}/results`, admin, {
        lines: [{ trackingKey: paid!.trackingKey, result: 'liquidada' }],
      });
      expect(await balanceOf(credit.id)).toBe('200.00');
      expect((await call('GET', '/api/refunds', cartera)).body.items[0]).toMatchObject({ status: 'pagada', orderStatus: 'liquidada' });
    });

    it('cancels, of two refunds of one credit in a batch, the one the saldo a favor no longer covers', async () => {
      const credit = chosen[1]!;
      await setBalance(credit.id, '150.00');
      const ask = async (amount: string) => {
        const refund = await call('POST', '/api/refunds', cartera, { creditId: credit.id, amount, clabeSource: 'expediente' });
        await call('POST', `/api/refunds/${refund.body.id}/decision`, tesoreria, { decision: 'aprobar' });
        return refund.body.id as string;
      };
      const first = await ask('100');
      const second = await ask('50');
      // A payment reverted since the approvals took the saldo a favor down to 120.00: 100.00 fit (20.00 left), 50.00 not.
      await setBalance(credit.id, '120.00');
      const batch = await call('POST', '/api/payment-batches', tesoreria, { sourceAccount: SOURCE });
      expect((await lines(batch.body.id)).map((line) => line.amount)).toEqual(['100.00', '50.00']);
      await call('POST', `/api/payment-batches/${batch.body.id}/authorize`, admin);
      expect(await balanceOf(credit.id)).toBe('20.00');
      const refunds = (await call('GET', '/api/refunds', cartera)).body.items as { id: string; status: string; orderStatus: string }[];
      expect(refunds.find((refund) => refund.id === first)).toMatchObject({ status: 'aprobada', orderStatus: 'enviada' });
      expect(refunds.find((refund) => refund.id === second)).toMatchObject({ status: 'declinada', orderStatus: 'cancelada' });
      // What leaves the bank is what came off the balance: 150.00 − 120.00 reverted, then 100.00 sent, 20.00 left.
      const file = await call('GET', `/api/payment-batches/${batch.body.id}/file?format=csv`, tesoreria);
      const records = String(file.body).split('\r\n').filter(Boolean);
      expect(records).toHaveLength(2);
      expect(records[1]).toContain('100.00');
    });

    it('never pays more than the saldo a favor holds when the batch is authorized', async () => {
      const credit = chosen[1]!;
      await setBalance(credit.id, '500.00');
      const refund = await call('POST', '/api/refunds', cartera, { creditId: credit.id, amount: '300', clabeSource: 'expediente' });
      await call('POST', `/api/refunds/${refund.body.id}/decision`, tesoreria, { decision: 'aprobar' });
      // A payment reverted since the approval took the saldo a favor down to 100.00.
      await setBalance(credit.id, '100.00');
      await disbursementOrders(1);
      const batch = await call('POST', '/api/payment-batches', tesoreria, { sourceAccount: SOURCE });
      const authorized = await call('POST', `/api/payment-batches/${batch.body.id}/authorize`, admin);
      expect(authorized.body.status).toBe('autorizado');
      expect(await balanceOf(credit.id)).toBe('100.00');
      expect((await call('GET', '/api/refunds', cartera)).body.items[0]).toMatchObject({ status: 'declinada', orderStatus: 'cancelada' });
      const file = await call('GET', `/api/payment-batches/${batch.body.id}/file?format=csv`, tesoreria);
      expect(String(file.body).split('\r\n').filter(Boolean)).toHaveLength(2);
    });
  });
});
