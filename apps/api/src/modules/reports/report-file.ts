import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ReportField, ReportFormat } from '@portal/contract';
import { zipCaughtUp } from '../../lib/xlsx-export';

/**
 * Writes a report's rows to xlsx (exceljs's streaming WorkbookWriter) or csv, a batch at a time, handing the file's
 * bytes to `sink` in pieces of about CHUNK_BYTES as they are produced: neither the rows nor the file are ever held
 * whole in memory, whatever the number of rows.
 */

export const CHUNK_BYTES = 1024 * 1024;

/** Money as numbers in pesos, shown with the MXN format; dates as dates (dd/mm/aaaa); integers with thousands. */
export const MONEY_FORMAT = '"$"#,##0.00';
export const DATE_FORMAT = 'dd/mm/yyyy';
export const INTEGER_FORMAT = '#,##0';

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

/** A date `YYYY-MM-DD` as the UTC midnight exceljs turns into a whole Excel serial day. */
function toDate(value: string): Date {
  return new Date(Date.UTC(Number(value.slice(0, 4)), Number(value.slice(5, 7)) - 1, Number(value.slice(8, 10))));
}

function cellValue(field: ReportField, value: unknown): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case 'money':
      return Number(value);
    case 'integer':
      return typeof value === 'number' ? value : Number(value);
    case 'date':
      return toDate(String(value));
    default:
      return String(value);
  }
}

/** RFC 4180 quoting; a text cell that starts like a formula is written with a leading apostrophe (CSV injection). */
function csvCell(field: ReportField, value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (field.type === 'text' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
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

async function writeXlsx(options: WriteReportOptions): Promise<{ rows: number; size: number }> {
  const chunker = new Chunker(options.sink);
  const stream = new PassThrough();
  stream.on('data', (data: Buffer) => chunker.push(data));
  const ended = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  // Level 1 deflate: most of the size gain for a fraction of the time; the file is produced once and downloaded few times.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false, zip: { zlib: { level: 1 } } });
  const { fields } = options;
  const sheet = workbook.addWorksheet(options.sheetName, { views: [{ state: 'frozen', ySplit: 1, xSplit: 0, topLeftCell: 'A2', activeCell: 'A2' }] });
  sheet.columns = fields.map((field, index) => ({
    key: `c${index}`,
    width: field.type === 'text' ? Math.min(40, Math.max(12, field.label.length + 2)) : Math.max(12, field.label.length + 2),
  }));
  // One style object per column, shared by all its cells: exceljs recognises a style object it has seen (a WeakMap)
  // and otherwise serialises every cell's style to find its id — most of the time of a large sheet.
  const styles: Partial<ExcelJS.Style>[] = fields.map((field) => (field.type === 'money' ? { numFmt: MONEY_FORMAT } : field.type === 'date' ? { numFmt: DATE_FORMAT } : field.type === 'integer' ? { numFmt: INTEGER_FORMAT } : {}));
  const bold: Partial<ExcelJS.Style> = { font: { bold: true } };
  const header = sheet.addRow(fields.map((field) => field.label));
  for (let index = 0; index < fields.length; index++) header.getCell(index + 1).style = bold;
  header.commit();
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: fields.length } };
  let rows = 0;
  for (;;) {
    const batch = await options.next();
    if (batch.length === 0) break;
    for (const raw of batch) {
      const values: ExcelJS.CellValue[] = new Array(fields.length);
      for (let index = 0; index < fields.length; index++) values[index] = cellValue(fields[index]!, raw[`c${index}`]);
      const row = sheet.addRow(values);
      for (let index = 0; index < fields.length; index++) row.getCell(index + 1).style = styles[index]!;
      row.commit();
    }
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
