import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Layout, LayoutField } from '@portal/contract';
import { LayoutFileError, parsePaymentFile, splitCsvLine, type ParsedPaymentFile, type ParsedRow } from './layout-parser';
import { SpreadsheetLimitError } from '../../lib/xlsx-read';

/**
 * Generated payment files, well-formed and broken, against the parser's promises: it answers rows or refuses the file
 * with a Spanish message (never another error), one row per non-blank data line the generator wrote, on the line it
 * wrote it, and a row without errors has a positive amount and a way to find the credit. Where the generator knows
 * what a line means (it rendered the amount from centavos), the row must say exactly that.
 */

/** What the generator put in a field: a clean value, nothing, a formula, an invalid amount, or anything at all. */
type State = 'ok' | 'empty' | 'formula' | 'bad' | 'junk';
interface Value {
  text: string;
  state: State;
  cents?: bigint;
}
/** What a written line must come back as; undefined where the generator cannot know (junk, a wrong delimiter). */
interface Expected {
  valid: boolean;
  amountInvalid: boolean;
  cents?: bigint;
  unclosedQuote?: boolean;
}
interface Line {
  text: string;
  expected?: Expected;
}

const NO_DATA = 'El archivo no tiene filas de datos.';
/** Characters every generated text file may hold: ASCII, Spanish letters and a no-break space, all in Latin-1 outside 0x80–0x9F. */
const CHARS = [...'AZaz09 .,;|\t"=+-@$\'()áéíóúñÑüÁÉÍÓÚ\u00a0'];

const pesos = (cents: bigint, style: number): string => {
  const whole = cents / 100n;
  const fraction = cents % 100n;
  const decimals =
    style & 1 || fraction % 10n !== 0n ? `.${String(fraction).padStart(2, '0')}` : fraction === 0n ? '' : `.${fraction / 10n}`;
  return `${style & 2 ? '$' : ''}${style & 4 ? whole.toLocaleString('en-US') : String(whole)}${decimals}`;
};

const junk = (maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...CHARS), maxLength }).map((text): Value => ({ text, state: 'junk' }));
const formula = fc
  .constantFrom('=1+1', '+52 55 1234', '-2+3', '@SUMA(A1)', '=HYPERLINK("http://x","y")', ' =1', "=cmd|' /C calc'!A0")
  .map((text): Value => ({ text, state: 'formula' }));
const empty = fc.constantFrom('', '  ').map((text): Value => ({ text, state: 'empty' }));
const identifier = fc.oneof(
  fc.integer({ min: 1, max: 999_999 }).map((n): Value => ({ text: `CR-${n}`, state: 'ok' })),
  fc.integer({ min: 1, max: 99_999 }).map((n): Value => ({ text: String(n), state: 'ok' })),
);
const name = fc
  .constantFrom('Núñez Peña', 'Ana Gómez', 'Íñigo', 'GORS800101HJCNMN09', '2026-21')
  .map((text): Value => ({ text, state: 'ok' }));

/** The most one row may pay, $9,999,999.99: the rule stated again here, so that the parser is checked against it. */
const MOST_CENTS = 999_999_999n;

/** An amount field: up to the most a row may pay it is read, above it (up to what the field can hold) refused. */
function amount(inCents: boolean, maxCents: bigint, maxLength: number): fc.Arbitrary<Value> {
  const cents = fc.bigInt({ min: 1n, max: MOST_CENTS });
  const tooMuch = fc.bigInt({ min: MOST_CENTS + 1n, max: maxCents });
  const valid = inCents
    ? fc.tuple(cents, fc.boolean()).map(([value, padded]): Value => ({
        text: padded ? String(value).padStart(maxLength, '0') : String(value),
        state: 'ok',
        cents: value,
      }))
    : fc.tuple(cents, fc.nat(7)).map(([value, style]): Value => ({ text: pesos(value, style), state: 'ok', cents: value }));
  const bad = inCents
    ? fc.oneof(
        fc.constantFrom('0', '000', '12.50', '1,250', 'abc', '1e5', '1'.padEnd(15, '0')),
        cents.map((value) => `-${value}`),
        tooMuch.map(String),
      )
    : fc.oneof(
        fc.constantFrom('0', '0.00', '$0', '1250,50', '1,25', '1.234', 'abc', '1e5', '12,3456.00', '1'.padEnd(14, '0')),
        cents.map((value) => `-${pesos(value, 1)}`),
        fc.tuple(tooMuch, fc.nat(7)).map(([value, style]) => pesos(value, style)),
      );
  return fc.oneof(
    { weight: 5, arbitrary: valid },
    { weight: 2, arbitrary: bad.map((text): Value => ({ text, state: 'bad' })) },
    { weight: 1, arbitrary: formula },
    { weight: 1, arbitrary: empty },
    { weight: 1, arbitrary: junk(maxLength) },
  );
}

