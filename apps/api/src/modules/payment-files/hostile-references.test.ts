import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { agreements } from '../../db/schema/agreements';
import { credits } from '../../db/schema/credits';
import { clients } from '../../db/schema/origination';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { creditFolio } from '../shared/folios';

/**
 * The upload's lookup sends a file's employee numbers as one text[] parameter (db/array-param.ts): whatever a cell
 * holds — quotes, braces, commas, backslashes, the word NULL, unicode — must find that employee's credit and no other,
 * and a cell that names no one must get its outcome and reason, never a 500.
 */
const BOUNDARY = '----hostile-references';
function form(fields: Record<string, string>, content: string) {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  parts.push(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="hostil.csv"\r\ncontent-type: text/csv\r\n\r\n`);
  parts.push(`${content}\r\n--${BOUNDARY}--\r\n`);
  return { payload: Buffer.from(parts.join('')), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}
/** A CSV cell quoted as a spreadsheet writes it. */
const cell = (text: string) => `"${text.replace(/"/g, '""')}"`;

describe.each(BEHAVIOUR_ENGINES)('hostile references in a payment file (%s)', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(engine, { seed: async (db, now) => seedDemoPortfolio(db, now, 40, { renewals: false }) });
  });
  afterAll(() => ctx?.close());

  it('matches each hostile employee number to its own credit and gives every other row its reason', async () => {
    const cartera = await ctx.as('cartera@demo.mx');
    const [jalisco] = await ctx.system((tx) => tx.select({ id: agreements.id }).from(agreements).where(eq(agreements.code, 'GOB-JAL')));
    const demo = await ctx.system((tx) =>
      tx
        .select({ id: credits.id, number: credits.number, curp: clients.curp, status: credits.status, installment: credits.installment })
        .from(credits)
        .innerJoin(clients, eq(clients.id, credits.clientId))
        .where(eq(credits.agreementId, jalisco!.id))
        .orderBy(asc(credits.number)),
    );
    const open = demo.filter((credit) => credit.status !== 'liquidado');
    const hostile = ['a"b', '{x}', 'a,b', 'a\\b', 'NULL', 'sp ace', 'ñÑ€😀', 'x'.repeat(30), '\\"}{,', 'null,NULL}'];
    expect(open.length).toBeGreaterThanOrEqual(hostile.length);
    for (const [k, employee] of hostile.entries())
      await ctx.system((tx) => tx.update(credits).set({ employeeNumber: employee }).where(eq(credits.id, open[k]!.id)));
    const lines = hostile.map((employee, k) => [cell(employee), open[k]!.curp, open[k]!.installment, '1', 'F'].join(','));
    const strangers = ['"{a"",b}"', '""', cell('z'.repeat(999)), cell('\\'), cell('{}')];
    lines.push(...strangers.map((employee) => [employee, 'X', '1.00', '1', 'F'].join(',')));
    const body = form(
      { agreementId: jalisco!.id, discountDate: '2026-11-15' },
      ['empleado,curp,importe,periodo,referencia', ...lines].join('\r\n'),
    );
    const uploaded = await ctx.app.inject({
      method: 'POST',
      url: '/api/payment-files',
      headers: { ...cartera, ...body.headers },
      payload: body.payload,
    });
    expect(uploaded.statusCode).toBe(201);
    const rows = (
      await ctx.app.inject({
        method: 'GET',
        url: `/api/payment-files/${uploaded.json().id}/rows?group=todos&pageSize=100`,
        headers: cartera,
      })
    ).json().items as { line: number; outcome: string; message: string | null; creditFolio: string | null }[];
    expect(rows).toHaveLength(hostile.length + strangers.length);
    hostile.forEach((employee, k) => {
      expect({ employee, outcome: rows[k]!.outcome, folio: rows[k]!.creditFolio }).toEqual({
        employee,
        outcome: 'válido',
        folio: creditFolio(open[k]!.number),
      });
    });
    for (const row of rows.slice(hostile.length)) {
      expect(row.outcome).not.toBe('válido');
      expect(row.message).toBeTruthy();
    }
  });
});
