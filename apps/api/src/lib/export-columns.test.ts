import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_COLUMNS, agreementRoutes, creditRoutes, paymentRoutes, userRoutes } from '@portal/contract';
import { createTestApp, type TestContext } from '../test/test-app';

/**
 * Each list's export writes the columns the list declares (packages/contract columns.ts) — the same labels, in the same
 * order, as its grid's headers (apps/web declared-columns.test.ts) — so the file a clerk downloads names what the screen
 * showed. The headers do not depend on the engine: PGlite only.
 */
describe('list exports write their declared columns', () => {
  let ctx: TestContext;
  let admin: { authorization: string };
  beforeAll(async () => {
    ctx = await createTestApp('pglite');
    admin = await ctx.as('admin@demo.mx');
  });
  afterAll(() => ctx?.close());

  it.each([
    ['credits', creditRoutes.export.path, 'Créditos'],
    ['payments', paymentRoutes.export.path, 'Pagos'],
    ['users', userRoutes.export.path, 'Usuarios'],
    ['agreements', agreementRoutes.export.path, 'Convenios'],
  ] as const)('%s: the header row is the declaration', async (list, path, sheetName) => {
    const response = await ctx.app.inject({ method: 'GET', url: `/api${path}`, headers: admin });
    expect(response.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const header = (workbook.getWorksheet(sheetName)!.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(LIST_COLUMNS[list].map((column) => column.label));
    // Money columns carry the pesos format, so a clerk's sums are numbers.
    const sheet = workbook.getWorksheet(sheetName)!;
    LIST_COLUMNS[list].forEach((column, index) => {
      if (column.kind === 'money') expect(sheet.getColumn(index + 1).numFmt, column.label).toBe('"$"#,##0.00');
    });
  });
});