const field = (clean: fc.Arbitrary<Value>, maxLength: number) =>
  fc.oneof(
    { weight: 6, arbitrary: clean },
    { weight: 1, arbitrary: empty },
    { weight: 1, arbitrary: formula },
    { weight: 1, arbitrary: junk(maxLength) },
  );

/** What the parser must make of a line whose fields the generator chose. */
function expectation(values: Partial<Record<LayoutField, Value>>): Expected | undefined {
  const all = Object.values(values);
  if (all.some((value) => value.state === 'junk')) return undefined;
  const amountOk = values.amount!.state === 'ok';
  const identified = values.creditId?.state === 'ok' || values.employeeNumber?.state === 'ok';
  return {
    valid: amountOk && identified && !all.some((value) => value.state === 'formula'),
    amountInvalid: !amountOk,
    cents: values.amount!.cents,
  };
}

const blank = fc.constantFrom('', ' ', '  \t ', '\u00a0').map((text): Line => ({ text }));

interface TextCase {
  layout: Layout;
  header?: string;
  leadingBlanks: string[];
  lines: Line[];
  separator: '\n' | '\r\n' | '\r' | 'mixed';
  trailingBreak: boolean;
  encoding: 'utf8' | 'utf8-bom' | 'latin1';
}

const textFile = (
  layout: fc.Arbitrary<Layout>,
  header: (layout: Layout) => string | undefined,
  line: (layout: Layout) => fc.Arbitrary<Line>,
): fc.Arbitrary<TextCase> =>
  layout.chain((chosen) =>
    fc.record({
      layout: fc.constant(chosen),
      header: fc.constant(header(chosen)),
      leadingBlanks: fc.array(
        blank.map((row) => row.text),
        { maxLength: 2 },
      ),
      lines: fc.array(fc.oneof({ weight: 6, arbitrary: line(chosen) }, { weight: 1, arbitrary: blank }), { maxLength: 8 }),
      separator: fc.constantFrom('\n', '\r\n', '\r', 'mixed'),
      trailingBreak: fc.boolean(),
      encoding: fc.constantFrom('utf8', 'utf8-bom', 'latin1'),
    }),
  );

/** The bytes, and each non-blank data line with the line number an editor shows for it. */
function render(file: TextCase, breaks: boolean[]): { content: Buffer; data: (Line & { line: number })[]; ascii: boolean } {
  const physical = [
    ...file.leadingBlanks.map((text): Line => ({ text })),
    ...(file.header === undefined ? [] : [{ text: file.header }]),
    ...file.lines,
  ];
  const separator = (index: number) => (file.separator === 'mixed' ? (breaks[index % breaks.length] ? '\r\n' : '\n') : file.separator);
  const text = physical
    .map((row, index) => (index < physical.length - 1 || file.trailingBreak ? row.text + separator(index) : row.text))
    .join('');
  const numbered = physical.map((row, index) => ({ ...row, line: index + 1 })).filter((row) => row.text.trim() !== '');
  const data = file.header === undefined ? numbered : numbered.slice(1);
  const content =
    file.encoding === 'latin1' ? Buffer.from(text, 'latin1') : Buffer.from(file.encoding === 'utf8-bom' ? `\uFEFF${text}` : text, 'utf8');
  return { content, data, ascii: [...text].every((char) => char.charCodeAt(0) < 0x80) };
}

