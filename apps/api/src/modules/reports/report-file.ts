import { PassThrough } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { ReportField, ReportFormat } from '@portal/contract';
import { loadExcel } from '../../lib/libraries';
import { DATE_FORMAT, INTEGER_FORMAT, MONEY_FORMAT, excelSerialDay, zipCaughtUp } from '../../lib/xlsx-export';

/**
 * Writes a report's rows to xlsx (exceljs's streaming WorkbookWriter) or csv, a batch at a time, handing the file's
 * bytes to `sink` in pieces of about CHUNK_BYTES as they are produced: neither the rows nor the file are ever held
 * whole in memory, whatever the number of rows.
 */

export const CHUNK_BYTES = 1024 * 1024;

export const CONTENT_TYPES: Record<ReportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

/** One row as the query answers it: column values in the definition's order (text, decimal strings, ISO dates, numbers). */
export type RawRow = Record<string, unknown>;

export interface WriteReportOptions {
  format: ReportFormat;
  sheetName: string;
  fields: readonly ReportField[];
  /** The next batch of rows (columns c0, c1…); an empty batch ends the file. */
  next: () => Promise<RawRow[]>;
  sink: (chunk: Buffer) => Promise<void>;
  /** Rows written so far, after each batch. */
  onProgress?: (rows: number) => Promise<void>;
}

/** A value as its cell holds it: money, integers and dates (serial days) as numbers, the rest as text. */
function cellValue(field: ReportField, value: unknown): number | string | null {
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case 'money':
      return Number(value);
    case 'integer':
      return typeof value === 'number' ? value : Number(value);
    case 'date':
      return excelSerialDay(String(value));
    default:
      return String(value);
  }
}

/** A column's cell style: money with the MXN format, dates as dd/mm/aaaa, integers with thousands; text as is. */
export function styleOf(field: ReportField): Partial<ExcelJS.Style> {
  return field.type === 'money'
    ? { numFmt: MONEY_FORMAT }
    : field.type === 'date'
      ? { numFmt: DATE_FORMAT }
      : field.type === 'integer'
        ? { numFmt: INTEGER_FORMAT }
        : {};
}

/** The sheet's columns: wide enough for the label, text up to 40 characters. */
export function sheetColumns(fields: readonly ReportField[]): Partial<ExcelJS.Column>[] {
  return fields.map((field, index) => ({
    key: `c${index}`,
    width: field.type === 'text' ? Math.min(40, Math.max(12, field.label.length + 2)) : Math.max(12, field.label.length + 2),
  }));
}

/**
 * RFC 4180 quoting; a text cell that starts like a formula is written with a leading apostrophe (CSV injection). A
 * `;` is quoted too: Excel in a locale whose list separator it is (decimal comma) would split `a;=1+1` there and
 * start the second cell with a formula.
 */
