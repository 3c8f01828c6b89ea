import ExcelJS from 'exceljs';
import { LAYOUT_FIELDS, LAYOUT_FIELD_LABELS, type Layout, type LayoutField } from '@portal/contract';
import { SPREADSHEET_LIMITS, SpreadsheetError, SpreadsheetLimitError, limitMessages, openSpreadsheet } from '../../lib/xlsx-read';

/**
 * One parser for every agreement's payment file: the layout (data, from the agreement) says where each field is.
 * Every row comes back, with its raw text, what was read and why it is wrong, so no row disappears.
 */
export interface ParsedRow {
  line: number;
  raw: string;
  fields: Partial<Record<LayoutField, string>>;
  errors: string[];
}

export class LayoutFileError extends Error {}

/** RFC 4180: quoted cells may hold the delimiter, quotes ("") and line breaks. */
export function splitCsv(text: string, delimiter: string): { cells: string[]; raw: string; line: number }[] {
  const rows: { cells: string[]; raw: string; line: number }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let start = 0;
  let line = 1;
  let rowLine = 1;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else {
        if (char === '\n') line += 1;
        cell += char;
      }
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === delimiter) {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      cells.push(cell);
      rows.push({ cells, raw: text.slice(start, index), line: rowLine });
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      cells = [];
      cell = '';
      start = index + 1;
      line += 1;
      rowLine = line;
    } else cell += char;
  }
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    rows.push({ cells, raw: text.slice(start), line: rowLine });
  }
  return rows.filter((row) => row.raw.trim() !== '');
}

const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

/** Checks the fields every row needs and normalises the amount to pesos with two decimals. */
function finish(line: number, raw: string, fields: Partial<Record<LayoutField, string>>, amountInCents: boolean): ParsedRow {
  const errors: string[] = [];
  const cleaned: Partial<Record<LayoutField, string>> = {};
  for (const key of LAYOUT_FIELDS) {
    const value = fields[key]?.trim();
    if (value) cleaned[key] = value;
  }
  if (!cleaned.creditId && !cleaned.employeeNumber) errors.push('Falta el folio del crédito o el número de empleado.');
  const amount = cleaned.amount?.replace(/[$,\s]/g, '');
  if (!amount) errors.push(`Falta el ${LAYOUT_FIELD_LABELS.amount.toLowerCase()}.`);
  else if (amountInCents ? !/^\d{1,14}$/.test(amount) : !AMOUNT.test(amount)) errors.push(`Importe no válido: "${cleaned.amount}".`);
  else {
    const [whole = '0', decimals = ''] = amount.split('.');
    const cents = amountInCents ? BigInt(amount) : BigInt(whole) * 100n + BigInt(decimals.padEnd(2, '0'));
    if (cents === 0n) errors.push('El importe es cero.');
    cleaned.amount = `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
  }
  return { line, raw, fields: cleaned, errors };
}

function byColumns(cells: string[], columns: Partial<Record<LayoutField, number>>): Partial<Record<LayoutField, string>> {
  const fields: Partial<Record<LayoutField, string>> = {};
  for (const key of LAYOUT_FIELDS) {
    const column = columns[key];
    if (column !== undefined) fields[key] = cells[column - 1] ?? '';
  }
  return fields;
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('text' in value) return String(value.text);
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
  }
  return String(value);
}

/** The same row and cell limits for every format (an .xlsx is also checked while it is inflated, in openSpreadsheet). */
function checkLimits(rowCount: number, cells: string[][]): void {
  if (rowCount > SPREADSHEET_LIMITS.maxRows) throw new SpreadsheetLimitError(limitMessages().rows);
  if (cells.some((row) => row.some((cell) => cell.length > SPREADSHEET_LIMITS.maxCellLength))) throw new SpreadsheetLimitError(limitMessages().cell);
}

/** Inflated under a hard cap and checked before exceljs builds anything (see openSpreadsheet). */
function measureSpreadsheet(content: Buffer): Buffer {
  try {
    return openSpreadsheet(content);
  } catch (error) {
    if (error instanceof SpreadsheetError && !(error instanceof SpreadsheetLimitError)) throw new LayoutFileError(error.message);
    throw error;
  }
}

export async function parsePaymentFile(content: Buffer, layout: Layout): Promise<ParsedRow[]> {
  if (layout.format === 'xlsx') {
    const measured = measureSpreadsheet(content);
    const workbook = new ExcelJS.Workbook();
    try {
      await workbook.xlsx.load(measured as unknown as ArrayBuffer);
    } catch {
      throw new LayoutFileError('El archivo no es un Excel (.xlsx) válido.');
    }
    const sheet = layout.sheet ? workbook.getWorksheet(layout.sheet) : workbook.worksheets[0];
    if (!sheet) throw new LayoutFileError(`El archivo no tiene la hoja "${layout.sheet}".`);
    const rows: ParsedRow[] = [];
    sheet.eachRow({ includeEmpty: false }, (row, number) => {
      if (layout.hasHeader && number === 1) return;
      const cells = Array.from({ length: row.cellCount }, (_, index) => cellText(row.getCell(index + 1).value));
      checkLimits(0, [cells]);
      rows.push(finish(number, cells.join(' | '), byColumns(cells, layout.columns), layout.amountInCents ?? false));
    });
    return rows;
  }
  const text = content.toString('utf8').replace(/^\uFEFF/, '');
  if (text.includes('\uFFFD')) throw new LayoutFileError('El archivo no está en UTF-8: guárdalo como texto UTF-8 y vuelve a intentarlo.');
  if (layout.format === 'csv') {
    const rows = splitCsv(text, layout.delimiter);
    checkLimits(rows.length, rows.map((row) => row.cells));
    return rows
      .slice(layout.hasHeader ? 1 : 0)
      .map((row) => finish(row.line, row.raw, byColumns(row.cells, layout.columns), layout.amountInCents ?? false));
  }
  const lines = text.split(/\r?\n/);
  checkLimits(lines.length, []);
  return lines
    .map((raw, index) => ({ raw, line: index + 1 }))
    .filter((row) => row.raw.trim() !== '')
    .map(({ raw, line }) => {
      const fields: Partial<Record<LayoutField, string>> = {};
      for (const key of LAYOUT_FIELDS) {
        const position = layout.positions[key];
        if (position) fields[key] = raw.slice(position.start - 1, position.start - 1 + position.length);
      }
      return finish(line, raw, fields, layout.amountInCents ?? true);
    });
}
