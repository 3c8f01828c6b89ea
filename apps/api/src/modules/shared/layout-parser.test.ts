import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { LAYOUT_FIELDS, layoutSchema, type Layout } from '@portal/contract';
import { LayoutFileError, parsePaymentFile, splitCsvLine } from './layout-parser';
import { SpreadsheetLimitError, limitMessages } from '../../lib/xlsx-read';
import { minimalXlsx, xlsxBomb } from '../../test/zip-bomb';

const csvLayout: Layout = {
  format: 'csv',
  delimiter: ',',
  hasHeader: true,
  columns: { employeeNumber: 1, curpRfc: 2, amount: 3, period: 4 },
};
const fixedLayout = layoutSchema.parse({
  format: 'fixed',
  positions: {
    creditId: { start: 1, length: 10 },
    curpRfc: { start: 11, length: 18 },
    amount: { start: 29, length: 12 },
    period: { start: 41, length: 6 },
  },
});
const fixedLine = (credit: string, curp: string, cents: string, period: string) =>
  `${credit.padEnd(10)}${curp.padEnd(18)}${cents.padStart(12, '0')}${period}`;
const NO_DATA = 'El archivo no tiene filas de datos.';
const ROW_LIMIT = 'El archivo tiene más de 100,000 filas de datos, el máximo que se lee. Divide el archivo en varios.';

