import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { layoutSchema, type Layout } from '@portal/contract';
import { LayoutFileError, parsePaymentFile, splitCsv } from './layout-parser';
import { SpreadsheetLimitError, limitMessages } from '../../lib/xlsx-read';
import { minimalXlsx, xlsxBomb } from '../../test/zip-bomb';

const csvLayout: Layout = { format: 'csv', delimiter: ',', hasHeader: true, columns: { employeeNumber: 1, curpRfc: 2, amount: 3, period: 4 } };

describe('payment-file layouts', () => {
  it('reads a csv with a header, quoted cells and CRLF, keeping every row with its reason', async () => {
    const file = Buffer.from(
      '\uFEFFempleado,curp,importe,periodo\r\n' +
        '1001,GORS800101HJCNMN09,1250.5,2026-21\r\n' +
        '"1,002","PEMA900202MDFRRL01","$2,000.00",2026-21\r\n' +
        ',XXXX,abc,2026-21\r\n' +
        '1004,PEMA900202MDFRRL01,0,2026-21\r\n',
    );
    const rows = await parsePaymentFile(file, csvLayout);
    expect(rows.map((row) => [row.line, row.fields.employeeNumber, row.fields.amount])).toEqual([
      [2, '1001', '1250.50'],
      [3, '1,002', '2000.00'],
      [4, undefined, 'abc'],
      [5, '1004', '0.00'],
    ]);
    expect(rows[0]!.errors).toEqual([]);
    expect(rows[2]!.errors).toEqual(['Falta el folio del crédito o el número de empleado.', 'Importe no válido: "abc".']);
    expect(rows[3]!.errors).toEqual(['El importe es cero.']);
  });

  it('reads fixed-width lines by position, amounts in centavos', async () => {
    const layout = layoutSchema.parse({
      format: 'fixed',
      positions: { creditId: { start: 1, length: 10 }, curpRfc: { start: 11, length: 18 }, amount: { start: 29, length: 12 }, period: { start: 41, length: 6 } },
    });
    const line = (credit: string, curp: string, cents: string, period: string) => `${credit.padEnd(10)}${curp.padEnd(18)}${cents.padStart(12, '0')}${period}`;
    const rows = await parsePaymentFile(Buffer.from([line('CR-000123', 'GORS800101HJCNMN09', '125050', '202621'), line('CR-000124', 'PEMA900202MDFRRL01', '99', '202621')].join('\n')), layout);
    expect(rows.map((row) => row.fields)).toEqual([
      { creditId: 'CR-000123', curpRfc: 'GORS800101HJCNMN09', amount: '1250.50', period: '202621' },
      { creditId: 'CR-000124', curpRfc: 'PEMA900202MDFRRL01', amount: '0.99', period: '202621' },
    ]);
  });

  it('reads an xlsx sheet by name, numbers and text alike', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Descuentos');
    sheet.addRow(['Folio', 'Empleado', 'Nombre', 'Importe', 'Periodo']);
    sheet.addRow(['CR-1', 501, 'Ana', 1500.25, '2026-11']);
    sheet.addRow(['CR-2', 502, 'Luis', '800', '2026-11']);
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    const rows = await parsePaymentFile(content, { format: 'xlsx', sheet: 'Descuentos', hasHeader: true, columns: { creditId: 1, employeeNumber: 2, amount: 4, period: 5 } });
    expect(rows.map((row) => row.fields)).toEqual([
      { creditId: 'CR-1', employeeNumber: '501', amount: '1500.25', period: '2026-11' },
      { creditId: 'CR-2', employeeNumber: '502', amount: '800.00', period: '2026-11' },
    ]);
    await expect(parsePaymentFile(content, { format: 'xlsx', sheet: 'Otra', hasHeader: true, columns: { creditId: 1, amount: 4 } })).rejects.toThrow('El archivo no tiene la hoja "Otra".');
    await expect(parsePaymentFile(Buffer.from('no soy excel'), { format: 'xlsx', hasHeader: false, columns: { creditId: 1, amount: 2 } })).rejects.toBeInstanceOf(LayoutFileError);
  });

  it('stops inflating a 400 MB cell at the limit, whatever size the zip declares, with bounded memory', async () => {
    const bomb = await xlsxBomb(400);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = process.resourceUsage().maxRSS;
    const started = performance.now();
    const refused = parsePaymentFile(bomb, { format: 'xlsx', hasHeader: false, columns: { creditId: 1, amount: 2 } });
    await expect(refused).rejects.toBeInstanceOf(SpreadsheetLimitError);
    await expect(refused).rejects.toThrow('El archivo descomprimido ocupa más de 50 MB, el máximo que se lee.');
    // The process's peak memory grew by less than the cap and a margin, not by the 400 MB the cell would take.
    expect((process.resourceUsage().maxRSS - before) / 1024).toBeLessThan(120);
    expect(performance.now() - started).toBeLessThan(5_000);
    // The same bomb declaring a 1 KB sheet is refused the same way: no declared size is believed.
    await expect(parsePaymentFile(await xlsxBomb(400, { lie: true }), { format: 'xlsx', hasHeader: false, columns: { creditId: 1, amount: 2 } })).rejects.toThrow(
      limitMessages().uncompressed,
    );
  }, 60_000);

  it('reads the hand-made minimal workbook the limit tests use, so they fail for the limit and nothing else', async () => {
    const rows = await parsePaymentFile(
      minimalXlsx('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>CR-1</t></is></c><c r="B1"><v>150.5</v></c></row></sheetData></worksheet>'),
      { format: 'xlsx', sheet: 'Descuentos', hasHeader: false, columns: { creditId: 1, amount: 2 } },
    );
    expect(rows.map((row) => row.fields)).toEqual([{ creditId: 'CR-1', amount: '150.50' }]);
  });

  it('refuses a sheet with more rows, or a cell with more characters, than it reads', async () => {
    const sheet = (rows: string) =>
      minimalXlsx(`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`);
    const layout: Layout = { format: 'xlsx', hasHeader: false, columns: { creditId: 1, amount: 2 } };
    await expect(parsePaymentFile(sheet('<row r="1"/>'.repeat(100_001)), layout)).rejects.toThrow(limitMessages().rows);
    await expect(parsePaymentFile(sheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>${'9'.repeat(1_001)}</t></is></c></row>`), layout)).rejects.toThrow(
      'Una celda del archivo tiene más de 1,000 caracteres, el máximo que se lee por celda.',
    );
    // A shared string is a cell's text too, and a real workbook from exceljs is checked the same way.
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Descuentos').addRow(['CR-1', 'x'.repeat(1_001)]);
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    await expect(parsePaymentFile(content, layout)).rejects.toThrow(limitMessages().cell);
    // CSV files meet the same limits.
    await expect(parsePaymentFile(Buffer.from(`CR-1,${'1'.repeat(1_001)}\n`), { format: 'csv', delimiter: ',', hasHeader: false, columns: { creditId: 1, amount: 2 } })).rejects.toThrow(limitMessages().cell);
    await expect(parsePaymentFile(Buffer.from('CR-1,1\n'.repeat(100_001)), { format: 'csv', delimiter: ',', hasHeader: false, columns: { creditId: 1, amount: 2 } })).rejects.toThrow(limitMessages().rows);
  });

  it('refuses a layout that cannot identify the credit', () => {
    const result = layoutSchema.safeParse({ format: 'csv', delimiter: ';', hasHeader: false, columns: { amount: 2 } });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toBe('El layout debe leer el folio del crédito o el número de empleado.');
  });

  it('splits quoted cells with embedded delimiters and quotes', () => {
    expect(splitCsv('a;"b;c";"d ""e"""\n', ';')[0]!.cells).toEqual(['a', 'b;c', 'd "e"']);
  });
});