/** Refused only as the parser promises: its own error types, with a message a clerk can read. */
function expectSpanishRefusal(error: unknown): void {
  if (!(error instanceof LayoutFileError || error instanceof SpreadsheetLimitError)) throw error;
  expect(error.message).toMatch(/^(El|Una) (hoja del |celda del )?archivo .+\.$/);
}

async function parse(content: Buffer, layout: Layout): Promise<ParsedPaymentFile | undefined> {
  try {
    return await parsePaymentFile(content, layout);
  } catch (error) {
    expectSpanishRefusal(error);
    return undefined;
  }
}

/** What holds for every row: an accepted row has a positive amount in pesos and a way to find the credit. */
function expectRowInvariants(row: ParsedRow): void {
  if (row.errors.length === 0) {
    expect(row.fields.amount).toMatch(/^\d+\.\d{2}$/);
    expect(Number(row.fields.amount)).toBeGreaterThan(0);
    expect(row.fields.creditId ?? row.fields.employeeNumber).toBeTruthy();
    expect(row.amountInvalid).toBe(false);
  }
  if (row.amountInvalid) expect(row.errors.length).toBeGreaterThan(0);
  expect(row.errors.every((error) => error.length > 0)).toBe(true);
}

function expectLine(row: ParsedRow, expected: Expected | undefined): void {
  expectRowInvariants(row);
  if (!expected) return;
  if (expected.unclosedQuote) {
    expect(row.errors).toContain('Hay comillas sin cerrar en la línea.');
    return;
  }
  expect(row.amountInvalid).toBe(expected.amountInvalid);
  expect(row.errors.length === 0).toBe(expected.valid);
  if (expected.cents !== undefined)
    expect(row.fields.amount).toBe(`${expected.cents / 100n}.${String(expected.cents % 100n).padStart(2, '0')}`);
}

/** A line that falls short of the layout: fewer cells than its last column, or ending before the amount does. */
function short(text: string, layout: Layout): boolean {
  if (layout.format === 'csv') {
    const columns: Partial<Record<LayoutField, number>> = layout.columns;
    return splitCsvLine(text, layout.delimiter).cells.length < Math.max(...Object.values(columns).map((column) => column ?? 0));
  }
  if (layout.format === 'fixed') return text.length < layout.positions.amount.start - 1 + layout.positions.amount.length;
  return false;
}

async function checkTextFile(file: TextCase, breaks: boolean[]): Promise<void> {
  const { content, data, ascii } = render(file, breaks);
  const parsed = await parse(content, file.layout);
  if (data.length === 0) {
    await expect(parsePaymentFile(content, file.layout)).rejects.toThrow(NO_DATA);
    return;
  }
  // A file none of whose lines reaches the layout's last column (csv) or the amount's end (fixed) is refused whole. The
  // text read back is the text written unless a Latin-1 file happened to be valid UTF-8: then either may happen.
  const sure = file.encoding !== 'latin1' || ascii;
  if (data.every((row) => short(row.text, file.layout))) {
    if (sure)
      await expect(parsePaymentFile(content, file.layout)).rejects.toThrow(
        /^El archivo no tiene la forma del layout del convenio en ninguna línea: /,
      );
    return;
  }
  if (!sure && parsed === undefined) return;
  expect(parsed).toBeDefined();
  const { rows, encoding } = parsed!;
  expect(rows.map((row) => row.line)).toEqual(data.map((row) => row.line));
  if (file.encoding !== 'latin1') expect(encoding).toBe('utf-8');
  // A Latin-1 file that happens to be valid UTF-8 reads as UTF-8; any other file reads back the text written.
  const exact = file.encoding !== 'latin1' || encoding === 'windows-1252' || ascii;
  if (exact) expect(rows.map((row) => row.raw)).toEqual(data.map((row) => row.text));
  rows.forEach((row, index) => expectLine(row, exact ? data[index]!.expected : undefined));
}

