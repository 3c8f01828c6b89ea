import type ExcelJS from 'exceljs';
import { loadExcel } from '../../lib/libraries';
import { LAYOUT_FIELDS, LAYOUT_FIELD_LABELS, PAYMENT_FILE_MAX_ROWS, type Layout, type LayoutField } from '@portal/contract';
import {
  SPREADSHEET_LIMITS,
  SpreadsheetError,
  SpreadsheetLimitError,
  limitMessages,
  openSpreadsheet,
  type SpreadsheetLimits,
} from '../../lib/xlsx-read';

/**
 * One parser for every agreement's payment file: the layout (data, from the agreement) says where each field is.
 * Every non-blank data line comes back as one row, with its raw text, what was read and why it is wrong, so no row
 * disappears; a file that cannot be read at all is refused whole (LayoutFileError, SpreadsheetLimitError).
 */
export interface ParsedRow {
  line: number;
  raw: string;
  fields: Partial<Record<LayoutField, string>>;
  errors: string[];
  /** The amount is missing, malformed, zero, negative or a formula: the upload's "monto inválido". */
  amountInvalid: boolean;
}

export type PaymentFileEncoding = 'utf-8' | 'windows-1252' | 'xlsx';

export interface ParsedPaymentFile {
  rows: ParsedRow[];
  encoding: PaymentFileEncoding;
}

export class LayoutFileError extends Error {}

const NO_DATA_ROWS = 'El archivo no tiene filas de datos.';
const ROW_LIMIT = `El archivo tiene más de ${PAYMENT_FILE_MAX_ROWS.toLocaleString('es-MX')} filas de datos, el máximo que se lee. Divide el archivo en varios.`;

const DELIMITER_NAMES = { ',': 'comas', ';': 'punto y coma', '|': 'barras verticales (|)', '\t': 'tabuladores' } as const;

function expectedFormat(layout: Layout): string {
  if (layout.format === 'csv') return `un archivo CSV separado por ${DELIMITER_NAMES[layout.delimiter]}`;
  if (layout.format === 'fixed') return 'un archivo de texto de ancho fijo';
  return 'un Excel (.xlsx)';
}

type ContentKind = 'pdf' | 'zip' | 'ole' | 'utf16' | 'binary' | 'text';

const CONTENT_KINDS: Record<ContentKind, string> = {
  pdf: 'es un PDF',
  zip: 'es un Excel (.xlsx) u otro archivo comprimido',
  ole: 'es un Excel antiguo (.xls) u otro documento de Office',
  utf16: 'está en UTF-16 («Texto Unicode»); guárdalo como CSV UTF-8',
  binary: 'no es un archivo de texto',
  text: 'es un archivo de texto',
};

/** What a file is, by its first bytes (their published signatures) or by NUL bytes, which no text file has. */
function sniff(content: Buffer): ContentKind {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => content[index] === byte);
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'pdf';
  if (starts(0x50, 0x4b, 0x03, 0x04)) return 'zip';
  if (starts(0xd0, 0xcf, 0x11, 0xe0)) return 'ole';
  if (starts(0xff, 0xfe) || starts(0xfe, 0xff)) return 'utf16';
  return content.includes(0) ? 'binary' : 'text';
}

/**
 * Windows-1252's characters for bytes 0x80–0x9F (WHATWG Encoding Standard, index-windows-1252); every other byte is
 * the ISO-8859-1 character of the same number. Node 20's TextDecoder('windows-1252') decodes plain ISO-8859-1, giving
 * control characters for these, so they are mapped here.
 */
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * Strict UTF-8 first (a BOM is dropped); a file from Windows that is not UTF-8 is read as windows-1252, which is also
 * what "Latin-1" files are in practice, so "Núñez" and "Peña" read right either way.
 */
export function decodeText(content: Buffer): { text: string; encoding: 'utf-8' | 'windows-1252' } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(content), encoding: 'utf-8' };
  } catch {
    const hasBom = content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf;
    const latin1 = (hasBom ? content.subarray(3) : content).toString('latin1');
    return { text: latin1.replace(/[\x80-\x9f]/g, (char) => WINDOWS_1252_HIGH[char.charCodeAt(0) - 0x80]!), encoding: 'windows-1252' };
  }
}

interface TextLine {
  line: number;
  raw: string;
}

