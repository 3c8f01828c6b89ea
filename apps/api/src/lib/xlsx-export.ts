import type { FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';

const BATCH = 1000;

/**
 * Streams a list to an .xlsx download: rows are read a batch at a time and written while the client downloads, so a
 * large list is never held in memory. A failure midway is logged and ends the download.
 */
export function sendXlsx<Row>(
  request: FastifyRequest,
  reply: FastifyReply,
  options: {
    /** e.g. "usuarios-2026-11-23.xlsx" */
    filename: string;
    sheet: string;
    columns: Partial<ExcelJS.Column>[];
    /** The list's rows in its order, `limit` of them from `offset`. */
    read: (offset: number, limit: number) => Promise<Row[]>;
    toCells: (row: Row) => Record<string, unknown>;
  },
): FastifyReply {
  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true });
  const sheet = workbook.addWorksheet(options.sheet);
  sheet.columns = options.columns;
  sheet.getRow(1).font = { bold: true };
  const write = async () => {
    for (let offset = 0; ; offset += BATCH) {
      const rows = await options.read(offset, BATCH);
      for (const row of rows) sheet.addRow(options.toCells(row)).commit();
      if (rows.length < BATCH) break;
    }
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
