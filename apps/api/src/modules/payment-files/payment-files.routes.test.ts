import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import ExcelJS from 'exceljs';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { addDays } from '@portal/lending';
import { PAYMENT_FILE_RESULT_COLUMNS, type PaymentFile } from '@portal/contract';
import { agreements } from '../../db/schema/agreements';
import { credits, expectedDeductions, installments } from '../../db/schema/credits';
import { clients } from '../../db/schema/origination';
import { paymentApplications, paymentFiles, payments } from '../../db/schema/payments';
import type { Tx } from '../../db/client';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { creditFolio } from '../shared/folios';
import { pesos } from '../shared/es-mx';
import { lockCompanyPortfolio } from '../portfolio/portfolio-lock';
import { until } from '../../test/until';
import { applyJob } from './payment-files.service';

type Headers = { authorization: string };
const TODAY = '2026-11-23';
const BOUNDARY = '----payment-file-test';

/** A multipart body as the browser's FormData sends it: the fields first, then the file. */
function form(
  fields: Record<string, string>,
  file: { name: string; content: Buffer | string },
): { payload: Buffer; headers: Record<string, string> } {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(
    Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="${file.name}"\r\ncontent-type: text/csv\r\n\r\n`),
  );
  parts.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content));
  parts.push(Buffer.from(`\r\n--${BOUNDARY}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}

interface DemoCredit {
  id: string;
  number: number;
  employeeNumber: string;
  curp: string;
  installment: string;
  status: string;
  outstandingBalance: string;
}

/** The state a payment changes: every schedule row, the credit's columns and its deductions, in a stable order. */
async function snapshot(tx: Tx, ids: string[]) {
  const schedule = await tx
    .select()
    .from(installments)
    .where(inArray(installments.creditId, ids))
    .orderBy(asc(installments.creditId), asc(installments.number));
  const creditRows = await tx.select().from(credits).where(inArray(credits.id, ids)).orderBy(asc(credits.id));
  const deductions = await tx
    .select()
    .from(expectedDeductions)
    .where(inArray(expectedDeductions.creditId, ids))
    .orderBy(asc(expectedDeductions.creditId), asc(expectedDeductions.period));
  return { schedule, creditRows, deductions };
}

const cents = (value: string) => Math.round(Number(value) * 100);

describe.each(BEHAVIOUR_ENGINES)('Payment files API (%s)', (engine) => {
  let ctx: TestContext;
  let cartera: Headers;
  let jalisco: { id: string };
  let demo: DemoCredit[];
  let discountDate: string;

  beforeAll(async () => {
    ctx = await createTestApp(engine, {
      jobs: true,
      snapshot: true,
      seed: async (db, now) => seedDemoPortfolio(db, now, 40, { renewals: false }),
    });
  });
  afterAll(async () => {
    await ctx.close();
  });
  beforeEach(async () => {
    await ctx.reset();
    cartera = await ctx.as('cartera@demo.mx');
    [jalisco] = (await ctx.system((tx) => tx.select({ id: agreements.id }).from(agreements).where(eq(agreements.code, 'GOB-JAL')))) as [
      { id: string },
    ];
    demo = await ctx.system((tx) =>
      tx
        .select({
          id: credits.id,
          number: credits.number,
          employeeNumber: credits.employeeNumber,
          curp: clients.curp,
          installment: credits.installment,
          status: credits.status,
          outstandingBalance: credits.outstandingBalance,
        })
        .from(credits)
        .innerJoin(clients, eq(clients.id, credits.clientId))
        .where(eq(credits.agreementId, jalisco.id))
        .orderBy(asc(credits.number)),
    );
    // The latest Jalisco payday before the business date (quincenal: the 15th or the month's last day).
    discountDate = '2026-11-15';
  });

  const upload = async (
    content: string | Buffer,
    name = 'nomina.csv',
    fields: Record<string, string> = { agreementId: jalisco.id, discountDate },
    headers: Headers = cartera,
  ) => {
    const body = form(fields, { name, content });
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/payment-files',
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    return { status: response.statusCode, body: response.json() };
  };
  const csv = (rows: string[][]) => ['empleado,curp,importe,periodo,referencia', ...rows.map((row) => row.join(','))].join('\r\n');
  const rowsOf = async (fileId: string, group = 'todos') =>
    (await ctx.app.inject({ method: 'GET', url: `/api/payment-files/${fileId}/rows?group=${group}&pageSize=100`, headers: cartera })).json()
      .items as {
      line: number;
      outcome: string;
      message: string | null;
      creditFolio: string | null;
      split: Record<string, string> | null;
      paymentStatus: string | null;
    }[];
  const applyAndWait = async (fileId: string, headers: Headers = cartera): Promise<PaymentFile> => {
    const started = await ctx.app.inject({ method: 'POST', url: `/api/payment-files/${fileId}/apply`, headers });
    expect(started.statusCode).toBe(202);
    let file = started.json() as PaymentFile;
    await until(async () => {
      if (file.applyState !== 'en espera' && file.applyState !== 'en curso') return true;
      file = (await ctx.app.inject({ method: 'GET', url: `/api/payment-files/${fileId}`, headers })).json();
      return false;
    });
    return file;
  };

  it('previews every row with its outcome and the expected-versus-received totals, and keeps every row', async () => {
    const open = demo.filter((credit) => credit.status !== 'liquidado');
    const [a, b, c] = open;
    const file = csv([
      [a!.employeeNumber, a!.curp, a!.installment, '22', 'R1'],
      [b!.employeeNumber, b!.curp, '9999999.00', '22', 'R2'],
      ['NO-EXISTE', '', '100.00', '22', 'R3'],
      [a!.employeeNumber, a!.curp, '100.00', '22', 'R4'],
      [c!.employeeNumber, c!.curp, 'abc', '22', 'R5'],
      [c!.employeeNumber, 'XAXX010101000', '100.00', '22', 'R6'],
    ]);
    const uploaded = await upload(file);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ status: 'validado', rowsTotal: 6, rowsValid: 2, rowsRejected: 4, encoding: 'utf-8' });
    expect(cents(uploaded.body.amountTotal)).toBe(cents(a!.installment) + cents('9999999.00') + cents('100.00') * 3);
    const rows = await rowsOf(uploaded.body.id);
    expect(rows.map((row) => [row.line, row.outcome])).toEqual([
      [2, 'válido'],
      [3, 'sobrepago'],
      [4, 'crédito no encontrado'],
      [5, 'duplicado en archivo'],
      [6, 'monto inválido'],
      [7, 'dato no válido'],
    ]);
    expect(rows[3]!.message).toContain('línea 2');
    expect(rows[5]!.message).toContain('XAXX010101000');
    // The agreement's deductions on that date: what was expected, and how many the file does not bring.
    const expected = await ctx.system((tx) =>
      tx.execute(sql`select count(*)::int as n from expected_deductions e join credits c on c.id = e.credit_id
        where c.agreement_id = ${jalisco.id} and e.discount_date = ${discountDate} and (c.status <> 'liquidado' or e.state = 'recibido')`),
    );
    const expectedCount = (expected as unknown as { rows: { n: number }[] }).rows[0]!.n;
    expect(uploaded.body.expectedCount).toBe(expectedCount);
    // Missing: those not received (the seed's applied file of the date received most) and not paid by this file.
    const unreceived = await ctx.system((tx) =>
      tx.execute(sql`select count(*)::int as n from expected_deductions e join credits c on c.id = e.credit_id
        where c.agreement_id = ${jalisco.id} and e.discount_date = ${discountDate} and e.state <> 'recibido' and c.status <> 'liquidado'
          and e.credit_id not in (${a!.id}, ${b!.id})`),
    );
    expect(uploaded.body.missingCount).toBe((unreceived as unknown as { rows: { n: number }[] }).rows[0]!.n);
    expect(uploaded.body.missingCount).toBeLessThan(expectedCount);
    const missing = (
      await ctx.app.inject({ method: 'GET', url: `/api/payment-files/${uploaded.body.id}/missing?pageSize=100`, headers: cartera })
    ).json();
    expect(missing.total).toBe(uploaded.body.missingCount);
    expect(missing.items.map((m: { creditId: string }) => m.creditId)).not.toContain(a!.id);
    // The result workbook: every original row with its outcome.
    const result = await ctx.app.inject({ method: 'GET', url: `/api/payment-files/${uploaded.body.id}/result.xlsx`, headers: cartera });
    expect(result.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(result.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Resultado')!;
    expect(sheet.rowCount).toBe(7);
    // Its headers are the declared columns' labels (packages/contract columns.ts), in their order.
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(PAYMENT_FILE_RESULT_COLUMNS.map((column) => column.label));
    expect(sheet.getRow(6).getCell(9).value).toBe('monto inválido');
    expect(sheet.getRow(2).getCell(2).value).toBe(`${a!.employeeNumber},${a!.curp},${a!.installment},22,R1`);
    // Amounts are numbers under the pesos format; the header stays in view and filters.
    expect(sheet.getRow(2).getCell(6)).toMatchObject({ value: Number(a!.installment), numFmt: '"$"#,##0.00' });
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBeTruthy();
  });

  it("sums up a file's rows as counted by hand, at the upload and again from its rows when it is applied", async () => {
    // Two credits no applied file of the date paid (b, e: primera.csv below pays e), three the seed's files paid.
    const paid = await ctx.system((tx) =>
      tx.execute(sql`select r.credit_id from payment_file_rows r join payment_files f on f.id = r.file_id
        where f.status = 'aplicado' and f.discount_date = ${discountDate} and r.outcome in ('válido', 'sobrepago')`),
    );
    const paidIds = new Set((paid as unknown as { rows: { credit_id: string }[] }).rows.map((row) => row.credit_id));
    const open = demo.filter((credit) => credit.status !== 'liquidado');
    const [b, e] = open.filter((credit) => !paidIds.has(credit.id));
    const [a, c, d] = open.filter((credit) => paidIds.has(credit.id));
    const earlier = await upload(csv([[e!.employeeNumber, e!.curp, '150.00', '22', 'R0']]), 'primera.csv');
    expect((await applyAndWait(earlier.body.id)).status).toBe('aplicado');
    const uploaded = await upload(
      csv([
        [a!.employeeNumber, a!.curp, '100.00', '22', 'R1'], // válido, paid elsewhere (the seed's file)
        [b!.employeeNumber, b!.curp, '9999999.00', '22', 'R2'], // sobrepago
        ['NO-EXISTE', '', '123.45', '22', 'R3'], // crédito no encontrado
        [a!.employeeNumber, a!.curp, '200.00', '22', 'R4'], // duplicado en archivo
        [c!.employeeNumber, c!.curp, 'abc', '22', 'R5'], // monto inválido: no amount
        [c!.employeeNumber, 'XAXX010101000', '50.25', '22', 'R6'], // dato no válido
        [d!.employeeNumber, d!.curp, '300.10', '22', 'R7'], // válido, paid elsewhere (the seed's file)
        [e!.employeeNumber, e!.curp, '150.00', '22', 'R8'], // válido, paid elsewhere (primera.csv)
      ]),
    );
    expect((await rowsOf(uploaded.body.id)).map((row) => row.outcome)).toEqual([
      'válido',
      'sobrepago',
      'crédito no encontrado',
      'duplicado en archivo',
      'monto inválido',
      'dato no válido',
      'válido',
      'válido',
    ]);
    // By hand: accepted 100.00 + 9,999,999.00 + 300.10 + 150.00; rejected with an amount 123.45 + 200.00 + 50.25.
    const counted = {
      rowsTotal: 8,
      rowsValid: 4,
      rowsRejected: 4,
      rowsOverpaying: 1,
      rowsPaidElsewhere: 3,
      amountTotal: '10000922.80',
      amountValid: '10000549.10',
      amountRejected: '373.70',
    };
    expect(uploaded.body).toMatchObject(counted);
    // The application counts them again from the rows it keeps (payment-files.queries.ts, summarize): the same.
    expect(await applyAndWait(uploaded.body.id)).toMatchObject({ status: 'aplicado', ...counted });
  });

  it('keeps hostile references and employee numbers as written, and sums up a file whose every row is rejected', async () => {
    // Each a cell as the employer's payroll could bring it; CSV-quoted where it holds a comma, a quote or a line break.
    const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
    const hostile = [
      'O\'Brien "el Güero"',
      '{1,2}',
      'a,b,c',
      'C:\\nómina\\"quincena"\\',
      'NULL',
      'null',
      '{}',
      '""',
      'año 😀 \u{1F1F2}\u{1F1FD}',
      'tab\there',
      '\\N',
      'x'.repeat(999),
    ];
    const amounts = ['100.00', '0.01', '123.45', '9999.99', '1.10', '200.00', '300.00', '4.04', '55.55', '60.00', '7.00', '0.99'];
    const employee = (text: string, index: number) => `E${index} ${text}`.slice(0, 999);
    const lines = hostile.map((text, index) => [cell(employee(text, index)), '', amounts[index]!, '22', cell(text)]);
    lines.push(['NO-EXISTE-vacío', '', '10.00', '22', '']);
    const uploaded = await upload(csv(lines));
    expect(uploaded.status).toBe(201);
    const kept = await ctx.system((tx) =>
      tx.execute(sql`select line, reference, employee_number as "employeeNumber", outcome from payment_file_rows
        where file_id = ${uploaded.body.id} order by line`),
    );
    expect((kept as unknown as { rows: unknown[] }).rows).toEqual([
      ...hostile.map((text, index) => ({
        line: index + 2,
        reference: text,
        employeeNumber: employee(text, index),
        outcome: 'crédito no encontrado',
      })),
      { line: hostile.length + 2, reference: null, employeeNumber: 'NO-EXISTE-vacío', outcome: 'crédito no encontrado' },
    ]);
    // By hand: 100.00 + 0.01 + 123.45 + 9,999.99 + 1.10 + 200.00 + 300.00 + 4.04 + 55.55 + 60.00 + 7.00 + 0.99 + 10.00.
    expect(uploaded.body).toMatchObject({
      rowsTotal: 13,
      rowsValid: 0,
      rowsRejected: 13,
      rowsOverpaying: 0,
      rowsPaidElsewhere: 0,
      amountTotal: '10862.13',
      amountValid: '0.00',
      amountRejected: '10862.13',
    });
  });

  it('takes one of two uploads of the same file at the same moment, whole, and refuses the other', async () => {
    const open = demo.filter((credit) => credit.status !== 'liquidado');
    const content = csv(
      open.slice(0, 3).map((credit, index) => [credit.employeeNumber, credit.curp, credit.installment, '22', `R${index}`]),
    );
    const both = await Promise.all([upload(content, 'a-la-vez.csv'), upload(content, 'a-la-vez.csv')]);
    expect(both.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const taken = both.find((answer) => answer.status === 201)!.body as PaymentFile;
    expect(taken).toMatchObject({ status: 'validado', rowsTotal: 3, rowsValid: 3, rowsRejected: 0 });
    const kept = await ctx.system((tx) =>
      tx.execute(sql`select f.id, count(r.line)::int as rows from payment_files f left join payment_file_rows r on r.file_id = f.id
        where f.file_name = 'a-la-vez.csv' group by f.id`),
    );
    expect((kept as unknown as { rows: unknown[] }).rows).toEqual([{ id: taken.id, rows: 3 }]);
  });

  it("counts a paid-off credit's deduction of the date as expected only when it was received", async () => {
    // Two credits expecting a deduction on the date, both counted while they owe.
    const expecting = await ctx.system((tx) =>
      tx
        .select({ creditId: expectedDeductions.creditId, period: expectedDeductions.period })
        .from(expectedDeductions)
        .innerJoin(credits, eq(credits.id, expectedDeductions.creditId))
        .where(and(eq(credits.agreementId, jalisco.id), eq(expectedDeductions.discountDate, discountDate), ne(credits.status, 'liquidado')))
        .orderBy(asc(credits.number))
        .limit(2),
    );
    expect(expecting).toHaveLength(2);
    const [received, unpaid] = expecting as [(typeof expecting)[number], (typeof expecting)[number]];
    const before = await upload(csv([['NO-EXISTE', '', '100.00', '22', 'R1']]), 'antes.csv');
    // Both paid off since: one by the deduction of the date (received), the other by a prepayment (its deduction of
    // the date was never received, so nobody expects it any more).
    await ctx.system(async (tx) => {
      await tx
        .update(credits)
        .set({ status: 'liquidado' })
        .where(inArray(credits.id, [received.creditId, unpaid.creditId]));
      await tx
        .update(expectedDeductions)
        .set({ state: 'recibido' })
        .where(and(eq(expectedDeductions.creditId, received.creditId), eq(expectedDeductions.period, received.period)));
      await tx
        .update(expectedDeductions)
        .set({ state: 'no aplicado' })
        .where(and(eq(expectedDeductions.creditId, unpaid.creditId), eq(expectedDeductions.period, unpaid.period)));
    });
    const after = await upload(csv([['NO-EXISTE', '', '100.00', '22', 'R2']]), 'despues.csv');
    expect(after.body.expectedCount).toBe(before.body.expectedCount - 1);
    const missing = (
      await ctx.app.inject({ method: 'GET', url: `/api/payment-files/${after.body.id}/missing?pageSize=100`, headers: cartera })
    ).json();
    expect(missing.total).toBe(after.body.missingCount);
    expect(missing.items.map((item: { creditId: string }) => item.creditId)).not.toContain(unpaid.creditId);
  });

  it('refuses the same file twice naming the first upload, and a file it cannot read with a reason, never a 500', async () => {
    const [a] = demo;
    const file = csv([[a!.employeeNumber, a!.curp, '100.00', '22', 'R1']]);
    expect((await upload(file, 'primera.csv')).status).toBe(201);
    const again = await upload(file, 'copia.csv');
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain('"primera.csv"');
    const empty = await upload('', 'vacio.csv');
    expect(empty.status).toBe(400);
    const future = await upload(csv([[a!.employeeNumber, a!.curp, '1.00', '1', 'x']]), 'futuro.csv', {
      agreementId: jalisco.id,
      discountDate: addDays(TODAY, 7),
    });
    expect(future.status).toBe(400);
    expect(future.body.detail).toContain('fecha flujo');
    // A file name the database cannot store (a NUL, as RFC 5987's encoding lets a client send it): a 400 naming it.
    const body = form(
      { agreementId: jalisco.id, discountDate },
      { name: 'x.csv', content: csv([[a!.employeeNumber, a!.curp, '3.00', '22', 'R1']]) },
    );
    const payload = Buffer.from(body.payload.toString('latin1').replace('filename="x.csv"', "filename*=UTF-8''nom%00ina.csv"), 'latin1');
    const refused = await ctx.app.inject({ method: 'POST', url: '/api/payment-files', headers: { ...cartera, ...body.headers }, payload });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([expect.objectContaining({ field: 'fileName' })]);
  });

  it("offers and takes exactly the paydays with deductions still owed: today's before its close, earlier ones for a late file", async () => {
    const [a] = demo;
    const row = (reference: string) => csv([[a!.employeeNumber, a!.curp, '100.00', '22', reference]]);
    const files = async () =>
      (await ctx.app.inject({ method: 'GET', url: '/api/payment-files?pageSize=100', headers: cartera })).json().total as number;
    const offered = async () => {
      const options = await ctx.app.inject({ method: 'GET', url: '/api/payment-files/upload-options', headers: cartera });
      return (options.json() as { agreementId: string; discountDates: string[]; suggestedDate: string | null }[]).find(
        (option) => option.agreementId === jalisco.id,
      )!;
    };
    /** The rule, worked out here from the raw rows: Jalisco's dates up to the business date with a deduction not received. */
    const owedDates = async (businessDate: string) => {
      const rows = await ctx.system((tx) =>
        tx
          .select({ date: expectedDeductions.discountDate, state: expectedDeductions.state })
          .from(expectedDeductions)
          .innerJoin(credits, eq(credits.id, expectedDeductions.creditId))
          .where(eq(credits.agreementId, jalisco.id)),
      );
      const dates = new Set(
        rows.filter((r) => r.state !== 'recibido' && r.date <= businessDate && r.date >= addDays(businessDate, -120)).map((r) => r.date),
      );
      return [...dates].sort().reverse();
    };
    const setState = (date: string, state: 'recibido' | 'esperado' | 'no aplicado') =>
      ctx.system((tx) =>
        tx.execute(sql`update expected_deductions e set state = ${state} from credits c
          where c.id = e.credit_id and c.agreement_id = ${jalisco.id} and e.discount_date = ${date}::date`),
      );

    // After the seed's files, 31/10 still has deductions owed (no aplicado) and 15/10 none: the form offers the first.
    await setState('2026-10-31', 'no aplicado');
    await setState('2026-10-15', 'recibido');
    const expected = await owedDates(TODAY);
    const before = await offered();
    expect(before.discountDates).toEqual(expected);
    expect(before.discountDates).toContain('2026-10-31');
    expect(before.discountDates).not.toContain('2026-10-15');
    expect(before.suggestedDate).toBe(expected[0]);

    const count = await files();
    // A late file for a payday still owed is taken.
    expect((await upload(row('R1'), 'octubre.csv', { agreementId: jalisco.id, discountDate: '2026-10-31' })).status).toBe(201);
    // A payday wholly received, a date that is no payday, and one the calendar cannot place are refused, naming the dates on offer.
    for (const date of ['2026-10-15', '2026-11-14']) {
      const refused = await upload(row(`R-${date}`), 'fuera.csv', { agreementId: jalisco.id, discountDate: date });
      expect(refused.status, date).toBe(400);
      expect(refused.body.errors).toEqual([{ field: 'discountDate', message: 'Elige una de las fechas de descuento que se ofrecen.' }]);
    }
    // One the calendar cannot place is outside the dates the business can have: the one date schema refuses it.
    const outOfRange = await upload(row('R-1899'), 'fuera.csv', { agreementId: jalisco.id, discountDate: '1899-12-15' });
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.body.errors).toEqual([
      { field: 'discountDate', message: 'Fecha de descuento: usa una fecha entre el 01/01/1900 y el 31/12/2100.' },
    ]);
    const named = await upload(row('R2'), 'fuera.csv', { agreementId: jalisco.id, discountDate: '2026-11-14' });
    expect(named.body.detail).toContain('El 14 de noviembre de 2026 no es una fecha de descuento del convenio');
    expect(await files()).toBe(count + 1);

    // Today's payday before its day is closed: the business date is Jalisco's payday of 30/11, its deductions expected.
    await ctx.system((tx) =>
      tx.execute(
        sql`update business_dates set business_date = '2026-11-30' where company_id = (select company_id from agreements where id = ${jalisco.id})`,
      ),
    );
    const payday = await offered();
    expect(payday.discountDates).toEqual(await owedDates('2026-11-30'));
    expect(payday.suggestedDate).toBe('2026-11-30');
    expect((await upload(row('R3'), 'noviembre-30.csv', { agreementId: jalisco.id, discountDate: '2026-11-30' })).status).toBe(201);
  });

  it('takes a late file for a payday up to 120 days before the business date, and not one day more', async () => {
    const [a] = demo;
    const row = (reference: string) => csv([[a!.employeeNumber, a!.curp, '100.00', '22', reference]]);
    // By hand: 2026-11-23 less 120 days is 2026-07-26 (5 days of July, then 31 + 30 + 31, then 23 of November). Two of
    // a's deductions are moved, still owed, to that day and to the day before it: only the window tells them apart.
    const owe = (period: number, date: string) =>
      ctx.system((tx) =>
        tx
          .update(expectedDeductions)
          .set({ discountDate: date, state: 'no aplicado' })
          .where(and(eq(expectedDeductions.creditId, a!.id), eq(expectedDeductions.period, period)))
          .returning({ period: expectedDeductions.period }),
      );
    expect(await owe(1, '2026-07-26')).toHaveLength(1);
    expect(await owe(2, '2026-07-25')).toHaveLength(1);
    const taken = await upload(row('R-0726'), 'julio-26.csv', { agreementId: jalisco.id, discountDate: '2026-07-26' });
    expect(taken.status).toBe(201);
    const refused = await upload(row('R-0725'), 'julio-25.csv', { agreementId: jalisco.id, discountDate: '2026-07-25' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ field: 'discountDate', message: 'Elige una de las fechas de descuento que se ofrecen.' }]);
  });

  it('refuses a row above the most one row may pay, so a file of typos neither overflows its totals nor answers 500', async () => {
    const [a, b] = demo.filter((credit) => credit.status !== 'liquidado');
    const uploaded = await upload(
      csv([
        [a!.employeeNumber, a!.curp, '999999999999.99', '22', 'R1'],
        [b!.employeeNumber, b!.curp, '999999999999.99', '22', 'R2'],
      ]),
      'dedazo.csv',
    );
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ rowsValid: 0, rowsRejected: 2 });
    const rows = await rowsOf(uploaded.body.id);
    expect(rows.map((row) => row.outcome)).toEqual(['monto inválido', 'monto inválido']);
    expect(rows[0]!.message).toContain('pasa del máximo por fila, $9,999,999.99');
  });

  it('refuses a file for an agreement whose stored layout cannot be read, saying so, and keeps nothing', async () => {
    await ctx.system((tx) =>
      tx
        .update(agreements)
        .set({ layout: {} as never })
        .where(eq(agreements.id, jalisco.id)),
    );
    const [a] = demo;
    const refused = await upload(csv([[a!.employeeNumber, a!.curp, '100.00', '22', 'R1']]), 'sin-layout.csv');
    expect(refused.status).toBe(409);
    expect(refused.body.title).toBe('Layout del convenio no válido');
    const kept = await ctx.system((tx) =>
      tx.select({ id: paymentFiles.id }).from(paymentFiles).where(eq(paymentFiles.fileName, 'sin-layout.csv')),
    );
    expect(kept).toEqual([]);
    // The upload form still opens, without that agreement.
    const options = await ctx.app.inject({ method: 'GET', url: '/api/payment-files/upload-options', headers: cartera });
    expect(options.statusCode).toBe(200);
    const offered = (options.json() as { agreementId: string }[]).map((option) => option.agreementId);
    expect(offered).not.toContain(jalisco.id);
    expect(offered.length).toBeGreaterThan(0);
  });

  it('applies the valid rows in one job: each peso allocated, deductions recibido, a sobrepago pays off and is kept; revert restores everything exactly', async () => {
    const open = demo.filter((credit) => credit.status !== 'liquidado');
    const [a, b] = open;
    const ids = [a!.id, b!.id];
    const before = await ctx.system((tx) => snapshot(tx, ids));
    const big = (cents(b!.outstandingBalance) / 100 + 500).toFixed(2);
    const uploaded = await upload(
      csv([
        [a!.employeeNumber, a!.curp, a!.installment, '22', 'R1'],
        [b!.employeeNumber, b!.curp, big, '22', 'R2'],
        ['NO-EXISTE', '', '100.00', '22', 'R3'],
      ]),
    );
    const applied = await applyAndWait(uploaded.body.id);
    expect([applied.status, applied.applyState, applied.applyDone]).toEqual(['aplicado', 'completado', 2]);
    const rows = await rowsOf(uploaded.body.id);
    // Every peso went somewhere: each row's split adds up to its amount.
    for (const row of rows.filter((r) => r.split)) {
      const total = Object.values(row.split!).reduce((sum, value) => sum + cents(value), 0);
      expect(total).toBe(row.line === 2 ? cents(a!.installment) : cents(big));
    }
    const paid = await ctx.system((tx) => tx.select().from(payments).where(eq(payments.fileId, uploaded.body.id)));
    expect(paid).toHaveLength(2);
    const after = await ctx.system((tx) => snapshot(tx, ids));
    const paidOf = (state: typeof before, id: string) =>
      state.schedule
        .filter((row) => row.creditId === id)
        .reduce(
          (sum, row) =>
            sum +
            [
              row.paidPrincipal,
              row.paidInterest,
              row.paidIva,
              row.paidMoratoryInterest,
              row.paidMoratoryIva,
              row.paidFees,
              row.paidFeesIva,
            ].reduce((s, v) => s + cents(v), 0),
          0,
        );
    expect(paidOf(after, a!.id) - paidOf(before, a!.id)).toBe(cents(a!.installment));
    const creditB = after.creditRows.find((credit) => credit.id === b!.id)!;
    expect(creditB.status).toBe('liquidado');
    expect(cents(creditB.outstandingBalance)).toBe(0);
    const paymentB = paid.find((payment) => payment.creditId === b!.id)!;
    expect(cents(creditB.creditBalance)).toBe(cents(paymentB.overpayment));
    expect(cents(paymentB.overpayment)).toBeGreaterThanOrEqual(50_000);
    expect(
      after.deductions.filter((d) => ids.includes(d.creditId) && d.discountDate === discountDate).every((d) => d.state === 'recibido'),
    ).toBe(true);
    // The credit view's Pagos tab shows the payment with its allocation.
    const view = (await ctx.app.inject({ method: 'GET', url: `/api/credits/${b!.id}`, headers: cartera })).json();
    const { items: received } = (await ctx.app.inject({ method: 'GET', url: `/api/credits/${b!.id}/payments`, headers: cartera })).json();
    expect(view.paymentCount).toBe(received.length);
    expect(received[0]).toMatchObject({
      amount: paymentB.amount,
      fileId: uploaded.body.id,
      status: 'aplicado',
      valueDate: paymentB.valueDate,
      appliedAt: paymentB.appliedAt.toISOString(),
    });
    expect(received[0].source).toMatch(/^Archivo .+, línea \d+$/);
    expect(received[0].split).toMatchObject({ principal: paymentB.principal, overpayment: paymentB.overpayment });
    // Where every peso went: the waterfall's lines add up to what was applied to the schedule.
    const allocated = (received[0].allocation as { amount: string }[]).reduce((sum, line) => sum + cents(line.amount), 0);
    expect(received[0].allocation.length).toBeGreaterThan(0);
    expect(allocated).toBe(cents(paymentB.amount) - cents(paymentB.overpayment));
    expect(view.creditBalance).toBe(paymentB.overpayment);
    // The report's export: dates as dates, amounts as pesos.
    const exported = await ctx.app.inject({
      method: 'GET',
      url: `/api/payments/export.xlsx?fileId=${uploaded.body.id}&sort=folio`,
      headers: cartera,
    });
    expect(exported.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const paidSheet = book.getWorksheet('Pagos')!;
    expect(paidSheet.rowCount).toBe(3);
    const valueDate = paidSheet.getRow(2).getCell(6);
    expect([valueDate.value, valueDate.numFmt]).toEqual([new Date(`${discountDate}T00:00:00Z`), 'dd/mm/yyyy']);
    expect(paidSheet.getRow(2).getCell(7).numFmt).toBe('"$"#,##0.00');
    const totals = async (query: string) =>
      (await ctx.app.inject({ method: 'GET', url: `/api/payments/totals?fileId=${uploaded.body.id}${query}`, headers: cartera })).json();
    const appliedAmount = ((cents(a!.installment) + cents(big)) / 100).toFixed(2);
    expect(await totals('')).toMatchObject({ count: 2, amount: appliedAmount });

    const reverted = await ctx.app.inject({
      method: 'POST',
      url: `/api/payment-files/${uploaded.body.id}/revert`,
      headers: cartera,
      payload: { reason: 'Archivo del periodo equivocado' },
    });
    expect(reverted.statusCode).toBe(200);
    expect(reverted.json()).toMatchObject({ status: 'revertido', statusReason: 'Archivo del periodo equivocado' });
    expect(await ctx.system((tx) => snapshot(tx, ids))).toEqual(before);
    const history = (await ctx.app.inject({ method: 'GET', url: `/api/payments?fileId=${uploaded.body.id}`, headers: cartera })).json();
    expect(history.items.map((p: { status: string }) => p.status)).toEqual(['revertido', 'revertido']);
    // The file's rows keep their split, marked with their payment's status.
    expect((await rowsOf(uploaded.body.id)).map((row) => [row.line, row.outcome, row.paymentStatus])).toEqual([
      [2, 'válido', 'revertido'],
      [3, 'sobrepago', 'revertido'],
      [4, 'crédito no encontrado', null],
    ]);
    // Money reverted is not money collected: the totals add the payments that stand unless asked for the reverted ones.
    expect(await totals('')).toMatchObject({ count: 0, amount: '0.00', split: { principal: '0.00', overpayment: '0.00' } });
    expect(await totals('&status=revertido')).toMatchObject({ count: 2, amount: appliedAmount });
  });

  it('refuses to revert a file whose sobrepago was refunded through Tesorería, and changes nothing', async () => {
    const b = demo.filter((credit) => credit.status !== 'liquidado')[0]!;
    const big = (cents(b.outstandingBalance) / 100 + 500).toFixed(2);
    const uploaded = await upload(csv([[b.employeeNumber, b.curp, big, '22', 'R1']]));
    await applyAndWait(uploaded.body.id);
    const [credit] = await ctx.system((tx) => tx.select().from(credits).where(eq(credits.id, b.id)));
    expect(cents(credit!.creditBalance)).toBeGreaterThanOrEqual(50_000);
    const call = async (url: string, headers: Headers, payload: object) =>
      (await ctx.app.inject({ method: 'POST', url, headers, payload })).json();
    // The client's sobrepago goes back: asked for, approved by another person, its batch generated and authorized.
    const refund = await call('/api/refunds', cartera, { creditId: b.id, amount: '100', clabeSource: 'expediente' });
    const tesoreria = await ctx.as('tesoreria@demo.mx');
    await call(`/api/refunds/${refund.id}/decision`, tesoreria, { decision: 'aprobar' });
    const batch = await call('/api/payment-batches', tesoreria, { sourceAccount: '002010077777777771' });
    await call(`/api/payment-batches/${batch.id}/authorize`, await ctx.as('admin@demo.mx'), {});
    const before = await ctx.system((tx) => snapshot(tx, [b.id]));
    expect(cents(before.creditRows[0]!.creditBalance)).toBe(cents(credit!.creditBalance) - 10_000);

    const reverted = await ctx.app.inject({
      method: 'POST',
      url: `/api/payment-files/${uploaded.body.id}/revert`,
      headers: cartera,
      payload: { reason: 'Archivo del periodo equivocado' },
    });
    expect(reverted.statusCode).toBe(409);
    expect(reverted.json()).toMatchObject({ title: 'Saldo a favor ya devuelto' });
    expect(reverted.json().detail).toContain(creditFolio(b.number));
    expect(await ctx.system((tx) => snapshot(tx, [b.id]))).toEqual(before);
    const [file] = await ctx.system((tx) => tx.select().from(paymentFiles).where(eq(paymentFiles.id, uploaded.body.id)));
    expect(file!.status).toBe('aplicado');
  });

  it('previews as sobrepago a row between the payoff and the balance, which counts interest a payoff waives', async () => {
    // A credit on time with rows still to come: at the discount date it owes its principal, and the interest and IVA
    // of the rows due by then (the payday's own included, none accrued yet into the next period). Its balance also
    // counts the future rows' interest, which a payoff does not pay.
    const schedules = await ctx.system((tx) =>
      tx
        .select()
        .from(installments)
        .where(
          inArray(
            installments.creditId,
            demo.map((credit) => credit.id),
          ),
        )
        .orderBy(asc(installments.number)),
    );
    const payoffOf = (id: string) => {
      const rows = schedules.filter((row) => row.creditId === id);
      const due = rows.filter((row) => row.dueDate <= discountDate);
      const principal = rows.reduce((sum, row) => sum + cents(row.principal) - cents(row.paidPrincipal), 0);
      const charges = due.reduce(
        (sum, row) => sum + cents(row.interest) + cents(row.iva) - cents(row.paidInterest) - cents(row.paidIva),
        0,
      );
      return {
        payoff: principal + charges,
        future: rows.length - due.length,
        late: due.some((row) => cents(row.moratoryInterest) + cents(row.fees) > 0),
      };
    };
    const credit = demo.find((candidate) => {
      const { future, late } = payoffOf(candidate.id);
      return candidate.status === 'vigente' && future >= 3 && !late;
    })!;
    const { payoff } = payoffOf(credit.id);
    const amount = payoff + 10_000;
    // Below the balance: compared with the balance alone, the row looked like an ordinary payment.
    expect(amount).toBeLessThan(cents(credit.outstandingBalance));
    const uploaded = await upload(csv([[credit.employeeNumber, credit.curp, (amount / 100).toFixed(2), '22', 'L1']]), 'liquidacion.csv');
    const [previewed] = await rowsOf(uploaded.body.id);
    // The seed's cédula of the 15th instructed the installment: the payoff's note first, then the difference's.
    const paysOff = `Liquida el crédito (${pesos((payoff / 100).toFixed(2))} al 15 de noviembre de 2026); sobran $100.00 que quedan como saldo a favor.`;
    const expected = `${paysOff} Importe distinto del instruido en la cédula del 15 de noviembre de 2026 (`;
    expect(previewed!.outcome).toBe('sobrepago');
    expect(previewed!.message!.slice(0, expected.length)).toBe(expected);
    expect(uploaded.body).toMatchObject({ rowsValid: 1, rowsOverpaying: 1, rowsPaidElsewhere: 0 });
    expect((await applyAndWait(uploaded.body.id)).status).toBe('aplicado');
    const [paid] = await ctx.system((tx) => tx.select().from(payments).where(eq(payments.fileId, uploaded.body.id)));
    expect(paid!.overpayment).toBe('100.00');
    expect((await ctx.system((tx) => tx.select().from(credits).where(eq(credits.id, credit.id))))[0]).toMatchObject({
      status: 'liquidado',
      creditBalance: '100.00',
    });
    expect((await rowsOf(uploaded.body.id))[0]).toMatchObject({ outcome: 'sobrepago', message: previewed!.message });
  });

  it("says which applied file of the date already received a row's deduction, and counts what it paid as not missing", async () => {
    const [a, b] = demo.filter((credit) => credit.status !== 'liquidado');
    const missing = async (fileId: string) =>
      (await ctx.app.inject({ method: 'GET', url: `/api/payment-files/${fileId}/missing?pageSize=100`, headers: cartera })).json() as {
        items: { creditId: string }[];
        total: number;
      };
    const first = await upload(
      csv([
        [a!.employeeNumber, a!.curp, a!.installment, '22', 'R1'],
        [b!.employeeNumber, b!.curp, b!.installment, '22', 'R2'],
      ]),
      'primera-quincena.csv',
    );
    expect((await applyAndWait(first.body.id)).status).toBe('aplicado');
    const missingFirst = await missing(first.body.id);
    // A credit the first file left unpaid, and a second file paying it and, again, the first file's credit a.
    const c = demo.find((credit) => credit.status !== 'liquidado' && missingFirst.items.some((item) => item.creditId === credit.id))!;
    const second = await upload(
      csv([
        [a!.employeeNumber, a!.curp, a!.installment, '22', 'R3'],
        [c.employeeNumber, c.curp, c.installment, '22', 'R4'],
      ]),
      'segunda.csv',
    );
    expect(await rowsOf(second.body.id)).toMatchObject([
      {
        outcome: 'válido',
        message:
          'Su descuento del 15 de noviembre de 2026 ya se recibió en el archivo «primera-quincena.csv»: este importe se aplicará como un pago más.',
      },
      { outcome: 'válido', message: null },
    ]);
    // Missing for the second file: neither what it pays nor what the first one paid.
    const missingSecond = await missing(second.body.id);
    expect(missingSecond.items.map((item) => item.creditId)).toEqual(
      missingFirst.items.map((item) => item.creditId).filter((id) => id !== c.id),
    );
    expect(second.body.missingCount).toBe(missingFirst.total - 1);
    // Counted for the clerk before applying: the one row that pays a deduction the first file received.
    expect(second.body).toMatchObject({ rowsValid: 2, rowsPaidElsewhere: 1, rowsOverpaying: 0 });
  });

  it('refuses a revert while a later payment on the same credits stands, and a second file finds the liquidado credit', async () => {
    const [a] = demo.filter((credit) => credit.status !== 'liquidado');
    const later = async (fileId: string) =>
      (await ctx.app.inject({ method: 'GET', url: `/api/payment-files/${fileId}/later-payments`, headers: cartera })).json();
    const revert = (fileId: string, reason: string) =>
      ctx.app.inject({ method: 'POST', url: `/api/payment-files/${fileId}/revert`, headers: cartera, payload: { reason } });
    const none = { payments: [], total: 0, refusedAsPaidOff: [] };
    const zero = await upload(csv([[a!.employeeNumber, a!.curp, '10.00', '22', 'R0']]), 'cero.csv');
    expect((await applyAndWait(zero.body.id)).status).toBe('aplicado');
    const first = await upload(
      csv([[a!.employeeNumber, a!.curp, (cents(a!.outstandingBalance) / 100 + 1).toFixed(2), '22', 'R1']]),
      'primero.csv',
    );
    expect((await applyAndWait(first.body.id)).status).toBe('aplicado');
    const second = await upload(csv([[a!.employeeNumber, a!.curp, '10.00', '22', 'R2']]), 'segundo.csv');
    expect((await rowsOf(second.body.id))[0]!.outcome).toBe('crédito liquidado');
    // Reverting the first, which paid the credit off, would leave the second's money for it unapplied: the check says
    // which file. Not the zero file's: it did not pay the credit off, and the first file stands on it.
    expect(await later(first.body.id)).toEqual({
      payments: [],
      total: 0,
      refusedAsPaidOff: [
        { fileId: second.body.id, fileName: 'segundo.csv', rows: 1, amount: '10.00', creditFolio: creditFolio(a!.number) },
      ],
    });
    expect(await later(zero.body.id)).toEqual({
      payments: [
        {
          fileId: first.body.id,
          fileName: 'primero.csv',
          valueDate: discountDate,
          credits: 1,
          creditId: a!.id,
          creditFolio: creditFolio(a!.number),
        },
      ],
      total: 1,
      refusedAsPaidOff: [],
    });
    const reject = await ctx.app.inject({
      method: 'POST',
      url: `/api/payment-files/${second.body.id}/reject`,
      headers: cartera,
      payload: { reason: 'Crédito ya liquidado' },
    });
    expect(reject.json().status).toBe('rechazado');
    expect((await later(first.body.id)).refusedAsPaidOff).toEqual([]);

    // Files on top of a file, listed the newest first (the order they are reverted in), each with how many of its credits.
    const [b, c] = demo.filter((credit) => credit.status !== 'liquidado' && credit.id !== a!.id);
    const pay = async (name: string, amount: string, ...payees: (typeof b)[]) => {
      const file = await upload(csv(payees.map((credit) => [credit!.employeeNumber, credit!.curp, amount, '22', name])), name);
      expect((await applyAndWait(file.body.id)).status).toBe('aplicado');
      return file.body.id as string;
    };
    const third = await pay('tercero.csv', '10.00', b, c);
    const fourth = await pay('cuarto.csv', '11.00', b);
    const fifth = await pay('quinto.csv', '12.00', c, b);
    const entry = (fileId: string, fileName: string, credits: number) => ({
      fileId,
      fileName,
      valueDate: discountDate,
      credits,
      creditId: b!.id,
      creditFolio: creditFolio(b!.number),
    });
    expect(await later(third)).toEqual({
      payments: [entry(fifth, 'quinto.csv', 2), entry(fourth, 'cuarto.csv', 1)],
      total: 2,
      refusedAsPaidOff: [],
    });
    const blocked = await revert(third, 'Prueba de bloqueo');
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().detail).toBe(
      `Revierte primero los pagos posteriores sobre los mismos créditos, del más reciente al más antiguo: archivo quinto.csv (15 de noviembre de 2026; 2 créditos, entre ellos ${creditFolio(b!.number)}); archivo cuarto.csv (15 de noviembre de 2026; crédito ${creditFolio(b!.number)}).`,
    );
    expect(await later(fourth)).toEqual({ payments: [entry(fifth, 'quinto.csv', 1)], total: 1, refusedAsPaidOff: [] });
    expect(await later(fifth)).toEqual(none);
    // A file not applied has nothing to wait for.
    expect(await later(second.body.id)).toEqual(none);
    // Beyond three files, the three newest and how many in all.
    const sixth = await pay('sexto.csv', '13.00', b);
    const seventh = await pay('septimo.csv', '14.00', b);
    expect(await later(third)).toEqual({
      payments: [entry(seventh, 'septimo.csv', 1), entry(sixth, 'sexto.csv', 1), entry(fifth, 'quinto.csv', 2)],
      total: 4,
      refusedAsPaidOff: [],
    });
    expect((await revert(third, 'Prueba de bloqueo')).json().detail).toMatch(
      /archivo septimo\.csv .*; archivo sexto\.csv .*; archivo quinto\.csv .* y otro\.$/,
    );
    // Reverted in the order given, each one goes.
    const order = [
      [seventh, 'El último primero'],
      [sixth, 'Luego el sexto'],
      [fifth, 'Luego el quinto'],
      [fourth, 'Después el cuarto'],
      [third, 'Ahora sí'],
    ] as const;
    for (const [fileId, reason] of order) expect((await revert(fileId, reason)).statusCode).toBe(200);
    expect(await later(third)).toEqual(none);
  });

  it('finds at application a credit another file paid off after the preview, and applies nothing to it', async () => {
    const [a, b] = demo.filter((credit) => credit.status !== 'liquidado');
    const payoff = await upload(
      csv([[a!.employeeNumber, a!.curp, (cents(a!.outstandingBalance) / 100 + 1).toFixed(2), '22', 'R1']]),
      'liquida.csv',
    );
    const late = await upload(
      csv([
        [a!.employeeNumber, a!.curp, a!.installment, '22', 'R2'],
        [b!.employeeNumber, b!.curp, b!.installment, '22', 'R3'],
      ]),
      'tarde.csv',
    );
    expect((await rowsOf(late.body.id)).map((row) => row.outcome)).toEqual(['válido', 'válido']);
    expect((await applyAndWait(payoff.body.id)).status).toBe('aplicado');
    const applied = await applyAndWait(late.body.id);
    expect([applied.status, applied.applyDone]).toEqual(['aplicado', 1]);
    const [first, second] = await rowsOf(late.body.id);
    expect(first).toMatchObject({
      outcome: 'crédito liquidado',
      message: `El crédito ${creditFolio(a!.number)} ya estaba liquidado al aplicar.`,
    });
    expect(second!.outcome).toBe('válido');
    const paid = await ctx.system((tx) => tx.select().from(payments).where(eq(payments.fileId, late.body.id)));
    expect(paid.map((payment) => payment.creditId)).toEqual([b!.id]);
  });

  it('applies a file once when "Aplicar" arrives twice at the same moment', async () => {
    const [a, b] = demo.filter((credit) => credit.status !== 'liquidado');
    const uploaded = await upload(
      csv([
        [a!.employeeNumber, a!.curp, '100.00', '22', 'R1'],
        [b!.employeeNumber, b!.curp, '200.00', '22', 'R2'],
      ]),
    );
    const both = await Promise.all(
      [0, 1].map(() => ctx.app.inject({ method: 'POST', url: `/api/payment-files/${uploaded.body.id}/apply`, headers: cartera })),
    );
    expect(both.map((response) => response.statusCode).sort()).toEqual([202, 409]);
    let file = both.find((response) => response.statusCode === 202)!.json() as PaymentFile;
    await until(async () => {
      if (file.status === 'aplicado' || file.applyState === 'fallido') return true;
      file = (await ctx.app.inject({ method: 'GET', url: `/api/payment-files/${uploaded.body.id}`, headers: cartera })).json();
      return false;
    });
    expect(file.status).toBe('aplicado');
    const paid = await ctx.system((tx) => tx.select().from(payments).where(eq(payments.fileId, uploaded.body.id)));
    expect(paid).toHaveLength(2);
    const again = await ctx.app.inject({ method: 'POST', url: `/api/payment-files/${uploaded.body.id}/apply`, headers: cartera });
    expect(again.statusCode).toBe(409);
  });

  it.skipIf(engine !== 'postgres')(
    'answers "Aplicar" again, while the application waits behind a day close, as still applying',
    async () => {
      const [a] = demo.filter((credit) => credit.status !== 'liquidado');
      const uploaded = await upload(csv([[a!.employeeNumber, a!.curp, '100.00', '22', 'R1']]));
      const [{ companyId }] = (await ctx.system((tx) =>
        tx.select({ companyId: agreements.companyId }).from(agreements).where(eq(agreements.id, jalisco.id)),
      )) as [{ companyId: string }];
      const file = async () =>
        (await ctx.app.inject({ method: 'GET', url: `/api/payment-files/${uploaded.body.id}`, headers: cartera })).json() as PaymentFile;
      const second = await ctx.system(async (tx) => {
        // The company's portfolio lock, as a day close in progress holds it.
        await lockCompanyPortfolio(tx, companyId);
        expect(
          (await ctx.app.inject({ method: 'POST', url: `/api/payment-files/${uploaded.body.id}/apply`, headers: cartera })).statusCode,
        ).toBe(202);
        // The job takes the file and then waits for the lock: "en curso" for as long as the close holds it.
        await until(async () => (await file()).applyState === 'en curso');
        return ctx.app.inject({ method: 'POST', url: `/api/payment-files/${uploaded.body.id}/apply`, headers: cartera });
      });
      expect(second.statusCode).toBe(409);
      expect(second.json().title).toBe('Aplicación en curso');
      let done = await file();
      await until(async () => {
        if (done.status === 'aplicado' || done.applyState === 'fallido') return true;
        done = await file();
        return false;
      });
      expect([done.status, done.applyState]).toEqual(['aplicado', 'completado']);
    },
  );

  it("commits the file's aplicado with its run's completado, so no reader sees an applied file still applying", async () => {
    const [a] = demo.filter((credit) => credit.status !== 'liquidado');
    const uploaded = await upload(csv([[a!.employeeNumber, a!.curp, '100.00', '22', 'R1']]));
    const file = uploaded.body as PaymentFile;
    const companyId = await ctx.system(
      async (tx) =>
        (await tx.select({ companyId: paymentFiles.companyId }).from(paymentFiles).where(eq(paymentFiles.id, file.id)))[0]!.companyId,
    );
    // A run as "Aplicar" leaves it, taken by the job's work alone: the kit (jobs/tracked-job.ts) writes nothing after it.
    const [run] = await ctx.system((tx) => tx.insert(paymentApplications).values({ fileId: file.id, companyId, rowsTotal: 1 }).returning());
    const job = { applicationId: run!.id, runId: run!.id, fileId: file.id, companyId, requestedBy: null };
    const clock = { now: () => ctx.clock.now(), today: () => TODAY, concurrentProgress: false };
    expect(await applyJob(ctx.db, clock).work(job, async () => undefined)).toBe('recorded');
    const [after] = await ctx.system((tx) => tx.select().from(paymentApplications).where(eq(paymentApplications.id, run!.id)));
    const [stored] = await ctx.system((tx) => tx.select().from(paymentFiles).where(eq(paymentFiles.id, file.id)));
    expect([stored!.status, after!.status, after!.rowsDone, after!.finishedAt]).toEqual(['aplicado', 'completado', 1, ctx.clock.now()]);
  });

  it('keeps each company in its own files and actions behind their permissions', async () => {
    const [a] = demo;
    const uploaded = await upload(csv([[a!.employeeNumber, a!.curp, '100.00', '22', 'R1']]));
    const plus = await ctx.as('plus@demo.mx');
    for (const url of [
      `/api/payment-files/${uploaded.body.id}`,
      `/api/payment-files/${uploaded.body.id}/rows`,
      `/api/payment-files/${uploaded.body.id}/original`,
      `/api/payment-files/${uploaded.body.id}/later-payments`,
    ]) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: plus });
      expect([403, 404]).toContain(response.statusCode);
    }
    const list = await ctx.app.inject({ method: 'GET', url: '/api/payment-files', headers: plus });
    if (list.statusCode === 200) expect(list.json().items.map((f: { id: string }) => f.id)).not.toContain(uploaded.body.id);
    const mesa = await ctx.as('mesa@demo.mx');
    expect((await ctx.app.inject({ method: 'POST', url: `/api/payment-files/${uploaded.body.id}/apply`, headers: mesa })).statusCode).toBe(
      403,
    );
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/payment-files/${uploaded.body.id}/later-payments`, headers: mesa })).statusCode,
    ).toBe(403);
    expect((await upload('x', 'x.csv', { agreementId: jalisco.id, discountDate }, mesa)).status).toBe(403);
    const original = await ctx.app.inject({ method: 'GET', url: `/api/payment-files/${uploaded.body.id}/original`, headers: cartera });
    expect(original.statusCode).toBe(200);
    expect(original.body).toBe(csv([[a!.employeeNumber, a!.curp, '100.00', '22', 'R1']]));
  });
  // The file runs on one engine (BEHAVIOUR_ENGINES): the generated files with it.
  it('answers generated files, broken ones included, without a 500 and applies each one whole or not at all', async () => {
    const open = demo.filter((credit) => credit.status !== 'liquidado');
    const cell = fc.oneof(
      fc.constantFrom('', '=1+1', '+52', '-10', '@SUM(A1)', 'abc', '"quoted, cell"', 'Núñez'),
      fc.string({ maxLength: 12 }),
      fc.integer({ min: -5, max: 9_999_999 }).map((n) => (n / 100).toFixed(2)),
    );
    const goodRow = fc
      .tuple(fc.constantFrom(...open), fc.integer({ min: 1, max: 2_000_000 }))
      .map(([credit, amount]) => [credit.employeeNumber, credit.curp, (amount / 100).toFixed(2), '1', 'F']);
    const rowArb = fc.oneof(goodRow, fc.array(cell, { minLength: 0, maxLength: 7 }));
    const fileArb = fc.oneof(
      fc.array(rowArb, { minLength: 0, maxLength: 8 }).map((rows) => Buffer.from(csv(rows))),
      fc.uint8Array({ minLength: 0, maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
      fc.array(rowArb, { minLength: 1, maxLength: 5 }).map((rows) => Buffer.from(csv(rows), 'latin1')),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fileArb, async (content) => {
        run += 1;
        const uploaded = await upload(Buffer.concat([content, Buffer.from(`\r\n#${run}`)]), `fuzz-${run}.csv`);
        expect([201, 400, 409, 413]).toContain(uploaded.status);
        if (uploaded.status !== 201) return;
        const file = uploaded.body as PaymentFile;
        expect(file.rowsTotal).toBe(file.rowsValid + file.rowsRejected);
        if (file.rowsValid === 0) return;
        const done = await applyAndWait(file.id);
        const paid = await ctx.system((tx) => tx.select({ amount: payments.amount }).from(payments).where(eq(payments.fileId, file.id)));
        if (done.status === 'aplicado') {
          // Rows found liquidado under the lock (an earlier generated file paid the credit off) are not applied.
          const rows = await rowsOf(file.id, 'aceptados');
          expect(paid).toHaveLength(rows.length);
          expect(paid.reduce((sum, p) => sum + cents(p.amount), 0)).toBe(cents(done.amountApplied));
        } else {
          expect(done.applyState).toBe('fallido');
          expect(paid).toHaveLength(0);
        }
      }),
      { numRuns: 60 },
    );
  }, 240_000);
});