/** The non-blank lines, numbered as an editor shows them (CRLF, LF or a lone CR ends a line). */
export function textLines(text: string): TextLine[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((raw, index) => ({ raw, line: index + 1 }))
    .filter((row) => row.raw.trim() !== '');
}

/**
 * One line's cells, RFC 4180 quoting: a quoted cell may hold the delimiter and doubled quotes. A payment file has one
 * payment per line, so a quote never runs on into the next line: an unclosed quote would otherwise swallow the lines
 * after it into one row and lose them. It is reported on its own line instead.
 */
export function splitCsvLine(raw: string, delimiter: string): { cells: string[]; unclosedQuote: boolean } {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < raw.length; index += 1) {
    const char = raw[index]!;
    if (quoted) {
      if (char === '"' && raw[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (char === delimiter) {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return { cells, unclosedQuote: quoted };
}

/** A data row as the format gave it, before the fields are checked. */
interface RowText {
  line: number;
  raw: string;
  values: Partial<Record<LayoutField, string>>;
  /** Fields whose .xlsx cell is a formula. */
  formulas?: LayoutField[];
  /** What is wrong with the line itself (an unclosed quote). */
  problems?: string[];
  /** Why the amount could not be read whole (a fixed-width line that ends inside it). */
  amountProblem?: string;
}

/**
 * OWASP "CSV injection": a spreadsheet runs a cell that starts with one of these as a formula, and these rows are shown
 * and exported again, so such text is never taken as data.
 */
const FORMULA_START = /^[=+\-@]/;
/** A plain negative number is reported as such rather than as a formula (it is refused either way). */
const NEGATIVE = /^-\s*\$?\s*\d[\d,]*(\.\d+)?$/;
/**
 * Pesos: an optional "$", thousands grouped by commas in threes (so a decimal comma, "1250,50", is refused rather than
 * read as 125,050), up to two decimals; leading zeros of a padded field do not count toward the twelve digits.
 */
const PESOS = /^\$?\s*0*([1-9]\d{0,2}(?:,\d{3}){1,3}|\d{1,12})(?:\.(\d{1,2}))?$/;
/** Centavos: digits only; a fixed-width field is often padded with zeros. */
const CENTAVOS = /^0*(\d{1,14})$/;
/**
 * The most one row may pay: far above any payroll deduction, and low enough that a file's 100,000 rows add up within
 * the amounts the database keeps (numeric(14,2): under a trillion pesos). A row above it is a typo, not a payment.
 */
const MAX_ROW_CENTS = 999_999_999n;
const MAX_ROW_TEXT = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' }).format(Number(MAX_ROW_CENTS) / 100);

function readAmount(text: string, inCents: boolean): { cents: bigint } | { error: string } {
  if (NEGATIVE.test(text)) return { error: `El importe es negativo: "${text}".` };
  const match = (inCents ? CENTAVOS : PESOS).exec(text);
  if (!match) return { error: `Importe no válido: "${text}".` };
  const cents = inCents ? BigInt(match[1]!) : BigInt(match[1]!.replaceAll(',', '')) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  if (cents > MAX_ROW_CENTS) return { error: `El importe "${text}" pasa del máximo por fila, ${MAX_ROW_TEXT}.` };
  return { cents };
}

/** Checks the fields every row needs and normalises the amount to pesos with two decimals. */
function finish(row: RowText, amountInCents: boolean): ParsedRow {
  const errors = [...(row.problems ?? [])];
  const fields: Partial<Record<LayoutField, string>> = {};
  const refused = new Set<LayoutField>();
  for (const key of LAYOUT_FIELDS) {
    const value = row.values[key]?.trim();
    const label = LAYOUT_FIELD_LABELS[key];
    if (row.formulas?.includes(key)) {
      errors.push(`${label}: la celda es una fórmula y no se acepta; copia y pega solo los valores.`);
      refused.add(key);
    } else if (value && FORMULA_START.test(value) && !(key === 'amount' && NEGATIVE.test(value))) {
      errors.push(`${label}: empieza con "${value[0]}", parece una fórmula y no se acepta.`);
      refused.add(key);
    } else if (value) fields[key] = value;
  }
  if (!fields.creditId && !fields.employeeNumber && !refused.has('creditId') && !refused.has('employeeNumber')) {
    errors.push('Falta el folio del crédito o el número de empleado.');
  }
  let amountInvalid = true;
  if (row.amountProblem) {
    errors.push(row.amountProblem);
    delete fields.amount;
  } else if (!refused.has('amount')) {
    const read =
      fields.amount === undefined
        ? { error: `Falta el ${LAYOUT_FIELD_LABELS.amount.toLowerCase()}.` }
        : readAmount(fields.amount, amountInCents);
    if ('error' in read) errors.push(read.error);
    else {
      fields.amount = `${read.cents / 100n}.${String(read.cents % 100n).padStart(2, '0')}`;
      if (read.cents === 0n) errors.push('El importe es cero.');
      else amountInvalid = false;
    }
  }
  return { line: row.line, raw: row.raw, fields, errors, amountInvalid };
}

/** The header, when the layout has one, is the first non-blank row; something must come after it. */
function dataRows<T>(rows: T[], hasHeader: boolean): T[] {
  const data = hasHeader ? rows.slice(1) : rows;
  if (data.length === 0) throw new LayoutFileError(NO_DATA_ROWS);
  if (data.length > PAYMENT_FILE_MAX_ROWS) throw new SpreadsheetLimitError(ROW_LIMIT);
  return data;
}

function checkCellLengths(cells: string[]): void {
  if (cells.some((cell) => cell.length > SPREADSHEET_LIMITS.maxCellLength)) throw new SpreadsheetLimitError(limitMessages().cell);
}

/**
 * A file of another shape altogether (another separator, another agreement's file): no line reaches the last column
 * the layout reads. Refused as a whole, naming the shape expected, rather than kept as a row of "Falta el importe" per
 * line; a file with some short lines keeps them as rows, each with its reason. `short` holds, per line, what it has
 * when it falls short (null when it does not).
 */
function checkShape(short: readonly ({ line: number; has: string } | null)[], expected: string): void {
  const [first] = short;
  if (!first || short.some((line) => line === null)) return;
  throw new LayoutFileError(
    `El archivo no tiene la forma del layout del convenio en ninguna línea: ${expected}, y la línea ${first.line} tiene ${first.has}. Revisa que sea el archivo de este convenio.`,
  );
}

/** "1 columna", "3 columnas". */
const columnCount = (count: number) => (count === 1 ? '1 columna' : `${count} columnas`);

function parseCsv(text: string, layout: Extract<Layout, { format: 'csv' }>): ParsedRow[] {
  const lines = dataRows(textLines(text), layout.hasHeader);
  const needed = Math.max(...LAYOUT_FIELDS.map((key) => layout.columns[key] ?? 0));
  const split = lines.map(({ raw }) => splitCsvLine(raw, layout.delimiter));
  checkShape(
    split.map(({ cells }, position) => (cells.length < needed ? { line: lines[position]!.line, has: columnCount(cells.length) } : null)),
    `se leen ${needed} columnas separadas por ${DELIMITER_NAMES[layout.delimiter]}`,
  );
  return lines.map(({ line, raw }, position) => {
    const { cells, unclosedQuote } = split[position]!;
    checkCellLengths(cells);
    const values: Partial<Record<LayoutField, string>> = {};
    for (const key of LAYOUT_FIELDS) {
      const column = layout.columns[key];
      if (column !== undefined) values[key] = cells[column - 1] ?? '';
    }
    const problems = unclosedQuote ? ['Hay comillas sin cerrar en la línea.'] : [];
    const row = finish({ line, raw, values, problems }, layout.amountInCents ?? false);
    // A short line's missing fields, said with why: "Falta el importe" alone hides that the line lacks columns.
    if (row.errors.length > 0 && cells.length < needed)
      row.errors.push(`La línea tiene ${columnCount(cells.length)} y el layout lee ${needed}.`);
    return row;
  });
}

/** Positions count characters, which in a windows-1252 file are its bytes. */
function parseFixed(text: string, layout: Extract<Layout, { format: 'fixed' }>): ParsedRow[] {
  const amount = layout.positions.amount;
  const amountEnd = amount.start - 1 + amount.length;
  const lines = dataRows(textLines(text), false);
  checkShape(
    lines.map(({ line, raw }) => (raw.length < amountEnd ? { line, has: `${raw.length} caracteres` } : null)),
    `el importe ocupa las posiciones ${amount.start} a ${amountEnd}`,
  );
  return lines.map(({ line, raw }) => {
    const values: Partial<Record<LayoutField, string>> = {};
    for (const key of LAYOUT_FIELDS) {
      const position = layout.positions[key];
      if (position) values[key] = raw.slice(position.start - 1, position.start - 1 + position.length);
    }
    // A right-aligned amount cut short would read as a smaller one.
    const amountProblem =
      raw.length < amountEnd ? `La línea termina antes del fin del importe (posiciones ${amount.start} a ${amountEnd}).` : undefined;
    return finish({ line, raw, values, amountProblem }, layout.amountInCents ?? true);
  });
}

/** A cell as the text a user typed: a formula as `=` and its text (the formula-injection check reads it). */
export function cellText(cell: ExcelJS.Cell, excel: typeof ExcelJS): string {
  if (cell.type === excel.ValueType.Formula) return `=${cell.formula}`;
  const value = cell.value;
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value) return String(value.text);
    if ('error' in value) return String(value.error);
  }
  return String(value);
}

function notXlsxMessage(content: Buffer): string {
  const kind = sniff(content);
  if (kind === 'zip' || kind === 'binary') return 'El archivo no es un Excel (.xlsx) válido, que es lo que espera el convenio.';
  return `El archivo ${CONTENT_KINDS[kind]}; el convenio espera un Excel (.xlsx).`;
}

/** The sheet's own row count includes the header, so it lets one more row through than the data rows read. */
const XLSX_LIMITS: SpreadsheetLimits = { ...SPREADSHEET_LIMITS, maxRows: PAYMENT_FILE_MAX_ROWS + 1 };

/** Inflated under a hard cap and checked before exceljs builds anything (see openSpreadsheet). */
function measureSpreadsheet(content: Buffer): Buffer {
  try {
    return openSpreadsheet(content, XLSX_LIMITS);
  } catch (error) {
    if (error instanceof SpreadsheetLimitError && error.message === limitMessages(XLSX_LIMITS).rows)
      throw new SpreadsheetLimitError(ROW_LIMIT);
    if (error instanceof SpreadsheetError && !(error instanceof SpreadsheetLimitError)) throw new LayoutFileError(notXlsxMessage(content));
    throw error;
  }
}

async function parseXlsx(content: Buffer, layout: Extract<Layout, { format: 'xlsx' }>): Promise<ParsedRow[]> {
  const measured = measureSpreadsheet(content);
  const excel = await loadExcel();
  const workbook = new excel.Workbook();
  try {
    await workbook.xlsx.load(measured as unknown as ArrayBuffer);
  } catch {
    throw new LayoutFileError(notXlsxMessage(content));
  }
  const sheet = layout.sheet ? workbook.getWorksheet(layout.sheet) : workbook.worksheets[0];
  if (!sheet) throw new LayoutFileError(`El archivo no tiene la hoja "${layout.sheet}".`);
  const rows: RowText[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const texts = Array.from({ length: row.cellCount }, (_, index) => cellText(row.getCell(index + 1), excel));
    if (texts.every((text) => text.trim() === '')) return;
    checkCellLengths(texts);
    const values: Partial<Record<LayoutField, string>> = {};
    const formulas: LayoutField[] = [];
    for (const key of LAYOUT_FIELDS) {
      const column = layout.columns[key];
      if (column === undefined) continue;
      values[key] = texts[column - 1] ?? '';
      if (row.getCell(column).type === excel.ValueType.Formula) formulas.push(key);
    }
    rows.push({ line: number, raw: texts.join(' | '), values, formulas });
  });
  return dataRows(rows, layout.hasHeader).map((row) => finish(row, layout.amountInCents ?? false));
}

export async function parsePaymentFile(content: Buffer, layout: Layout): Promise<ParsedPaymentFile> {
  if (layout.format === 'xlsx') return { rows: await parseXlsx(content, layout), encoding: 'xlsx' };
  const kind = sniff(content);
  if (kind !== 'text') throw new LayoutFileError(`El archivo ${CONTENT_KINDS[kind]}; el convenio espera ${expectedFormat(layout)}.`);
  const { text, encoding } = decodeText(content);
  return { rows: layout.format === 'csv' ? parseCsv(text, layout) : parseFixed(text, layout), encoding };
}