async function workbook(rows: ExcelJS.CellValue[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Descuentos');
  rows.forEach((values, index) => {
    sheet.getRow(index + 1).values = values;
  });
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('payment-file layouts', () => {
  it('reads a csv with a header, quoted cells and CRLF, keeping every row with its reason', async () => {
    const file = Buffer.from(
      '\uFEFFempleado,curp,importe,periodo\r\n' +
        '1001,GORS800101HJCNMN09,1250.5,2026-21\r\n' +
        '"1,002","PEMA900202MDFRRL01","$2,000.00",2026-21\r\n' +
        ',XXXX,abc,2026-21\r\n' +
        '1004,PEMA900202MDFRRL01,0,2026-21\r\n',
    );
    const { rows, encoding } = await parsePaymentFile(file, csvLayout);
    expect(encoding).toBe('utf-8');
    expect(rows.map((row) => [row.line, row.fields.employeeNumber, row.fields.amount, row.amountInvalid])).toEqual([
      [2, '1001', '1250.50', false],
      [3, '1,002', '2000.00', false],
      [4, undefined, 'abc', true],
      [5, '1004', '0.00', true],
    ]);
    expect(rows[0]!.errors).toEqual([]);
    expect(rows[2]!.errors).toEqual(['Falta el folio del crédito o el número de empleado.', 'Importe no válido: "abc".']);
    expect(rows[3]!.errors).toEqual(['El importe es cero.']);
  });

  it('reads fixed-width lines by position, amounts in centavos', async () => {
    const { rows } = await parsePaymentFile(
      Buffer.from(
        [
          fixedLine('CR-000123', 'GORS800101HJCNMN09', '125050', '202621'),
          fixedLine('CR-000124', 'PEMA900202MDFRRL01', '99', '202621'),
        ].join('\n'),
      ),
      fixedLayout,
    );
    expect(rows.map((row) => row.fields)).toEqual([
      { creditId: 'CR-000123', curpRfc: 'GORS800101HJCNMN09', amount: '1250.50', period: '202621' },
      { creditId: 'CR-000124', curpRfc: 'PEMA900202MDFRRL01', amount: '0.99', period: '202621' },
    ]);
  });

  it('flags a fixed-width line that ends inside the amount, which would otherwise read as a smaller amount', async () => {
    const whole = fixedLine('CR-000123', 'GORS800101HJCNMN09', '125050', '202621');
    const { rows } = await parsePaymentFile(Buffer.from(`${whole}\n${whole.slice(0, 38)}\n`), fixedLayout);
    expect(rows[0]!.errors).toEqual([]);
    expect(rows[1]).toMatchObject({
      line: 2,
      amountInvalid: true,
      errors: ['La línea termina antes del fin del importe (posiciones 29 a 40).'],
    });
    expect(rows[1]!.fields.amount).toBeUndefined();
  });

  it('refuses whole a file of another shape, naming the shape expected, and keeps the rows of one with some short lines', async () => {
    // A semicolon file for a comma layout: every line is one cell.
    const semicolons = Buffer.from(
      'empleado;curp;importe;periodo\r\n1001;GORS800101HJCNMN09;1250.50;2026-21\r\n1002;PEMA900202MDFRRL01;99.00;2026-21\r\n',
    );
    await expect(parsePaymentFile(semicolons, csvLayout)).rejects.toThrow(
      new LayoutFileError(
        'El archivo no tiene la forma del layout del convenio en ninguna línea: se leen 4 columnas separadas por comas, y la línea 2 tiene 1 columna. Revisa que sea el archivo de este convenio.',
      ),
    );
    // A csv for a fixed-width layout: no line reaches the amount's end.
    await expect(parsePaymentFile(Buffer.from('CR-000123,GORS800101HJCNMN09,1250.50\n'), fixedLayout)).rejects.toThrow(
      'El archivo no tiene la forma del layout del convenio en ninguna línea: el importe ocupa las posiciones 29 a 40, y la línea 1 tiene 36 caracteres.',
    );
    const mixed = Buffer.from('empleado,curp,importe,periodo\n1001,GORS800101HJCNMN09,1250.50,2026-21\n1002;PEMA900202MDFRRL01;99.00\n');
    const { rows } = await parsePaymentFile(mixed, csvLayout);
    expect(rows.map((row) => [row.line, row.errors])).toEqual([
      [2, []],
      [3, ['Falta el importe.', 'La línea tiene 1 columna y el layout lee 4.']],
    ]);
  });

  it('reads an xlsx sheet by name, numbers and text alike', async () => {
    const content = await workbook([
      ['Folio', 'Empleado', 'Nombre', 'Importe', 'Periodo'],
      ['CR-1', 501, 'Ana', 1500.25, '2026-11'],
      ['CR-2', 502, 'Luis', '800', '2026-11'],
    ]);
    const { rows, encoding } = await parsePaymentFile(content, {
      format: 'xlsx',
      sheet: 'Descuentos',
      hasHeader: true,
      columns: { creditId: 1, employeeNumber: 2, amount: 4, period: 5 },
    });
    expect(encoding).toBe('xlsx');
    expect(rows.map((row) => row.fields)).toEqual([
      { creditId: 'CR-1', employeeNumber: '501', amount: '1500.25', period: '2026-11' },
      { creditId: 'CR-2', employeeNumber: '502', amount: '800.00', period: '2026-11' },
    ]);
    await expect(
      parsePaymentFile(content, { format: 'xlsx', sheet: 'Otra', hasHeader: true, columns: { creditId: 1, amount: 4 } }),
    ).rejects.toThrow('El archivo no tiene la hoja "Otra".');
  });

  it('stops inflating a 400 MB cell at the limit, whatever size the zip declares, with bounded memory', async () => {
    const bomb = await xlsxBomb(400);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = process.resourceUsage().maxRSS;
    const cpu = process.cpuUsage();
    const refused = parsePaymentFile(bomb, { format: 'xlsx', hasHeader: false, columns: { creditId: 1, amount: 2 } });
    await expect(refused).rejects.toBeInstanceOf(SpreadsheetLimitError);
    await expect(refused).rejects.toThrow('El archivo descomprimido ocupa más de 50 MB, el máximo que se lee.');
    // The process's peak memory grew by less than the cap and a margin, not by the 400 MB the cell would take.
    expect((process.resourceUsage().maxRSS - before) / 1024).toBeLessThan(120);
    // Processor time, not the wall clock, which a busy machine stretches: inflating the 400 MB would cost far more.
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(5_000);
    // The same bomb declaring a 1 KB sheet is refused the same way: no declared size is believed.
    await expect(
      parsePaymentFile(await xlsxBomb(400, { lie: true }), { format: 'xlsx', hasHeader: false, columns: { creditId: 1, amount: 2 } }),
    ).rejects.toThrow(limitMessages().uncompressed);
  });

  it('reads the hand-made minimal workbook the limit tests use, so they fail for the limit and nothing else', async () => {
    const { rows } = await parsePaymentFile(
      minimalXlsx(
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>CR-1</t></is></c><c r="B1"><v>150.5</v></c></row></sheetData></worksheet>',
      ),
      { format: 'xlsx', sheet: 'Descuentos', hasHeader: false, columns: { creditId: 1, amount: 2 } },
    );
    expect(rows.map((row) => row.fields)).toEqual([{ creditId: 'CR-1', amount: '150.50' }]);
  });

  it('refuses a cell with more characters than it reads, in every format', async () => {
    const sheet = (rows: string) =>
      minimalXlsx(
        `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`,
      );
    const layout: Layout = { format: 'xlsx', hasHeader: false, columns: { creditId: 1, amount: 2 } };
    await expect(
      parsePaymentFile(sheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>${'9'.repeat(1_001)}</t></is></c></row>`), layout),
    ).rejects.toThrow('Una celda del archivo tiene más de 1,000 caracteres, el máximo que se lee por celda.');
    // A shared string is a cell's text too, and a real workbook from exceljs is checked the same way.
    await expect(parsePaymentFile(await workbook([['CR-1', 'x'.repeat(1_001)]]), layout)).rejects.toThrow(limitMessages().cell);
    await expect(
      parsePaymentFile(Buffer.from(`CR-1,${'1'.repeat(1_001)}\n`), {
        format: 'csv',
        delimiter: ',',
        hasHeader: false,
        columns: { creditId: 1, amount: 2 },
      }),
    ).rejects.toThrow(limitMessages().cell);
  });

  it('reads up to 100,000 data rows and refuses one more, in every format, the header not counted', async () => {
    const csv = (hasHeader: boolean): Layout => ({ format: 'csv', delimiter: ',', hasHeader, columns: { creditId: 1, amount: 2 } });
    const { rows } = await parsePaymentFile(Buffer.from(`folio,importe\n${'CR-1,1\n'.repeat(100_000)}`), csv(true));
    expect(rows).toHaveLength(100_000);
    expect(rows.at(-1)!.line).toBe(100_001);
    const refusedCsv = parsePaymentFile(Buffer.from(`folio,importe\n${'CR-1,1\n'.repeat(100_001)}`), csv(true));
    await expect(refusedCsv).rejects.toBeInstanceOf(SpreadsheetLimitError);
    await expect(refusedCsv).rejects.toThrow(ROW_LIMIT);
    await expect(
      parsePaymentFile(Buffer.from(`${'CR-1000000001'.padEnd(12)}000000012550\n`.repeat(100_001)), {
        format: 'fixed',
        positions: { creditId: { start: 1, length: 12 }, amount: { start: 13, length: 12 } },
      }),
    ).rejects.toThrow(ROW_LIMIT);
    // A sheet whose rows the zip scan already counts past the header and the limit, and one read whole and counted after.
    const sheet = (count: number) =>
      minimalXlsx(
        `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${Array.from({ length: count }, (_, index) => `<row r="${index + 1}"><c r="A${index + 1}"><v>7</v></c></row>`).join('')}</sheetData></worksheet>`,
      );
    const xlsx = (hasHeader: boolean): Layout => ({ format: 'xlsx', hasHeader, columns: { creditId: 1, amount: 1 } });
    await expect(parsePaymentFile(sheet(100_002), xlsx(true))).rejects.toThrow(ROW_LIMIT);
    await expect(parsePaymentFile(sheet(100_001), xlsx(false))).rejects.toThrow(ROW_LIMIT);
  });

  it('reads a Latin-1 / Windows-1252 csv and says so', async () => {
    const layout: Layout = { format: 'csv', delimiter: ';', hasHeader: true, columns: { employeeNumber: 1, reference: 2, amount: 3 } };
    const file = Buffer.concat([
      Buffer.from('empleado;nombre;importe\r\n1001;Núñez Peña;1250.50\r\n1002;', 'latin1'),
      Buffer.from([0x93, 0x4f, 0x94, 0x20, 0x80]),
      Buffer.from(';99\r\n'),
    ]);
    const { rows, encoding } = await parsePaymentFile(file, layout);
    expect(encoding).toBe('windows-1252');
    // 0x93, 0x94 and 0x80 are Windows-1252's curly quotes and euro sign (in ISO-8859-1 they would be control characters).
    expect(rows.map((row) => row.fields)).toEqual([
      { employeeNumber: '1001', reference: 'Núñez Peña', amount: '1250.50' },
      { employeeNumber: '1002', reference: '\u201cO\u201d \u20ac', amount: '99.00' },
    ]);
    expect(rows[0]!.raw).toBe('1001;Núñez Peña;1250.50');
  });

  it('reads a Latin-1 fixed-width file, positions counting its bytes', async () => {
    const layout = layoutSchema.parse({
      format: 'fixed',
      positions: { creditId: { start: 1, length: 8 }, reference: { start: 9, length: 12 }, amount: { start: 21, length: 10 } },
    });
    const { rows, encoding } = await parsePaymentFile(
      Buffer.from('CR-00001Muñoz Ibáñez0000012550\nCR-00002Peña        0000000100\n', 'latin1'),
      layout,
    );
    expect(encoding).toBe('windows-1252');
    expect(rows.map((row) => row.fields)).toEqual([
      { creditId: 'CR-00001', reference: 'Muñoz Ibáñez', amount: '125.50' },
      { creditId: 'CR-00002', reference: 'Peña', amount: '1.00' },
    ]);
  });

  it('drops a UTF-8 byte-order mark, also before a file that then turns out not to be UTF-8', async () => {
    const layout: Layout = { format: 'csv', delimiter: ',', hasHeader: false, columns: { creditId: 1, reference: 2, amount: 3 } };
    const utf8 = await parsePaymentFile(Buffer.from('\uFEFFCR-1,Peña,10\n', 'utf8'), layout);
    expect(utf8).toMatchObject({
      encoding: 'utf-8',
      rows: [{ line: 1, raw: 'CR-1,Peña,10', fields: { creditId: 'CR-1', reference: 'Peña', amount: '10.00' } }],
    });
    const mixed = await parsePaymentFile(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('CR-1,Peña,10\n', 'latin1')]), layout);
    expect(mixed).toMatchObject({
      encoding: 'windows-1252',
      rows: [{ raw: 'CR-1,Peña,10', fields: { creditId: 'CR-1', reference: 'Peña' } }],
    });
  });

  it.each(LAYOUT_FIELDS.map((field, index) => [field, ['=', '+', '-', '@'][index % 4]!] as const))(
    'refuses a formula-like %s in a csv ("%s…"), naming the field',
    async (field, start) => {
      const layout: Layout = {
        format: 'csv',
        delimiter: ',',
        hasHeader: false,
        columns: { creditId: 1, employeeNumber: 2, curpRfc: 3, amount: 4, period: 5, reference: 6, movement: 7 },
      };
      // The columns follow LAYOUT_FIELDS' order.
      const cells = ['CR-1', '1001', 'GORS800101HJCNMN09', '150.00', '2026-21', 'REF-9', 'N'];
      cells[LAYOUT_FIELDS.indexOf(field)] = `"  ${start}HYPERLINK(""http://x"",""y"")"`;
      const { rows } = await parsePaymentFile(Buffer.from(`${cells.join(',')}\n`), layout);
      const labels = {
        creditId: 'Folio del crédito',
        employeeNumber: 'Número de empleado',
        curpRfc: 'CURP o RFC',
        amount: 'Importe',
        period: 'Periodo',
        reference: 'Referencia',
        movement: 'Movimiento (cédula)',
      };
      expect(rows[0]!.errors).toEqual([`${labels[field]}: empieza con "${start}", parece una fórmula y no se acepta.`]);
      expect(rows[0]!.fields[field]).toBeUndefined();
      expect(rows[0]!.amountInvalid).toBe(field === 'amount');
    },
  );

  it('refuses formula-like text in a fixed-width field and in an xlsx text cell', async () => {
    const { rows: fixed } = await parsePaymentFile(Buffer.from(fixedLine('=1+1', 'GORS800101HJCNMN09', '100', '202621')), fixedLayout);
    expect(fixed[0]!.errors).toEqual(['Folio del crédito: empieza con "=", parece una fórmula y no se acepta.']);
    const { rows: xlsx } = await parsePaymentFile(
      await workbook([
        ['CR-1', '@SUMA(A1)'],
        ['+CR-2', 10],
      ]),
      { format: 'xlsx', hasHeader: false, columns: { creditId: 1, amount: 2 } },
    );
    expect(xlsx.map((row) => [row.errors, row.amountInvalid])).toEqual([
      [['Importe: empieza con "@", parece una fórmula y no se acepta.'], true],
      [['Folio del crédito: empieza con "+", parece una fórmula y no se acepta.'], false],
    ]);
  });

  it('refuses an xlsx cell that is a formula, plain or shared, instead of using its cached result', async () => {
    const content = await workbook([
      ['CR-1', { formula: 'C1*2', result: 200 }, 100],
      [{ formula: '"CR-"&2', result: 'CR-2' }, 50, 0],
      ['CR-3', 70, { formula: 'B3+1', result: 71 }],
    ]);
    const { rows } = await parsePaymentFile(content, { format: 'xlsx', hasHeader: false, columns: { creditId: 1, amount: 2 } });
    expect(rows.map((row) => [row.raw, row.errors, row.amountInvalid])).toEqual([
      ['CR-1 | =C1*2 | 100', ['Importe: la celda es una fórmula y no se acepta; copia y pega solo los valores.'], true],
      ['="CR-"&2 | 50 | 0', ['Folio del crédito: la celda es una fórmula y no se acepta; copia y pega solo los valores.'], false],
      // A formula in a column the layout does not read does no harm.
      ['CR-3 | 70 | =B3+1', [], false],
    ]);
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Hoja');
    sheet.getCell('A1').value = 'CR-1';
    sheet.getCell('B1').value = { formula: '10*2', result: 20 };
    sheet.getCell('A2').value = 'CR-2';
    sheet.getCell('B2').value = { sharedFormula: 'B1', result: 20 };
    const shared = await parsePaymentFile(Buffer.from(await book.xlsx.writeBuffer()), {
      format: 'xlsx',
      hasHeader: false,
      columns: { creditId: 1, amount: 2 },
    });
    expect(shared.rows.map((row) => row.amountInvalid)).toEqual([true, true]);
    expect(shared.rows[1]!.errors).toEqual(['Importe: la celda es una fórmula y no se acepta; copia y pega solo los valores.']);
  });

  it.each([
    ['1250.5', false, '1250.50', []],
    ['$ 1,250.50', false, '1250.50', []],
    ['9,999,999.99', false, '9999999.99', []],
    // Above the most one row may pay: a typo (a file of such rows would add up past what the database keeps).
    ['10,000,000.00', false, '10,000,000.00', ['El importe "10,000,000.00" pasa del máximo por fila, $9,999,999.99.']],
    ['999,999,999,999.99', false, '999,999,999,999.99', ['El importe "999,999,999,999.99" pasa del máximo por fila, $9,999,999.99.']],
    ['1000000000', true, '1000000000', ['El importe "1000000000" pasa del máximo por fila, $9,999,999.99.']],
    ['0000001250.50', false, '1250.50', []],
    ['', false, undefined, ['Falta el importe.']],
    ['abc', false, 'abc', ['Importe no válido: "abc".']],
    ['0', false, '0.00', ['El importe es cero.']],
    ['-150.00', false, '-150.00', ['El importe es negativo: "-150.00".']],
    ['=150', false, undefined, ['Importe: empieza con "=", parece una fórmula y no se acepta.']],
    ['+150', false, undefined, ['Importe: empieza con "+", parece una fórmula y no se acepta.']],
    // A decimal comma is not taken for thousands (1250,50 would otherwise read as 125,050.00).
    ['1250,50', false, '1250,50', ['Importe no válido: "1250,50".']],
    ['1,25', false, '1,25', ['Importe no válido: "1,25".']],
    ['1.234', false, '1.234', ['Importe no válido: "1.234".']],
    ['1000000000000', false, '1000000000000', ['Importe no válido: "1000000000000".']],
    ['125050', true, '1250.50', []],
    ['000000000099', true, '0.99', []],
    ['12.50', true, '12.50', ['Importe no válido: "12.50".']],
    ['000', true, '0.00', ['El importe es cero.']],
  ] as const)('reads the amount "%s" (centavos: %s) as %s', async (amount, amountInCents, read, errors) => {
    const layout: Layout = { format: 'csv', delimiter: '|', hasHeader: false, amountInCents, columns: { creditId: 1, amount: 2 } };
    const { rows } = await parsePaymentFile(Buffer.from(`CR-1|${amount}\n`), layout);
    expect(rows[0]!.fields.amount).toBe(read);
    expect(rows[0]!.errors).toEqual(errors);
    expect(rows[0]!.amountInvalid).toBe(errors.length > 0);
  });

  it('refuses a file with nothing to read after the header', async () => {
    const layout: Layout = { format: 'csv', delimiter: ',', hasHeader: true, columns: { creditId: 1, amount: 2 } };
    for (const content of ['', '\r\n  \n\t\n', 'folio,importe', '\n\nfolio,importe\r\n \r\n']) {
      const refused = parsePaymentFile(Buffer.from(content), layout);
      await expect(refused, JSON.stringify(content)).rejects.toBeInstanceOf(LayoutFileError);
      await expect(refused).rejects.toThrow(NO_DATA);
    }
    await expect(parsePaymentFile(Buffer.alloc(0), fixedLayout)).rejects.toThrow(NO_DATA);
    await expect(
      parsePaymentFile(await workbook([['Folio', 'Importe'], [], ['  ', null]]), {
        format: 'xlsx',
        hasHeader: true,
        columns: { creditId: 1, amount: 2 },
      }),
    ).rejects.toThrow(NO_DATA);
  });

  it('refuses a file that is not the format the agreement expects, saying which one it expects', async () => {
    const csv: Layout = { format: 'csv', delimiter: ';', hasHeader: false, columns: { creditId: 1, amount: 2 } };
    const xlsx: Layout = { format: 'xlsx', hasHeader: false, columns: { creditId: 1, amount: 2 } };
    const cases: [Buffer, Layout, string][] = [
      [
        Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'),
        csv,
        'El archivo es un PDF; el convenio espera un archivo CSV separado por punto y coma.',
      ],
      [
        Buffer.from([0x43, 0x52, 0x2d, 0x31, 0x00, 0x9a, 0xff, 0x0a, 0x31, 0x32]),
        fixedLayout,
        'El archivo no es un archivo de texto; el convenio espera un archivo de texto de ancho fijo.',
      ],
      [
        await workbook([['CR-1', 10]]),
        csv,
        'El archivo es un Excel (.xlsx) u otro archivo comprimido; el convenio espera un archivo CSV separado por punto y coma.',
      ],
      [
        Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
        csv,
        'El archivo es un Excel antiguo (.xls) u otro documento de Office; el convenio espera un archivo CSV separado por punto y coma.',
      ],
      [
        Buffer.from('\uFEFFCR-1;10\n', 'utf16le'),
        csv,
        'El archivo está en UTF-16 («Texto Unicode»); guárdalo como CSV UTF-8; el convenio espera un archivo CSV separado por punto y coma.',
      ],
      [Buffer.from('CR-1,10\nCR-2,20\n'), xlsx, 'El archivo es un archivo de texto; el convenio espera un Excel (.xlsx).'],
      [Buffer.from('%PDF-1.4\n'), xlsx, 'El archivo es un PDF; el convenio espera un Excel (.xlsx).'],
      [Buffer.from('no soy excel\0'), xlsx, 'El archivo no es un Excel (.xlsx) válido, que es lo que espera el convenio.'],
    ];
    for (const [content, layout, message] of cases) {
      const refused = parsePaymentFile(content, layout);
      await expect(refused, message).rejects.toBeInstanceOf(LayoutFileError);
      await expect(refused).rejects.toThrow(message);
    }
  });

  it('keeps a line with an unclosed quote as one row with its error, and the lines after it as their own rows', async () => {
    const { rows } = await parsePaymentFile(Buffer.from('CR-1,"100\nCR-2,200\nCR-3,"3""00"\n'), {
      format: 'csv',
      delimiter: ',',
      hasHeader: false,
      columns: { creditId: 1, amount: 2 },
    });
    expect(rows.map((row) => [row.line, row.fields.creditId, row.errors])).toEqual([
      [1, 'CR-1', ['Hay comillas sin cerrar en la línea.']],
      [2, 'CR-2', []],
      [3, 'CR-3', ['Importe no válido: "3"00".']],
    ]);
  });

  it('refuses a layout that cannot identify the credit', () => {
    const result = layoutSchema.safeParse({ format: 'csv', delimiter: ';', hasHeader: false, columns: { amount: 2 } });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toBe('El layout debe leer el folio del crédito o el número de empleado.');
  });

  it('splits quoted cells with embedded delimiters and quotes, and says when a quote is left open', () => {
    expect(splitCsvLine('a;"b;c";"d ""e"""', ';')).toEqual({ cells: ['a', 'b;c', 'd "e"'], unclosedQuote: false });
    expect(splitCsvLine('a; "b;c', ';')).toEqual({ cells: ['a', 'b;c'], unclosedQuote: true });
  });
});