const DELIMITERS = [',', ';', '|', '\t'] as const;
const CSV_FIELDS: LayoutField[] = ['creditId', 'employeeNumber', 'curpRfc', 'amount', 'period', 'reference'];

const csvLayout: fc.Arbitrary<Layout> = fc
  .record({
    delimiter: fc.constantFrom(...DELIMITERS),
    hasHeader: fc.boolean(),
    amountInCents: fc.boolean(),
    fields: fc.shuffledSubarray(['employeeNumber', 'curpRfc', 'period', 'reference'] satisfies LayoutField[]),
    columns: fc.shuffledSubarray([1, 2, 3, 4, 5, 6, 7], { minLength: 7 }),
  })
  .map(({ delimiter, hasHeader, amountInCents, fields, columns }): Layout => {
    const read: { amount: number } & Partial<Record<LayoutField, number>> = { creditId: columns[0]!, amount: columns[1]! };
    fields.forEach((key, index) => {
      read[key] = columns[index + 2]!;
    });
    return { format: 'csv', delimiter, hasHeader, amountInCents, columns: read };
  });

/** RFC 4180 as a spreadsheet writes it: a cell holding the delimiter or a quote is quoted, its quotes doubled. */
const csvCell = (text: string, delimiter: string) =>
  text.includes(delimiter) || text.includes('"') ? `"${text.replaceAll('"', '""')}"` : text;

function csvLine(layout: Layout): fc.Arbitrary<Line> {
  if (layout.format !== 'csv') throw new Error('csv layout expected');
  const columns: Partial<Record<LayoutField, number>> = layout.columns;
  const width = Math.max(...CSV_FIELDS.map((key) => columns[key] ?? 0));
  const generated = fc.record({
    creditId: field(identifier, 12),
    employeeNumber: field(identifier, 12),
    curpRfc: field(name, 12),
    amount: amount(layout.amountInCents ?? false, 999_999_999_999_99n, 18),
    period: field(name, 12),
    reference: field(name, 12),
    movement: field(name, 12),
  });
  const cells = generated.map((all) => {
    const texts = Array.from({ length: width }, () => 'Ana Núñez');
    const values: Partial<Record<LayoutField, Value>> = {};
    for (const key of CSV_FIELDS) {
      const column = columns[key];
      if (column === undefined) continue;
      values[key] = all[key];
      texts[column - 1] = all[key].text;
    }
    return { values, texts };
  });
  const otherDelimiter = fc.constantFrom(...DELIMITERS.filter((delimiter) => delimiter !== layout.delimiter));
  return fc.oneof(
    {
      weight: 8,
      arbitrary: cells.map(({ values, texts }): Line => ({
        text: texts.map((text) => csvCell(text, layout.delimiter)).join(layout.delimiter),
        expected: expectation(values),
      })),
    },
    {
      weight: 1,
      arbitrary: cells.map(({ texts }): Line => ({
        text: `${texts.map((text) => csvCell(text, layout.delimiter)).join(layout.delimiter)}${layout.delimiter}"abierta`,
        expected: { valid: false, amountInvalid: true, unclosedQuote: true },
      })),
    },
    { weight: 1, arbitrary: fc.tuple(cells, otherDelimiter).map(([{ texts }, delimiter]): Line => ({ text: texts.join(delimiter) })) },
    { weight: 1, arbitrary: junk(40).map(({ text }): Line => ({ text })) },
  );
}

const csvHeader = (layout: Layout) =>
  layout.format === 'csv' && layout.hasHeader ? ['folio', 'empleado', 'importe'].join(layout.delimiter) : undefined;

/** Fixed width: folio, name, amount and period one after the other, the widths drawn per file. */
const fixedLayout: fc.Arbitrary<Layout> = fc
  .record({
    creditWidth: fc.integer({ min: 10, max: 12 }),
    nameWidth: fc.integer({ min: 4, max: 14 }),
    amountWidth: fc.integer({ min: 15, max: 16 }),
    amountInCents: fc.boolean(),
  })
  .map(({ creditWidth, nameWidth, amountWidth, amountInCents }): Layout => ({
    format: 'fixed',
    amountInCents,
    positions: {
      creditId: { start: 1, length: creditWidth },
      reference: { start: creditWidth + 1, length: nameWidth },
      amount: { start: creditWidth + nameWidth + 1, length: amountWidth },
      period: { start: creditWidth + nameWidth + amountWidth + 1, length: 6 },
    },
  }));

