import type { FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { ColumnKind, ListColumn } from '@portal/contract';
import { loadExcel } from './libraries';

const BATCH = 1000;

/** How much written sheet XML may wait for the zip's deflate before a report's writer pauses. */
const ZIP_BACKLOG_BYTES = 6 * 1024 * 1024;
/** The same for a download: the zip's output waits for the client, so the backlog is what a slow client costs. */
const DOWNLOAD_BACKLOG_BYTES = 1024 * 1024;

/**
 * Waits until the zip has taken up what the sheet wrote. exceljs's sheet stream forwards every write to the zip's
 * deflate at once, ignoring backpressure: without this pause the rows outrun the compression (or, in a download, the
 * client) and wait in memory as Buffers (≈400 MB for a million rows). `stream` and `pipes` are exceljs internals
 * (lib/utils/stream-buf.js). `abandoned` ends the wait when nobody will take the rest (a client that left). The wait
 * polls: every few milliseconds for a download, every millisecond for a report, whose deflate is its only wait (it
 * polled with setImmediate, a busy loop that made some 900 MB of garbage promises in a million-row report).
 */
type ZipEntryStream = { writableLength?: number; _writableState?: { length: number } };
export async function zipCaughtUp(
  sheet: ExcelJS.Worksheet,
  options: { maxBytes?: number; abandoned?: () => boolean; pollMs?: number } = {},
): Promise<void> {
  const source = (sheet as unknown as { stream?: { pipes?: ZipEntryStream[] } }).stream;
  // The zip's entry stream is readable-stream 2 (archiver's dependency): its backlog is `_writableState.length`.
  const backlog = (pipe: ZipEntryStream) => pipe.writableLength ?? pipe._writableState?.length ?? 0;
  const limit = options.maxBytes ?? ZIP_BACKLOG_BYTES;
  const pause = () => new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1));
  for (const pipe of source?.pipes ?? []) {
    while (backlog(pipe) > limit && !options.abandoned?.()) await pause();
  }
}

/** Money as numbers in pesos, shown with the MXN format; dates as dates (dd/mm/aaaa); integers with thousands. */
export const MONEY_FORMAT = '"$"#,##0.00';
export const DATE_FORMAT = 'dd/mm/yyyy';
export const INTEGER_FORMAT = '#,##0';

const KIND_FORMATS: Partial<Record<ColumnKind, string>> = { money: MONEY_FORMAT, date: DATE_FORMAT, datetime: 'dd/mm/yyyy hh:mm' };

/** A list's declared columns (packages/contract columns.ts) as a sheet's: its labels are the headers, in its order. */
export function sheetColumns(columns: readonly ListColumn[]): Partial<ExcelJS.Column>[] {
  return columns.map(({ key, label, kind, width }) => {
    const numFmt = KIND_FORMATS[kind];
    return { header: label, key, width, ...(numFmt ? { style: { numFmt } } : {}) };
  });
}

/** Days from Excel's day 0 (1899-12-30) to 1970-01-01. */
const EXCEL_EPOCH_DAYS = 25_569;

/**
 * A date `YYYY-MM-DD` as its Excel serial day: a date cell in xlsx is that number under a date format, and it is
 * what exceljs writes for a Date (the same bytes), without a Date object per value of a million-row sheet.
 */
export function excelSerialDay(value: string): number {
  return Date.UTC(Number(value.slice(0, 4)), Number(value.slice(5, 7)) - 1, Number(value.slice(8, 10))) / 86_400_000 + EXCEL_EPOCH_DAYS;
}

/** The most characters a spreadsheet cell holds (Excel's limit); a longer text makes the workbook one Excel repairs. */
export const CELL_TEXT_LIMIT = 32_767;

/**
 * A row's cells as a workbook can hold them: a text over CELL_TEXT_LIMIT (a payment file's line with many long fields)
 * is cut to it, its last character an ellipsis, never through a surrogate pair. The whole text stays where it came
 * from (a payment file's original, for one).
 */
export function fitCells(cells: Record<string, unknown>): Record<string, unknown> {
  // Every row of every export passes here: the row is copied only when a text has to be cut (almost never).
  let fitted: Record<string, unknown> | undefined;
  for (const key in cells) {
    const value = cells[key];
    if (typeof value !== 'string' || value.length <= CELL_TEXT_LIMIT) continue;
    let end = CELL_TEXT_LIMIT - 1;
    if (/[\uD800-\uDBFF]/.test(value[end - 1]!)) end -= 1;
    (fitted ??= { ...cells })[key] = `${value.slice(0, end)}…`;
  }
  return fitted ?? cells;
}

/**
 * Streams a list to an .xlsx download: rows are read a batch at a time and written while the client downloads, the
 * next batch only once the client has taken the last, so a large list is never held in memory. The first batch is
 * read before anything is sent, so a failure there answers a Problem JSON, not a 200 cut short (issue 44); a failure
 * midway is logged and ends the download; a client that leaves stops the reading.
 */
export async function sendXlsx<Row extends Readonly<Record<string, unknown>>>(
  request: FastifyRequest,
  reply: FastifyReply,
  options: {
    /** e.g. "usuarios-2026-11-23.xlsx" */
    filename: string;
    sheet: string;
    columns: Partial<ExcelJS.Column>[];
    /**
     * The list's next `limit` rows in its order: after the row `last` (a keyset, the same cost for every batch) or
     * from `offset`; `last` is undefined for the first batch.
     */
    read: (from: { offset: number; last: Readonly<Record<string, unknown>> | undefined }, limit: number) => Promise<Row[]>;
    toCells: (row: Row) => Record<string, unknown>;
  },
): Promise<FastifyReply> {
  const first = await options.read({ offset: 0, last: undefined }, BATCH);
  const stream = new PassThrough();
  const write = async () => {
    const excel = await loadExcel();
    const workbook = new excel.stream.xlsx.WorkbookWriter({ stream, useStyles: true });
    // The header stays in view and filters, as in the reports' workbooks.
    const sheet = workbook.addWorksheet(options.sheet, {
      views: [{ state: 'frozen', ySplit: 1, xSplit: 0, topLeftCell: 'A2', activeCell: 'A2' }],
    });
    sheet.columns = options.columns;
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: options.columns.length } };
    sheet.getRow(1).font = { bold: true };
    let last: Readonly<Record<string, unknown>> | undefined;
    for (let offset = 0; !stream.destroyed; offset += BATCH) {
      const rows = offset === 0 ? first : await options.read({ offset, last }, BATCH);
      for (const row of rows) sheet.addRow(fitCells(options.toCells(row))).commit();
      if (rows.length < BATCH) break;
      last = rows.at(-1);
      // Memory stays bounded: the next batch is read once the zip, and through it the client, have taken this one.
      await zipCaughtUp(sheet, { maxBytes: DOWNLOAD_BACKLOG_BYTES, abandoned: () => stream.destroyed, pollMs: 10 });
    }
    if (stream.destroyed) return;
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => {
    request.log.error({ err: error, filename: options.filename }, 'xlsx export failed');
    stream.destroy(error as Error);
  });
  return reply
    .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${options.filename}"`)
    .send(stream);
}
