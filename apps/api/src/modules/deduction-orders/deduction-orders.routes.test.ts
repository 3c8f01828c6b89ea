import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { EMPLOYER_STATEMENT_LINE_COLUMNS } from '@portal/contract';
import { until } from '../../test/until';
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { agreements } from '../../db/schema/agreements';
import { auditEvents } from '../../db/schema/audit';
import { credits } from '../../db/schema/credits';
import { clients } from '../../db/schema/origination';
import { businessDates } from '../../db/schema/portfolio';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { asSystem } from '../../db/scope';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';

type Headers = { authorization: string };

/**
 * A hand-worked portfolio on the demo's quincenal agreement (GOB-JAL, cut-off lead days 5, no holidays), at the fecha
 * flujo Monday 23 November 2026. Its paydays are the 15th and the month's last day, so the next payday whose cut-off
 * (payday − 5 days) has not passed is 30 November (cut-off 25 November); the one before it is 15 November, and the
 * one after, 15 December. Six credits, each with the installments written below (every other row of theirs is
 * emptied), and the agreement's other credits moved to another agreement:
 *
 * | credit | 15 Nov   | 30 Nov   | 15 Dec  | status    | expected on 30 Nov                          |
 * |--------|----------|----------|---------|-----------|---------------------------------------------|
 * | A      | 1,000.00 | 1,000.00 | 1,000.00| vigente   | continúa 1,000.00 → 1,000.00                |
 * | B      | 1,200.00 |   950.00 |  950.00 | vigente   | cambio 1,200.00 → 950.00, cuota recalculada |
 * | C      |   800.00 |   800.00 |  800.00 | liquidado | baja 800.00 → 0, liquidado                  |
 * | D      |    —     |   700.00 |  700.00 | vigente   | alta 0 → 700.00, crédito nuevo              |
 * | E      |   500.00 |    —     |    —    | vigente   | baja 500.00 → 0, plazo cumplido             |
 * | F      |   600.00 |   598.37 |    —    | vigente   | cambio 600.00 → 598.37, última cuota        |
 *
 * Totals: altas 1 / 700.00; bajas 2 / 1,300.00 (800 + 500, what stops); cambios 2 / 1,548.37 (950 + 598.37);
 * continúan 1 / 1,000.00; instructed 4 lines / 3,248.37 (700 + 1,548.37 + 1,000).
 */
const BUSINESS_DATE = '2026-11-23';
const PREVIOUS = '2026-11-15';
const PAYDAY = '2026-11-30';
const NEXT = '2026-12-15';
const PLAN = {
  A: { rows: ['1000.00', '1000.00', '1000.00'], status: 'vigente' },
  B: { rows: ['1200.00', '950.00', '950.00'], status: 'vigente' },
  C: { rows: ['800.00', '800.00', '800.00'], status: 'liquidado' },
  D: { rows: [null, '700.00', '700.00'], status: 'vigente' },
  E: { rows: ['500.00', null, null], status: 'vigente' },
  F: { rows: ['600.00', '598.37', null], status: 'vigente' },
} as const;
type Key = keyof typeof PLAN;
const KEYS = Object.keys(PLAN) as Key[];

const EXPECTED_LINES: Record<Key, { movement: string; amountBefore: string; amountAfter: string; reason: string | null }> = {
  A: { movement: 'continúa', amountBefore: '1000.00', amountAfter: '1000.00', reason: null },
  B: { movement: 'cambio', amountBefore: '1200.00', amountAfter: '950.00', reason: 'cuota-recalculada' },
  C: { movement: 'baja', amountBefore: '800.00', amountAfter: '0.00', reason: 'liquidado' },
  D: { movement: 'alta', amountBefore: '0.00', amountAfter: '700.00', reason: 'credito-nuevo' },
  E: { movement: 'baja', amountBefore: '500.00', amountAfter: '0.00', reason: 'plazo-cumplido' },
  F: { movement: 'cambio', amountBefore: '600.00', amountAfter: '598.37', reason: 'ultima-cuota' },
};

const folio = (number: number) => `CR-${String(number).padStart(8, '0')}`;