function fixedLine(layout: Layout): fc.Arbitrary<Line> {
  if (layout.format !== 'fixed') throw new Error('fixed layout expected');
  const {
    creditId,
    reference,
    amount: amountAt,
  } = layout.positions as Record<'creditId' | 'reference' | 'amount', { start: number; length: number }>;
  const values = fc.record({
    creditId: field(identifier, creditId.length),
    reference: field(name, reference.length),
    amount: amount(layout.amountInCents ?? true, 99_999_999_999n, amountAt.length),
    padWithZeros: fc.boolean(),
  });
  const line = values.map(({ creditId: credit, reference: person, amount: money, padWithZeros }) => {
    const padded = money.state === 'ok' && padWithZeros ? money.text.padStart(amountAt.length, '0') : money.text.padStart(amountAt.length);
    const text = `${credit.text.padEnd(creditId.length)}${person.text.padEnd(reference.length).slice(0, reference.length)}${padded}202621`;
    // A name cut to its width keeps its first character, so a formula stays one.
    const fits =
      credit.text.length <= creditId.length &&
      money.text.length <= amountAt.length &&
      !(padded.startsWith('0') && money.text.startsWith('$'));
    return { text, expected: fits ? expectation({ creditId: credit, reference: person, amount: money }) : undefined };
  });
  const amountEnd = amountAt.start - 1 + amountAt.length;
  return fc.oneof(
    { weight: 8, arbitrary: line },
    // Cut inside the amount: refused as an amount problem, never read as a smaller amount.
    {
      weight: 1,
      arbitrary: fc.tuple(line, fc.integer({ min: 1, max: amountAt.length - 1 })).map(([{ text }, cut]): Line => ({
        text: text.slice(0, amountEnd - cut),
        expected: { valid: false, amountInvalid: true },
      })),
    },
    { weight: 1, arbitrary: junk(40).map(({ text }): Line => ({ text })) },
  );
}

