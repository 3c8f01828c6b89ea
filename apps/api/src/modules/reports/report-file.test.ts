import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReportField } from '@portal/contract';
import { csvCell, sheetColumns, styleOf, writeReport, xmlText, type RawRow } from './report-file';

/**
 * The report writer puts its data rows' XML into exceljs's sheet stream itself (exceljs's addRow costs a Row, Cells and
 * value objects per cell). The reference here is exceljs's own path for the same workbook: addRow with the values
 * (dates as Date objects), one shared style object per column, commit — the code the writer replaced; the columns and
 * styles are the writer's own (they are not what is under test). Both files are unzipped and every part compared.
 */

const field = (type: ReportField['type'], index: number): ReportField => ({ key: `f${index}`, label: `${type} ${index}`, type });

async function ours(fields: readonly ReportField[], rows: readonly RawRow[], batch: number): Promise<Buffer> {
  const pieces: Buffer[] = [];
  let next = 0;
  await writeReport({
    format: 'xlsx',
    sheetName: 'Hoja',
    fields,
    next: async () => rows.slice(next, (next += batch)),
    sink: async (chunk) => void pieces.push(chunk),
  });
  return Buffer.concat(pieces);
}

/** A date `YYYY-MM-DD` as the Date exceljs is given for it: UTC midnight. */
const utcDate = (value: string) => new Date(`${value}T00:00:00Z`);

async function exceljsReference(fields: readonly ReportField[], rows: readonly RawRow[]): Promise<Buffer> {
  const pieces: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (data: Buffer) => pieces.push(data));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
    zip: { zlib: { level: 1 } },
  });
  const sheet = workbook.addWorksheet('Hoja', { views: [{ state: 'frozen', ySplit: 1, xSplit: 0, topLeftCell: 'A2', activeCell: 'A2' }] });
  sheet.columns = sheetColumns(fields);
  const header = sheet.addRow(fields.map((item) => item.label));
  const bold: Partial<ExcelJS.Style> = { font: { bold: true } };
  fields.forEach((_, index) => (header.getCell(index + 1).style = bold));
  header.commit();
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: fields.length } };
  const styles = fields.map(styleOf);
  for (const raw of rows) {
    const values = fields.map((item, index): ExcelJS.CellValue => {
      const value = raw[`c${index}`];
      if (value === null || value === undefined) return null;
      if (item.type === 'date') return utcDate(String(value));
      return item.type === 'text' ? String(value) : Number(value);
    });
    const row = sheet.addRow(values);
    fields.forEach((_, index) => (row.getCell(index + 1).style = styles[index]!));
    row.commit();
  }
  sheet.commit();
  await workbook.commit();
  await ended;
  return Buffer.concat(pieces);
}

async function parts(file: Buffer): Promise<Record<string, string>> {
  const zip = await JSZip.loadAsync(file);
  const names = Object.keys(zip.files)
    .filter((name) => !zip.files[name]!.dir)
    .sort();
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await zip.file(name)!.async('string')] as const)));
}

const TYPES: ReportField['type'][] = ['text', 'money', 'date', 'integer'];

describe('the xlsx report writer', () => {
  // Both workbooks stamp their creation time (docProps/core.xml) to the second: the same clock for both, so that two
  // writes either side of a second's turn (a slow machine) still compare byte for byte.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T12:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the same workbook as exceljs row by row: text to escape, nulls in every type, an empty row, 30 columns (AA…AD), rows across batches', async () => {
    const fields = Array.from({ length: 30 }, (_, index) => field(TYPES[index % 4]!, index));
    const texts = [
      'CR-00000001',
      'Ñandú & «Pérez» <S.A.>',
      `O'Brien "el güero"`,
      'tab\there\nline',
      'bell\u0007 and \u001f gone',
      '=SUMA(A1)',
      '  espacios  ',
      '😀 emoji',
    ];
    const rows: RawRow[] = Array.from({ length: 23 }, (_, row) =>
      Object.fromEntries(
        fields.map((item, index) => {
          const key = `c${index}`;
          if ((row + index) % 7 === 0) return [key, row % 2 ? null : undefined];
          switch (item.type) {
            case 'money':
              return [key, ['0.00', '1234.50', '-17.05', '99999999999.99'][(row + index) % 4]];
            case 'date':
              return [key, ['2026-11-25', '1999-12-31', '2024-02-29', '1900-03-01'][(row + index) % 4]];
            case 'integer':
              return [key, row % 2 ? row * index : String(row * 1000 + index)];
            default:
              return [key, texts[(row + index) % texts.length]];
          }
        }),
      ),
    );
    // A row with no value at all: exceljs leaves it out of the sheet, and so does the writer.
    rows.splice(3, 0, {});
    const [written, reference] = await Promise.all([ours(fields, rows, 5), exceljsReference(fields, rows)]);
    const [mine, theirs] = await Promise.all([parts(written), parts(reference)]);
    expect(Object.keys(mine)).toEqual(Object.keys(theirs));
    for (const name of Object.keys(theirs)) expect(mine[name], name).toBe(theirs[name]);
    // And what Excel reads back: the control characters are gone, the rest as written.
    const sheet = mine['xl/worksheets/sheet1.xml']!;
    expect(sheet).toContain('<v>Ñandú &amp; «Pérez» &lt;S.A.&gt;</v>');
    expect(sheet).toContain('<v>bell and  gone</v>');
    expect(sheet).toMatch(/<c r="AD2" s="\d+"\/>|<c r="AD2"[^>]*><v>/);
  });

  it('matches exceljs on generated rows of any text, amount, date and count', async () => {
    const fields = TYPES.map(field);
    const row = fc.record({
      c0: fc.option(fc.string({ unit: 'binary', maxLength: 12 }), { nil: null }),
      c1: fc.option(
        fc.integer({ min: -1e12, max: 1e12 }).map((cents) => (cents / 100).toFixed(2)),
        { nil: null },
      ),
      c2: fc.option(
        fc
          .date({ min: new Date('1900-03-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
          .map((date) => date.toISOString().slice(0, 10)),
        { nil: null },
      ),
      c3: fc.option(fc.integer({ min: -1e9, max: 1e9 }), { nil: null }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 5 }), async (rows, batch) => {
        const [mine, theirs] = await Promise.all([ours(fields, rows, batch).then(parts), exceljsReference(fields, rows).then(parts)]);
        expect(mine['xl/worksheets/sheet1.xml']).toBe(theirs['xl/worksheets/sheet1.xml']);
      }),
      { numRuns: 100 },
    );
  });

  it('escapes as exceljs does', () => {
    expect(xmlText('a<b>&"\'')).toBe('a&lt;b&gt;&amp;&quot;&apos;');
    expect(xmlText('keep\t\n\r drop\u0000\u0008\u000b\u000c\u000e\u001f\u007f')).toBe('keep\t\n\r drop');
    expect(xmlText('sin cambios')).toBe('sin cambios');
  });

  it('writes csv cells a spreadsheet cannot read as formulas, whatever its list separator', () => {
    const text = { type: 'text' } as const;
    expect(csvCell(text, '=SUMA(A1)')).toBe("'=SUMA(A1)");
    expect(csvCell(text, '-1+1')).toBe("'-1+1");
    expect(csvCell(text, 'a;=1+1.csv')).toBe('"a;=1+1.csv"');
    expect(csvCell(text, 'Pérez, Ana')).toBe('"Pérez, Ana"');
    expect(csvCell(text, 'dice "hola"')).toBe('"dice ""hola"""');
    expect(csvCell({ type: 'money' }, '-150.25')).toBe('-150.25');
    expect(csvCell(text, null)).toBe('');
  });
});