describe.each(BEHAVIOUR_ENGINES)('Cédulas de descuento API (%s)', (engine) => {
  let ctx: TestContext;
  let cartera: Headers;
  let agreementId: string;
  let companyId: string;
  let numbers: Record<Key, number>;
  let ids: Record<Key, string>;

  beforeAll(async () => {
    // The table below is written once, before the snapshot each test starts from (src/test/snapshot.ts): it reads only
    // the seed (credits taken by folio), so every test sees what shaping a fresh copy would give it.
    ctx = await createTestApp(engine, {
      jobs: true,
      snapshot: true,
      seed: async (db, now) => {
        await seedDemoPortfolio(db, now, 40);
        await asSystem(db, shape);
      },
    });
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** Writes the table above into the database. */
  async function shape(tx: Tx) {
    const [jal] = await tx
      .select({ id: agreements.id, companyId: agreements.companyId })
      .from(agreements)
      .where(eq(agreements.code, 'GOB-JAL'));
    agreementId = jal!.id;
    companyId = jal!.companyId;
    await tx.update(agreements).set({ cutOffLeadDays: 5, nonWorkingDays: [] }).where(eq(agreements.id, agreementId));
    // The demo seed's cédulas (one per payday its files answer, every company's) would be the baseline: the table above
    // starts before any.
    await tx.execute(sql`delete from deduction_order_lines`);
    await tx.execute(sql`delete from deduction_orders`);
    const [other] = await tx
      .select({ id: agreements.id })
      .from(agreements)
      .where(and(eq(agreements.companyId, companyId), ne(agreements.id, agreementId)));
    // The table above takes current credits owing more than a row pays, outside the seed's renewals (a renewed credit
    // is never owed again; a renewal's new credit carries its payoffs).
    const mine = await tx
      .select({ id: credits.id, number: credits.number })
      .from(credits)
      .where(
        and(
          eq(credits.agreementId, agreementId),
          eq(credits.status, 'vigente'),
          isNull(credits.renewedByCreditId),
          sql`${credits.outstandingBalance} > 5000`,
          sql`not exists (select 1 from credits renewed where renewed.renewed_by_credit_id = ${credits.id})`,
        ),
      )
      .orderBy(asc(credits.number));
    expect(mine.length).toBeGreaterThanOrEqual(KEYS.length);
    const chosen = mine.slice(0, KEYS.length);
    await tx
      .update(credits)
      .set({ agreementId: other!.id })
      .where(
        and(
          eq(credits.agreementId, agreementId),
          sql`${credits.id} not in (${sql.join(
            chosen.map((c) => sql`${c.id}`),
            sql`, `,
          )})`,
        ),
      );
    numbers = {} as Record<Key, number>;
    ids = {} as Record<Key, string>;
    for (const [index, key] of KEYS.entries()) {
      const credit = chosen[index]!;
      numbers[key] = credit.number;
      ids[key] = credit.id;
      const plan = PLAN[key];
      await tx.execute(sql`update installments set due_date = date '2020-01-01' + number, payment = 0 where credit_id = ${credit.id}`);
      const dates = [PREVIOUS, PAYDAY, NEXT];
      for (const [row, amount] of plan.rows.entries()) {
        if (amount === null) continue;
        await tx.execute(
          sql`update installments set due_date = ${dates[row]}::date, payment = ${amount} where credit_id = ${credit.id} and number = ${row + 1}`,
        );
      }
      await tx
        .update(credits)
        .set({ status: plan.status, firstDueDate: key === 'D' ? PAYDAY : '2026-06-15', lastDueDate: '2027-06-30' })
        .where(eq(credits.id, credit.id));
    }
    await tx
      .insert(businessDates)
      .values({ companyId, businessDate: BUSINESS_DATE })
      .onConflictDoUpdate({ target: businessDates.companyId, set: { businessDate: BUSINESS_DATE } });
  }

  beforeEach(async () => {
    await ctx.reset();
    cartera = await ctx.as('cartera@demo.mx');
  });

  const call = async (method: 'GET' | 'POST', url: string, payload?: object, headers: Headers = cartera) => {
    const response = await ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json() };
  };
  const generate = () => call('POST', '/api/deduction-orders', { agreementId });
  const linesOf = async (id: string) => {
    const { status, body } = await call('GET', `/api/deduction-orders/${id}/lines?pageSize=100`);
    expect(status).toBe(200);
    return body.items as { creditFolio: string; movement: string; amountBefore: string; amountAfter: string; reason: string | null }[];
  };
  const setBusinessDate = (date: string) =>
    ctx.system((tx) => tx.update(businessDates).set({ businessDate: date }).where(eq(businessDates.companyId, companyId)));
  const setInstallment = (key: Key, dueDate: string, amount: string) =>
    ctx.system((tx) =>
      tx.execute(sql`update installments set payment = ${amount} where credit_id = ${ids[key]} and due_date = ${dueDate}::date`),
    );

  it('generates the next payday before its cut-off with altas, bajas, cambios and continúan, each with its reason, and again the same draft', async () => {
    const first = await generate();
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      payday: PAYDAY,
      cutOffDate: '2026-11-25',
      businessDate: BUSINESS_DATE,
      status: 'borrador',
      altas: { count: 1, amount: '700.00' },
      bajas: { count: 2, amount: '1300.00' },
      cambios: { count: 2, amount: '1548.37' },
      continuing: { count: 1, amount: '1000.00' },
      instructedCount: 4,
      instructedAmount: '3248.37',
      generatedBy: 'cartera@demo.mx',
      issuedAt: null,
    });
    const lines = await linesOf(first.body.id);
    expect(lines).toHaveLength(6);
    const byFolio = new Map(lines.map((line) => [line.creditFolio, line]));
    for (const key of KEYS) expect(byFolio.get(folio(numbers[key])), key).toMatchObject(EXPECTED_LINES[key]);

    // The moving lines only, and one movement.
    const moving = await call('GET', `/api/deduction-orders/${first.body.id}/lines?group=movimientos`);
    expect(moving.body.total).toBe(5);
    const bajas = await call('GET', `/api/deduction-orders/${first.body.id}/lines?group=baja`);
    expect(bajas.body.items.map((line: { creditFolio: string }) => line.creditFolio).sort()).toEqual(
      [folio(numbers.C), folio(numbers.E)].sort(),
    );

    // Generating again for the same payday: the same draft, the same lines.
    const second = await generate();
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body).toMatchObject({ altas: first.body.altas, bajas: first.body.bajas, cambios: first.body.cambios });
    expect(await linesOf(second.body.id)).toEqual(lines);
    const list = await call('GET', `/api/deduction-orders?agreementId=${agreementId}`);
    expect(list.body.total).toBe(1);

    const audit = await ctx.system((tx) =>
      tx
        .select({ action: auditEvents.action })
        .from(auditEvents)
        .where(eq(auditEvents.entityId, first.body.id))
        .orderBy(asc(auditEvents.id)),
    );
    expect(audit.map((event) => event.action)).toEqual(['deduction-order.generate', 'deduction-order.regenerate']);
  });

  it('emits once, then marks it sent once; the next Generar goes to the following payday, compared with the emitted cédula', async () => {
    const draft = (await generate()).body;
    const early = await call('POST', `/api/deduction-orders/${draft.id}/send`, { sentOn: BUSINESS_DATE, channel: 'correo' });
    expect(early.status).toBe(409);

    const issued = await call('POST', `/api/deduction-orders/${draft.id}/issue`);
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ status: 'emitida', issuedBy: 'cartera@demo.mx' });
    const again = await call('POST', `/api/deduction-orders/${draft.id}/issue`);
    expect(again.status).toBe(409);
    expect(again.body.title).toBe('La cédula ya fue emitida');

    const future = await call('POST', `/api/deduction-orders/${draft.id}/send`, { sentOn: '2026-11-24', channel: 'correo' });
    expect(future.status).toBe(400);
    const sent = await call('POST', `/api/deduction-orders/${draft.id}/send`, {
      sentOn: BUSINESS_DATE,
      channel: 'portal del patrón',
      note: 'Cargada por RH',
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      status: 'enviada',
      sentOn: BUSINESS_DATE,
      sentChannel: 'portal del patrón',
      sentNote: 'Cargada por RH',
    });
    expect((await call('POST', `/api/deduction-orders/${draft.id}/send`, { sentOn: BUSINESS_DATE, channel: 'correo' })).status).toBe(409);

    // 30 November is instructed: Generar now works on 15 December, from what the employer was told for the 30th.
    const options = await call('GET', '/api/deduction-orders/options');
    const option = options.body.find((entry: { agreementId: string }) => entry.agreementId === agreementId);
    expect(option).toMatchObject({ nextPayday: NEXT, cutOffDate: '2026-12-10', frozenPaydays: [PAYDAY] });
    const next = await generate();
    expect(next.body).toMatchObject({ payday: NEXT, status: 'borrador' });
    // 15 Dec: A 1,000 continúa; B 950 continúa (the 30th's cédula already said 950); D 700 continúa; F baja (its last
    // installment was the 30th), plazo cumplido. C and E were bajas on the 30th: not in the employer's list any more.
    const byFolio = new Map((await linesOf(next.body.id)).map((line) => [line.creditFolio, line]));
    expect(byFolio.size).toBe(4);
    expect(byFolio.get(folio(numbers.A))).toMatchObject({ movement: 'continúa', amountBefore: '1000.00', amountAfter: '1000.00' });
    expect(byFolio.get(folio(numbers.B))).toMatchObject({ movement: 'continúa', amountBefore: '950.00', amountAfter: '950.00' });
    expect(byFolio.get(folio(numbers.D))).toMatchObject({ movement: 'continúa', amountBefore: '700.00', amountAfter: '700.00' });
    expect(byFolio.get(folio(numbers.F))).toMatchObject({
      movement: 'baja',
      amountBefore: '598.37',
      amountAfter: '0.00',
      reason: 'plazo-cumplido',
    });
  });

  it('substitutes an emitted cédula when the portfolio changed, listing the difference; refuses when nothing changed', async () => {
    const draft = (await generate()).body;
    await call('POST', `/api/deduction-orders/${draft.id}/issue`);
    const unchanged = await call('POST', `/api/deduction-orders/${draft.id}/substitute`);
    expect(unchanged.status).toBe(409);
    expect(unchanged.body.title).toBe('Sin cambios que sustituir');
    expect((await call('GET', `/api/deduction-orders/${draft.id}`)).body.status).toBe('emitida');

    // A prepayment lowered A's installment to 900.00 after the emission.
    await setInstallment('A', PAYDAY, '900.00');
    const substitute = await call('POST', `/api/deduction-orders/${draft.id}/substitute`);
    expect(substitute.status).toBe(201);
    expect(substitute.body).toMatchObject({
      payday: PAYDAY,
      status: 'emitida',
      supersedesId: draft.id,
      cambios: { count: 3, amount: '2448.37' },
      continuing: { count: 0, amount: '0.00' },
      instructedAmount: '3148.37',
    });
    const old = await call('GET', `/api/deduction-orders/${draft.id}`);
    expect(old.body).toMatchObject({ status: 'sustituida', supersededById: substitute.body.id });
    const differences = await call('GET', `/api/deduction-orders/${substitute.body.id}/differences`);
    expect(differences.body.items).toEqual([
      expect.objectContaining({
        creditFolio: folio(numbers.A),
        before: { movement: 'continúa', amount: '1000.00' },
        after: { movement: 'cambio', amount: '900.00' },
      }),
    ]);
    // A sustituida one is not substituted again; the standing one is.
    expect((await call('POST', `/api/deduction-orders/${draft.id}/substitute`)).status).toBe(409);
  });

  it('refuses to emit or substitute after the cut-off: the change goes to the next payday', async () => {
    const draft = (await generate()).body;
    await call('POST', `/api/deduction-orders/${draft.id}/issue`);
    await setInstallment('A', PAYDAY, '900.00');
    // 26 November: past the 30th's cut-off (the 25th).
    await setBusinessDate('2026-11-26');
    const late = await call('POST', `/api/deduction-orders/${draft.id}/substitute`);
    expect(late.status).toBe(409);
    expect(late.body.title).toBe('Corte de nómina vencido');
    expect(late.body.detail).toContain('15 de diciembre de 2026');

    // A draft of the 15th made on the 26th cannot be emitted on a later fecha flujo: generate it again first.
    const next = (await generate()).body;
    expect(next.payday).toBe(NEXT);
    await setBusinessDate('2026-11-27');
    const stale = await call('POST', `/api/deduction-orders/${next.id}/issue`);
    expect(stale.status).toBe(409);
    expect(stale.body.title).toBe('Borrador desactualizado');
    // Past the 15th's cut-off (10 December) Generar goes to 31 December.
    await setBusinessDate('2026-12-11');
    expect((await generate()).body.payday).toBe('2026-12-31');
  });

  it('keeps each company to its own cédulas', async () => {
    const draft = (await generate()).body;
    // The other company's operation, granted the screen and the action: still none of this company's cédulas.
    await ctx.system((tx) =>
      tx.execute(
        sql`update profiles set permissions = permissions || '{/wallet/deduction-orders,/actions/wallet/issue-deduction-order}'::text[] where name = 'Operación'`,
      ),
    );
    const plus = await ctx.as('plus@demo.mx');
    expect((await call('GET', `/api/deduction-orders/${draft.id}`, undefined, plus)).status).toBe(404);
    expect((await call('GET', `/api/deduction-orders/${draft.id}/lines`, undefined, plus)).status).toBe(404);
    expect((await call('POST', `/api/deduction-orders/${draft.id}/issue`, undefined, plus)).status).toBe(404);
    expect((await call('POST', '/api/deduction-orders', { agreementId }, plus)).status).toBe(404);
    expect((await call('GET', '/api/deduction-orders', undefined, plus)).body.total).toBe(0);
    const stored = await ctx.system((tx) =>
      tx.execute(sql`select count(*)::int as n from deduction_order_lines where order_id = ${draft.id} and company_id = ${companyId}`),
    );
    expect((stored as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(6);
  });

  /** The payday's deductions as the portfolio's close expects them: each installment of the six credits, on its date. */
  const expectInstallments = () =>
    ctx.system((tx) =>
      tx.execute(sql`
        update expected_deductions e set discount_date = i.due_date, amount = i.payment, state = 'esperado'
        from installments i where i.credit_id = e.credit_id and i.number = e.period
          and e.credit_id in (select id from credits where agreement_id = ${agreementId})`),
    );
  const BOUNDARY = '----cedula-test';
  const uploadCsv = async (rows: string[][], name: string, discountDate = PAYDAY) => {
    const content = ['empleado,curp,importe,periodo,referencia', ...rows.map((row) => row.join(','))].join('\r\n');
    const payload = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="agreementId"\r\n\r\n${agreementId}\r\n`),
      Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="discountDate"\r\n\r\n${discountDate}\r\n`),
      Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\ncontent-type: text/csv\r\n\r\n`),
      Buffer.from(content),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/payment-files',
      headers: { ...cartera, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload,
    });
    return { status: response.statusCode, body: response.json() };
  };
  const employeesOf = () =>
    ctx.system((tx) =>
      tx
        .select({ id: credits.id, employeeNumber: credits.employeeNumber, curp: clients.curp })
        .from(credits)
        .innerJoin(clients, eq(clients.id, credits.clientId))
        .where(eq(credits.agreementId, agreementId)),
    );
  type FileRowSeen = {
    line: number;
    outcome: string;
    message: string | null;
    creditFolio: string | null;
    instructedAmount: string | null;
    amountDiffers: boolean;
  };
  const fileRowsOf = async (fileId: string) =>
    (await call('GET', `/api/payment-files/${fileId}/rows?pageSize=100`)).body.items as FileRowSeen[];

  it('matches a payment file against the payday emitted cédula: a credit in baja is refused with its reason, another amount is noted', async () => {
    const draft = (await generate()).body;
    await call('POST', `/api/deduction-orders/${draft.id}/issue`);
    await expectInstallments();
    await setBusinessDate(PAYDAY);
    const employees = await employeesOf();
    const row = (key: Key, amount: string, reference: string) => {
      const employee = employees.find((entry) => entry.id === ids[key])!;
      return [employee.employeeNumber, employee.curp, amount, '1', reference];
    };
    // The employer's answer to the 30th's cédula (table at the top): A as instructed, B short, 900.00 instead of
    // 950.00, C and E (bajas) still deducted, F as instructed, D (the alta) missing.
    const uploaded = await uploadCsv(
      [row('A', '1000.00', 'R1'), row('B', '900.00', 'R2'), row('C', '800.00', 'R3'), row('E', '500.00', 'R4'), row('F', '598.37', 'R5')],
      'respuesta-30.csv',
    );
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ rowsTotal: 5, rowsValid: 3, rowsRejected: 2 });
    const byLine = new Map((await fileRowsOf(uploaded.body.id)).map((seen) => [seen.line, seen]));
    expect(byLine.get(2)).toMatchObject({ outcome: 'válido', instructedAmount: '1000.00', amountDiffers: false, message: null });
    // Accepted, not refused (the shaped schedule, its other rows emptied, may leave B less to owe than it pays: then the
    // row pays it off, a sobrepago); the difference is a warning.
    expect(byLine.get(3)).toMatchObject({ instructedAmount: '950.00', amountDiffers: true });
    expect(['válido', 'sobrepago']).toContain(byLine.get(3)!.outcome);
    expect(byLine.get(3)!.message).toContain('Importe distinto del instruido en la cédula del 30 de noviembre de 2026 ($950.00).');
    expect(byLine.get(4)).toMatchObject({
      outcome: 'crédito en baja',
      creditFolio: folio(numbers.C),
      message: `El crédito ${folio(numbers.C)} está en baja en la cédula del 30 de noviembre de 2026 (Crédito liquidado): el patrón no debía descontarlo.`,
    });
    expect(byLine.get(5)).toMatchObject({
      outcome: 'crédito en baja',
      creditFolio: folio(numbers.E),
      message: `El crédito ${folio(numbers.E)} está en baja en la cédula del 30 de noviembre de 2026 (El crédito ya no tiene cuotas por descontar): el patrón no debía descontarlo.`,
    });
    expect(byLine.get(6)).toMatchObject({ outcome: 'válido', instructedAmount: '598.37', amountDiffers: false });
  });

  it('states per payday what the cédula instructed, what the applied files received and what is missing, with the lines behind each figure', async () => {
    const draft = (await generate()).body;
    await call('POST', `/api/deduction-orders/${draft.id}/issue`);
    await expectInstallments();
    await setBusinessDate(PAYDAY);
    const employees = await employeesOf();
    const row = (key: Key, amount: string, reference: string) => {
      const employee = employees.find((entry) => entry.id === ids[key])!;
      return [employee.employeeNumber, employee.curp, amount, '1', reference];
    };
    // The employer's answer: A and F as instructed, B short (900.00 of 950.00), C still deducted (refused: baja), and D,
    // the alta of 700.00, missing.
    const uploaded = await uploadCsv(
      [row('A', '1000.00', 'R1'), row('B', '900.00', 'R2'), row('C', '800.00', 'R3'), row('F', '598.37', 'R5')],
      'respuesta-30.csv',
    );
    expect(uploaded.status).toBe(201);
    // Before the file is applied nothing was received: all four instructed lines are missing.
    const before = await call('GET', `/api/employer-statement?month=2026-11&agreementId=${agreementId}`);
    expect(before.status).toBe(200);
    expect(before.body.paydays).toEqual([
      expect.objectContaining({
        payday: PAYDAY,
        orderId: draft.id,
        instructed: { count: 4, amount: '3248.37' },
        received: { count: 0, amount: '0.00' },
        missing: { count: 4, amount: '3248.37' },
      }),
    ]);
    const started = await call('POST', `/api/payment-files/${uploaded.body.id}/apply`);
    expect(started.status).toBe(202);
    await until(async () => (await call('GET', `/api/payment-files/${uploaded.body.id}`)).body.status === 'aplicado');
    await setBusinessDate('2026-12-03');

    // Hand-worked: instructed A 1,000 + B 950 + D 700 + F 598.37 = 3,248.37 (4); received A 1,000 + B 900 + F 598.37 =
    // 2,498.37 (3); missing D 700.00 (1).
    const statement = await call('GET', '/api/employer-statement?month=2026-11');
    expect(statement.status).toBe(200);
    const mine = statement.body.paydays.filter((entry: { agreementId: string }) => entry.agreementId === agreementId);
    expect(mine).toEqual([
      {
        agreementId,
        agreement: expect.any(String),
        payday: PAYDAY,
        orderId: draft.id,
        orderStatus: 'emitida',
        instructed: { count: 4, amount: '3248.37' },
        received: { count: 3, amount: '2498.37' },
        missing: { count: 1, amount: '700.00' },
      },
    ]);
    const onlyMine = await call('GET', `/api/employer-statement?month=2026-11&agreementId=${agreementId}`);
    expect(onlyMine.body.totals).toEqual({
      instructed: { count: 4, amount: '3248.37' },
      received: { count: 3, amount: '2498.37' },
      missing: { count: 1, amount: '700.00' },
    });
    expect((await call('GET', `/api/employer-statement?month=2026-12&agreementId=${agreementId}`)).body.paydays).toEqual([]);

    const linesOfGroup = async (group: string) =>
      (await call('GET', `/api/employer-statement/lines?agreementId=${agreementId}&payday=${PAYDAY}&group=${group}&pageSize=100`)).body;
    const missing = await linesOfGroup('faltantes');
    expect(missing).toMatchObject({ total: 1, totalCapped: false });
    expect(missing.items).toEqual([
      expect.objectContaining({
        creditId: ids.D,
        creditFolio: folio(numbers.D),
        payday: PAYDAY,
        instructedAmount: '700.00',
        receivedAmount: null,
        daysSince: 3,
      }),
    ]);
    const received = await linesOfGroup('recibidos');
    expect(
      Object.fromEntries(
        received.items.map((line: { creditId: string; instructedAmount: string; receivedAmount: string }) => [
          line.creditId,
          [line.instructedAmount, line.receivedAmount],
        ]),
      ),
    ).toEqual({ [ids.A]: ['1000.00', '1000.00'], [ids.B]: ['950.00', '900.00'], [ids.F]: ['598.37', '598.37'] });
    expect((await linesOfGroup('instruidos')).total).toBe(4);

    // The follow-up list as a workbook with the declared columns.
    const exported = await ctx.app.inject({
      method: 'GET',
      url: `/api/employer-statement/missing.xlsx?agreementId=${agreementId}&payday=${PAYDAY}`,
      headers: cartera,
    });
    expect(exported.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Faltantes')!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(EMPLOYER_STATEMENT_LINE_COLUMNS.map((column) => column.label));
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).getCell(1).value).toBe(folio(numbers.D));
    expect(sheet.getRow(2).getCell(5).value).toBe(700);

    // Another company's user, granted the screen, sees none of it.
    await ctx.system((tx) =>
      tx.execute(sql`update profiles set permissions = permissions || '{/wallet/employer-statement}'::text[] where name = 'Operación'`),
    );
    const plus = await ctx.as('plus@demo.mx');
    const theirs = await call('GET', `/api/employer-statement?month=2026-11&agreementId=${agreementId}`, undefined, plus);
    expect(theirs.body.paydays).toEqual([]);
    expect((await call('GET', `/api/employer-statement/lines?agreementId=${agreementId}&payday=${PAYDAY}`, undefined, plus)).status).toBe(
      404,
    );
    expect((await call('GET', '/api/employer-statement?month=2026-13', undefined, cartera)).status).toBe(400);
  });

  it('matches nothing against a cédula that was never emitted: a draft instructs nothing', async () => {
    await generate();
    await expectInstallments();
    await setBusinessDate(PAYDAY);
    const employees = await employeesOf();
    const e = employees.find((entry) => entry.id === ids.E)!;
    const uploaded = await uploadCsv([[e.employeeNumber, e.curp, '500.00', '1', 'R1']], 'sin-cedula.csv');
    expect(uploaded.status).toBe(201);
    const [seen] = await fileRowsOf(uploaded.body.id);
    expect(seen).toMatchObject({ outcome: 'válido', instructedAmount: null, amountDiffers: false });
  });

  /**
   * Renewals (issue 48): C and E renewed into D, one employee's three credits (D takes C's employee number and client).
   * C stays vigente, money en tránsito; C and E are no longer owed, so each is a baja (renovación), D the alta.
   *
   * | setting | C                       | D                                        | E                      |
   * |---------|-------------------------|------------------------------------------|------------------------|
   * | off     | baja 800.00, renovación | alta 0 → 700.00, crédito nuevo           | baja 500.00, renovación |
   * | on      | (no line)               | cambio 800.00 → 700.00, replaces C       | baja 500.00, renovación |
   *
   * On: the lowest folio of the renewed ones (C) is replaced. Totals on: altas 0 / 0.00; bajas 1 / 500.00 (E);
   * cambios 3 / 2,248.37 (B 950 + F 598.37 + D 700); continúan 1 / 1,000.00; instructed 4 / 3,248.37, as off.
   */
  const renew = () =>
    ctx.system(async (tx) => {
      const [c] = await tx.select().from(credits).where(eq(credits.id, ids.C));
      await tx
        .update(credits)
        .set({ status: 'vigente', liquidationReason: 'renovacion', renewedByCreditId: ids.D })
        .where(sql`${credits.id} in (${ids.C}, ${ids.E})`);
      await tx
        .update(credits)
        .set({ employeeNumber: c!.employeeNumber, clientId: c!.clientId })
        .where(sql`${credits.id} in (${ids.D}, ${ids.E})`);
      return c!;
    });
  const setRenewalAsChange = (on: boolean) =>
    ctx.system((tx) => tx.update(agreements).set({ renewalAsChange: on }).where(eq(agreements.id, agreementId)));

  it("writes a renewal as the renewed credit's baja and the new credit's alta, or with the agreement's setting as one cambio of that employee", async () => {
    const c = await renew();
    const off = (await generate()).body;
    expect(off).toMatchObject({
      altas: { count: 1, amount: '700.00' },
      bajas: { count: 2, amount: '1300.00' },
      cambios: { count: 2, amount: '1548.37' },
      continuing: { count: 1, amount: '1000.00' },
      instructedCount: 4,
      instructedAmount: '3248.37',
    });
    const offLines = new Map((await linesOf(off.id)).map((line) => [line.creditFolio, line]));
    expect(offLines.size).toBe(6);
    expect(offLines.get(folio(numbers.C))).toMatchObject({
      movement: 'baja',
      amountBefore: '800.00',
      amountAfter: '0.00',
      reason: 'renovacion',
    });
    expect(offLines.get(folio(numbers.D))).toMatchObject({
      movement: 'alta',
      amountBefore: '0.00',
      amountAfter: '700.00',
      reason: 'credito-nuevo',
      replacesCreditFolio: null,
    });
    expect(offLines.get(folio(numbers.E))).toMatchObject({ movement: 'baja', amountBefore: '500.00', reason: 'renovacion' });

    // The setting on: Generar again recomputes the same draft with one line for the employee's renewal.
    await setRenewalAsChange(true);
    const on = (await generate()).body;
    expect(on.id).toBe(off.id);
    expect(on).toMatchObject({
      altas: { count: 0, amount: '0.00' },
      bajas: { count: 1, amount: '500.00' },
      cambios: { count: 3, amount: '2248.37' },
      continuing: { count: 1, amount: '1000.00' },
      instructedCount: 4,
      instructedAmount: '3248.37',
    });
    const onLines = await linesOf(on.id);
    expect(onLines).toHaveLength(5);
    // Numbered without a gap, by employee number then folio.
    expect(onLines.map((line) => (line as unknown as { line: number }).line)).toEqual([1, 2, 3, 4, 5]);
    const byFolio = new Map(onLines.map((line) => [line.creditFolio, line]));
    expect(byFolio.has(folio(numbers.C))).toBe(false);
    expect(byFolio.get(folio(numbers.D))).toMatchObject({
      movement: 'cambio',
      amountBefore: '800.00',
      amountAfter: '700.00',
      reason: 'renovacion-cambio',
      replacesCreditFolio: folio(numbers.C),
    });
    expect(byFolio.get(folio(numbers.E))).toMatchObject({
      movement: 'baja',
      amountBefore: '500.00',
      amountAfter: '0.00',
      reason: 'renovacion',
    });
    for (const key of ['A', 'B', 'F'] as const) expect(byFolio.get(folio(numbers[key])), key).toMatchObject(EXPECTED_LINES[key]);
    const audit = await ctx.system((tx) =>
      tx.select({ after: auditEvents.after }).from(auditEvents).where(eq(auditEvents.entityId, on.id)).orderBy(asc(auditEvents.id)),
    );
    expect(audit.map((event) => (event.after as { renewalAsChange: boolean }).renewalAsChange)).toEqual([false, true]);

    // The download writes C for it, with the new credit's folio and amount; the renewed credit is not in the file.
    await ctx.system((tx) =>
      tx
        .update(agreements)
        .set({ layout: { format: 'csv', delimiter: ',', hasHeader: false, columns: { creditId: 1, amount: 2, movement: 3 } } })
        .where(eq(agreements.id, agreementId)),
    );
    const file = await ctx.app.inject({ method: 'GET', url: `/api/deduction-orders/${on.id}/file`, headers: cartera });
    expect(file.statusCode).toBe(200);
    const rows = file.body.trimEnd().split('\r\n');
    expect(rows).toHaveLength(5);
    expect(rows).toContain(`${folio(numbers.D)},700.00,C`);
    expect(rows).toContain(`${folio(numbers.E)},0.00,B`);
    expect(rows.some((row) => row.startsWith(folio(numbers.C)))).toBe(false);

    // Emitted, the employer's file is matched against it: the employee's row without folio pays the new credit (not
    // the renewed one, still vigente and the employee's oldest), as instructed; a row naming the renewed credit is refused.
    await call('POST', `/api/deduction-orders/${on.id}/issue`);
    await expectInstallments();
    await setBusinessDate(PAYDAY);
    // The seed's layout with the folio read from a sixth column.
    await ctx.system((tx) =>
      tx
        .update(agreements)
        .set({
          layout: {
            format: 'csv',
            delimiter: ',',
            hasHeader: true,
            columns: { employeeNumber: 1, curpRfc: 2, amount: 3, period: 4, reference: 5, creditId: 6 },
          },
        })
        .where(eq(agreements.id, agreementId)),
    );
    const uploaded = await uploadCsv(
      [
        [c.employeeNumber, '', '700.00', '1', 'R1', ''],
        ['', '', '800.00', '1', 'R2', folio(numbers.C)],
      ],
      'respuesta-renovacion.csv',
    );
    expect(uploaded.status).toBe(201);
    const seen = new Map((await fileRowsOf(uploaded.body.id)).map((row) => [row.line, row]));
    expect(seen.get(2)).toMatchObject({ creditFolio: folio(numbers.D), instructedAmount: '700.00', amountDiffers: false });
    expect(['válido', 'sobrepago']).toContain(seen.get(2)!.outcome);
    expect(seen.get(3)).toMatchObject({
      outcome: 'crédito en baja',
      creditFolio: folio(numbers.C),
      message: `El crédito ${folio(numbers.C)} fue renovado: la cédula del 30 de noviembre de 2026 lo cambia por el ${folio(numbers.D)}, y el patrón no debía descontarlo.`,
    });

    // The employer statement instructs what the cédula does: the new credit's 700.00 among the four lines.
    const statement = await call('GET', `/api/employer-statement?month=2026-11&agreementId=${agreementId}`);
    expect(statement.body.paydays).toEqual([
      expect.objectContaining({ payday: PAYDAY, orderId: on.id, instructed: { count: 4, amount: '3248.37' } }),
    ]);
    const instructed = (
      await call('GET', `/api/employer-statement/lines?agreementId=${agreementId}&payday=${PAYDAY}&group=instruidos&pageSize=100`)
    ).body.items as { creditId: string; instructedAmount: string }[];
    expect(Object.fromEntries(instructed.map((line) => [line.creditId, line.instructedAmount]))).toEqual({
      [ids.A]: '1000.00',
      [ids.B]: '950.00',
      [ids.D]: '700.00',
      [ids.F]: '598.37',
    });

    // The next payday compares with this one: D continues at 700.00, C and E are in no line.
    const next = (await generate()).body;
    expect(next.payday).toBe(NEXT);
    const nextLines = new Map((await linesOf(next.id)).map((line) => [line.creditFolio, line]));
    expect(nextLines.get(folio(numbers.D))).toMatchObject({ movement: 'continúa', amountBefore: '700.00', amountAfter: '700.00' });
    expect(nextLines.has(folio(numbers.C)) || nextLines.has(folio(numbers.E))).toBe(false);
  });

  it('downloads the cédula in the agreement own layout, csv or fixed width, with each line movement code', async () => {
    const draft = (await generate()).body;
    const employees = await ctx.system((tx) =>
      tx
        .select({ id: credits.id, employeeNumber: credits.employeeNumber, curp: clients.curp })
        .from(credits)
        .innerJoin(clients, eq(clients.id, credits.clientId))
        .where(eq(credits.agreementId, agreementId)),
    );
    const of = (key: Key) => employees.find((row) => row.id === ids[key])!;
    // Amounts the employer deducts on the 30th (0 for a baja) and the codes A, B, C, N, from the table at the top.
    const CODES: Record<Key, [string, string]> = {
      A: ['1000.00', 'N'],
      B: ['950.00', 'C'],
      C: ['0.00', 'B'],
      D: ['700.00', 'A'],
      E: ['0.00', 'B'],
      F: ['598.37', 'C'],
    };
    const order = [...KEYS].sort((left, right) =>
      of(left).employeeNumber === of(right).employeeNumber
        ? numbers[left] - numbers[right]
        : of(left).employeeNumber < of(right).employeeNumber
          ? -1
          : 1,
    );
    const setLayout = (layout: object) => ctx.system((tx) => tx.update(agreements).set({ layout }).where(eq(agreements.id, agreementId)));

    // csv with a header and no movement column: the code goes after the last column.
    await setLayout({
      format: 'csv',
      delimiter: ',',
      hasHeader: true,
      amountInCents: false,
      columns: { employeeNumber: 1, curpRfc: 2, amount: 4 },
    });
    const csv = await ctx.app.inject({ method: 'GET', url: `/api/deduction-orders/${draft.id}/file`, headers: cartera });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain('cedula-GOB-JAL-2026-11-30-borrador.csv');
    expect(csv.body).toBe(
      [
        'empleado,curp,,importe,movimiento',
        ...order.map((key) => `${of(key).employeeNumber},${of(key).curp},,${CODES[key][0]},${CODES[key][1]}`),
      ]
        .map((line) => `${line}\r\n`)
        .join(''),
    );

    // Fixed width, amounts in centavos right-aligned with zeros, the movement where the layout puts it.
    await setLayout({
      format: 'fixed',
      amountInCents: true,
      positions: { creditId: { start: 1, length: 11 }, amount: { start: 12, length: 8 }, movement: { start: 20, length: 1 } },
    });
    const fixed = await ctx.app.inject({ method: 'GET', url: `/api/deduction-orders/${draft.id}/file`, headers: cartera });
    expect(fixed.statusCode).toBe(200);
    const cents = (amount: string) => amount.replace('.', '').padStart(8, '0');
    expect(fixed.body).toBe(order.map((key) => `${folio(numbers[key])}${cents(CODES[key][0])}${CODES[key][1]}\r\n`).join(''));

    // A folio field narrower than the folio (the federal agreement's 10 positions for "CR-00000123"): the folio's number,
    // zero-padded, as its payment files carry it — cut to "CR-0000012" it would name another credit.
    await setLayout({
      format: 'fixed',
      amountInCents: true,
      positions: { creditId: { start: 1, length: 10 }, amount: { start: 11, length: 8 } },
    });
    const narrow = await ctx.app.inject({ method: 'GET', url: `/api/deduction-orders/${draft.id}/file`, headers: cartera });
    expect(narrow.statusCode).toBe(200);
    expect(narrow.body).toBe(
      order.map((key) => `${String(numbers[key]).padStart(10, '0')}${cents(CODES[key][0])}${CODES[key][1]}\r\n`).join(''),
    );
  });
});