describe('payment-file parser, fuzzed', () => {
  it('keeps its promises on 10,000 generated csv files, broken ones included', async () => {
    await fc.assert(
      fc.asyncProperty(textFile(csvLayout, csvHeader, csvLine), fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }), checkTextFile),
      { numRuns: 10_000 },
    );
  });

  it('keeps its promises on 10,000 generated fixed-width files, broken ones included', async () => {
    await fc.assert(
      fc.asyncProperty(
        textFile(fixedLayout, () => undefined, fixedLine),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
        checkTextFile,
      ),
      { numRuns: 10_000 },
    );
  });

  it('answers rows or a Spanish refusal for 10,000 files of random bytes, in order and each row sound', async () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      // Text-like bytes (no NUL) so that most files get past the format check and are read.
      fc.uint8Array({ minLength: 1, maxLength: 200 }).map((array) => array.map((byte) => (byte === 0 ? 0x0a : byte))),
    );
    await fc.assert(
      fc.asyncProperty(bytes, fc.oneof(csvLayout, fixedLayout), async (array, layout) => {
        const parsed = await parse(Buffer.from(array), layout);
        if (!parsed) return;
        expect(parsed.rows.length).toBeGreaterThan(0);
        parsed.rows.forEach((row, index) => {
          if (index > 0) expect(row.line).toBeGreaterThan(parsed.rows[index - 1]!.line);
          expect(row.raw.trim()).not.toBe('');
          expectRowInvariants(row);
        });
      }),
      { numRuns: 10_000 },
    );
  });

  it('keeps its promises on 300 generated workbooks, formulas, dates and negative numbers included', async () => {
    const folio = fc.oneof(
      identifier.map((value): [ExcelJS.CellValue, Value] => [value.text, value]),
      fc.constant<[ExcelJS.CellValue, Value]>([
        { formula: '"CR-"&1', result: 'CR-1' },
        { text: '', state: 'formula' },
      ]),
      formula.map((value): [ExcelJS.CellValue, Value] => [value.text, value]),
      fc.constant<[ExcelJS.CellValue, Value]>([null, { text: '', state: 'empty' }]),
    );
    const cents = fc.bigInt({ min: 1n, max: MOST_CENTS });
    const tooMuch = fc.bigInt({ min: MOST_CENTS + 1n, max: 99_999_999_99n });
    const importe = fc.oneof(
      cents.map((value): [ExcelJS.CellValue, Value] => [Number(value) / 100, { text: '', state: 'ok', cents: value }]),
      cents.map((value): [ExcelJS.CellValue, Value] => [pesos(value, 6), { text: '', state: 'ok', cents: value }]),
      cents.map((value): [ExcelJS.CellValue, Value] => [-Number(value) / 100, { text: '', state: 'bad' }]),
      tooMuch.map((value): [ExcelJS.CellValue, Value] => [Number(value) / 100, { text: '', state: 'bad' }]),
      fc.constantFrom<[ExcelJS.CellValue, Value]>(
        [0, { text: '', state: 'bad' }],
        [1.005, { text: '', state: 'bad' }],
        [1e21, { text: '', state: 'bad' }],
        [new Date('2026-11-15T00:00:00Z'), { text: '', state: 'bad' }],
        [true, { text: '', state: 'bad' }],
        [
          { formula: 'C1*2', result: 10 },
          { text: '', state: 'formula' },
        ],
        ['=1+1', { text: '', state: 'formula' }],
        [null, { text: '', state: 'empty' }],
      ),
    );
    interface SheetRow {
      cells: ExcelJS.CellValue[];
      expected?: Expected;
    }
    const dataRow = fc
      .tuple(folio, importe, fc.constantFrom<ExcelJS.CellValue>('Núñez Peña', 7, null, { formula: 'B1+1', result: 2 }))
      .map(([[credit, creditValue], [money, moneyValue], other]): SheetRow => ({
        cells: [credit, money, other],
        expected: expectation({ creditId: creditValue, amount: moneyValue }),
      }));
    const blankRow = fc.constantFrom<SheetRow>({ cells: [] }, { cells: ['  ', null, ' '] });
    const workbookCase = fc.record({
      hasHeader: fc.boolean(),
      rows: fc.array(fc.oneof({ weight: 5, arbitrary: dataRow }, { weight: 1, arbitrary: blankRow }), { maxLength: 6 }),
    });
    await fc.assert(
      fc.asyncProperty(workbookCase, async ({ hasHeader, rows }) => {
        const book = new ExcelJS.Workbook();
        const sheet = book.addWorksheet('Descuentos');
        const written: SheetRow[] = hasHeader ? [{ cells: ['Folio', 'Importe', 'Nombre'] }, ...rows] : rows;
        written.forEach((row, index) => {
          row.cells.forEach((value, column) => {
            if (value !== null) sheet.getCell(index + 1, column + 1).value = value;
          });
        });
        const nonBlank = written
          .map((row, index) => ({ ...row, line: index + 1 }))
          .filter((row) => row.cells.some((value) => value !== null && !(typeof value === 'string' && value.trim() === '')));
        const data = hasHeader ? nonBlank.slice(1) : nonBlank;
        const content = Buffer.from(await book.xlsx.writeBuffer());
        const layout: Layout = { format: 'xlsx', hasHeader, columns: { creditId: 1, amount: 2 } };
        const parsed = await parse(content, layout);
        if (data.length === 0) {
          await expect(parsePaymentFile(content, layout)).rejects.toThrow(NO_DATA);
          return;
        }
        expect(parsed?.encoding).toBe('xlsx');
        expect(parsed!.rows.map((row) => row.line)).toEqual(data.map((row) => row.line));
        parsed!.rows.forEach((row, index) => expectLine(row, data[index]!.expected));
      }),
      { numRuns: 300 },
    );
  });
});