export function csvCell(field: Pick<ReportField, 'type'>, value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (field.type === 'text' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",;\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Collects a stream's bytes and hands them on in CHUNK_BYTES pieces (the rest with `final`). */
class Chunker {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  size = 0;

  constructor(private readonly sink: (chunk: Buffer) => Promise<void>) {}

  push(data: Buffer): void {
    this.pending.push(data);
    this.pendingBytes += data.length;
    this.size += data.length;
  }

  /** The piece being stored: one at a time, while the writer goes on with the next rows. */
  private storing: Promise<void> = Promise.resolve();

  async flush(final = false): Promise<void> {
    while (this.pendingBytes >= CHUNK_BYTES || (final && this.pendingBytes > 0)) {
      const all = Buffer.concat(this.pending);
      const piece = all.subarray(0, Math.min(CHUNK_BYTES, all.length));
      const rest = all.subarray(piece.length);
      this.pending = rest.length ? [rest] : [];
      this.pendingBytes = rest.length;
      await this.storing;
      const stored = this.sink(Buffer.from(piece));
      stored.catch(() => undefined);
      this.storing = stored;
    }
    if (final) await this.storing;
  }
}

export async function writeReport(options: WriteReportOptions): Promise<{ rows: number; size: number }> {
  return options.format === 'xlsx' ? writeXlsx(options) : writeCsv(options);
}

/** Characters of row XML handed to the sheet stream at a time (its zip buffers are 64 KB). */
const WRITE_CHARS = 64 * 1024;

/** Which XML characters exceljs escapes, and which it drops (controls XML 1.0 does not allow). */
// eslint-disable-next-line no-control-regex -- the control characters are the ones it drops
const XML_SPECIAL = /[<>&'"\x7F\x00-\x08\x0B-\x0C\x0E-\x1F]/;
const XML_SPECIAL_ALL = new RegExp(XML_SPECIAL.source, 'g');
const XML_ESCAPES: Record<string, string> = { '"': '&quot;', '&': '&amp;', "'": '&apos;', '<': '&lt;', '>': '&gt;' };

/** Text as exceljs escapes it in a cell (its utils.xmlEncode): the five entities, and disallowed controls dropped. */
export function xmlText(text: string): string {
  if (!XML_SPECIAL.test(text)) return text;
  return text.replace(XML_SPECIAL_ALL, (char) => XML_ESCAPES[char] ?? '');
}

/** A column's letters: 1 → A, 27 → AA. */
function columnLetters(column: number): string {
  let letters = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}

/** What of exceljs's streaming writer the rows below use beyond its typings: the sheet's XML stream and the style ids. */
interface SheetInternals {
  stream: { write: (xml: string) => unknown };
}
interface WorkbookInternals {
  styles: { addStyleModel: (style: Partial<ExcelJS.Style>, cellType: ExcelJS.ValueType) => number };
}

/**
 * The sheet's data rows as SpreadsheetML, written into exceljs's sheet stream a batch at a time. Through `addRow`,
 * exceljs builds a Row, a Cell and two value objects per cell and renders each through its generic XML writer: for
 * a million rows that was most of the run's time (one thread, shared with reading the rows) and most of the
 * garbage (decision 0010; figures in docs/measurements.md). These are the bytes exceljs writes for the same values and styles (report-file.test.ts compares the two
 * sheets); the workbook around them (styles, columns, frozen pane, auto filter, the zip) is still exceljs's.
 */
function sheetRowsWriter(
  excel: typeof ExcelJS,
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  sheet: ExcelJS.Worksheet,
  fields: readonly ReportField[],
  styles: readonly Partial<ExcelJS.Style>[],
) {
  const { stream } = sheet as unknown as SheetInternals;
  const { styles: registry } = workbook as unknown as WorkbookInternals;
  if (typeof stream?.write !== 'function' || typeof registry?.addStyleModel !== 'function') {
    throw new Error('Esta versión de exceljs no expone el flujo de la hoja o sus estilos: revisa report-file.ts.');
  }
  const columns = fields.map((field, index) => {
    const styleId = registry.addStyleModel(styles[index]!, field.type === 'text' ? excel.ValueType.String : excel.ValueType.Number);
    return { letter: columnLetters(index + 1), key: `c${index}`, field, style: styleId ? ` s="${styleId}"` : '' };
  });
  const spans = `1:${fields.length}`;
  return (batch: readonly RawRow[], firstRow: number) => {
    let xml = '';
    batch.forEach((raw, offset) => {
      const number = firstRow + offset;
      let row = `<row r="${number}" spans="${spans}" x14ac:dyDescent="0.25">`;
      let empty = true;
      for (const column of columns) {
        const value = cellValue(column.field, raw[column.key]);
        if (value === null) {
          if (column.style) row += `<c r="${column.letter}${number}"${column.style}/>`;
          continue;
        }
        empty = false;
        if (typeof value === 'number') row += `<c r="${column.letter}${number}"${column.style}><v>${value}</v></c>`;
        else row += `<c r="${column.letter}${number}"${column.style} t="str"><v>${xmlText(value)}</v></c>`;
      }
      // As exceljs: a row with no value is left out (Excel shows it empty all the same).
      if (!empty) xml += `${row}</row>`;
      if (xml.length >= WRITE_CHARS) {
        stream.write(xml);
        xml = '';
      }
    });
    if (xml) stream.write(xml);
  };
}

async function writeXlsx(options: WriteReportOptions): Promise<{ rows: number; size: number }> {
  const chunker = new Chunker(options.sink);
  const stream = new PassThrough();
  stream.on('data', (data: Buffer) => chunker.push(data));
  const ended = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  // Level 1 deflate: most of the size gain for a fraction of the time; the file is produced once and downloaded few times.
  const excel = await loadExcel();
  const workbook = new excel.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false, zip: { zlib: { level: 1 } } });
  const { fields } = options;
  const sheet = workbook.addWorksheet(options.sheetName, {
    views: [{ state: 'frozen', ySplit: 1, xSplit: 0, topLeftCell: 'A2', activeCell: 'A2' }],
  });
  sheet.columns = sheetColumns(fields);
  const header = sheet.addRow(fields.map((field) => field.label));
  const bold: Partial<ExcelJS.Style> = { font: { bold: true } };
  for (let index = 0; index < fields.length; index++) header.getCell(index + 1).style = bold;
  // The header goes through exceljs, which opens the sheet's data there; the rows follow it.
  header.commit();
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: fields.length } };
  const writeRows = sheetRowsWriter(excel, workbook, sheet, fields, fields.map(styleOf));
  let rows = 0;
  for (;;) {
    const batch = await options.next();
    if (batch.length === 0) break;
    writeRows(batch, rows + 2);
    rows += batch.length;
    await zipCaughtUp(sheet);
    await chunker.flush();
    await options.onProgress?.(rows);
  }
  sheet.commit();
  await workbook.commit();
  await ended;
  await chunker.flush(true);
  return { rows, size: chunker.size };
}

async function writeCsv(options: WriteReportOptions): Promise<{ rows: number; size: number }> {
  const chunker = new Chunker(options.sink);
  const { fields } = options;
  // UTF-8 with BOM: Excel opens the accents correctly (without it, it reads the file as Windows-1252).
  chunker.push(Buffer.from(`\uFEFF${fields.map((field) => csvCell({ ...field, type: 'integer' }, field.label)).join(',')}\r\n`, 'utf8'));
  let rows = 0;
  for (;;) {
    const batch = await options.next();
    if (batch.length === 0) break;
    let text = '';
    for (const raw of batch) {
      const cells: string[] = new Array(fields.length);
      for (let index = 0; index < fields.length; index++) cells[index] = csvCell(fields[index]!, raw[`c${index}`]);
      text += `${cells.join(',')}\r\n`;
    }
    chunker.push(Buffer.from(text, 'utf8'));
    rows += batch.length;
    await chunker.flush();
    await options.onProgress?.(rows);
  }
  await chunker.flush(true);
  return { rows, size: chunker.size };
}
