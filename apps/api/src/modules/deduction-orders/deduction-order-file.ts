import { PassThrough, Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, gt, sql } from 'drizzle-orm';
import { DEDUCTION_MOVEMENT_CODES, LAYOUT_FIELDS, layoutSchema, type Layout, type LayoutField } from '@portal/contract';
import type { Tx } from '../../db/client';
import { agreements } from '../../db/schema/agreements';
import { deductionOrderLines } from '../../db/schema/deduction-orders';
import { HttpProblem } from '../../http/errors';
import { loadExcel } from '../../lib/libraries';
import { zipCaughtUp } from '../../lib/xlsx-export';
import { creditFolio } from '../shared/folios';
import { loadDeductionOrder } from './deduction-orders.queries';

/**
 * A cédula written in its agreement's own layout (the definition its payment files are read with): csv, xlsx or fixed
 * width, each field where the layout reads it, the amount the employer deducts (0 for a baja) as the layout writes
 * amounts, and the movement code (DEDUCTION_MOVEMENT_CODES) in the layout's movement column — after the last one when
 * the layout names none, so no instruction is lost. Lines are read a batch at a time, by line number (a keyset), and
 * written as the client takes them: memory stays bounded for 300,000 lines.
 */

const BATCH = 2_000;

type Line = typeof deductionOrderLines.$inferSelect;

/** The texts of one line, by layout field. */
export function lineFields(line: Pick<Line, 'creditNumber' | 'employeeNumber' | 'curp' | 'amountAfter' | 'movement'>, payday: string) {
  return {
    creditId: creditFolio(line.creditNumber),
    employeeNumber: line.employeeNumber,
    curpRfc: line.curp,
    amount: line.amountAfter,
    period: payday,
    reference: '',
    movement: DEDUCTION_MOVEMENT_CODES[line.movement],
  } satisfies Record<LayoutField, string>;
}

/** "1234.50" as the layout writes amounts: in centavos without a point ("123450") or in pesos. */
const amountText = (amount: string, inCents: boolean) => (inCents ? String(BigInt(amount.replace('.', ''))) : amount);

/** Where each field goes: column numbers (csv, xlsx) with the movement appended when the layout has none. */
function columnsOf(layout: Extract<Layout, { format: 'csv' | 'xlsx' }>): [LayoutField, number][] {
  const columns = { ...layout.columns } as Partial<Record<LayoutField, number>>;
  if (columns.movement === undefined) columns.movement = Math.max(...Object.values(columns).map(Number)) + 1;
  return LAYOUT_FIELDS.filter((field) => columns[field] !== undefined).map((field) => [field, columns[field]!]);
}

function positionsOf(layout: Extract<Layout, { format: 'fixed' }>): [LayoutField, { start: number; length: number }][] {
  const positions = { ...layout.positions } as Partial<Record<LayoutField, { start: number; length: number }>>;
  if (positions.movement === undefined) {
    const end = Math.max(...Object.values(positions).map((position) => position!.start + position!.length));
    positions.movement = { start: end, length: 1 };
  }
  return LAYOUT_FIELDS.filter((field) => positions[field] !== undefined).map((field) => [field, positions[field]!]);
}

const HEADER_LABELS: Record<LayoutField, string> = {
  creditId: 'folio',
  employeeNumber: 'empleado',
  curpRfc: 'curp',
  amount: 'importe',
  period: 'fecha_pago',
  reference: 'referencia',
  movement: 'movimiento',
};

/** One row as cells in column order (empty cells between mapped columns). */
function cellsOf(columns: [LayoutField, number][], values: Record<LayoutField, string>): string[] {
  const cells = Array.from({ length: Math.max(...columns.map(([, column]) => column)) }, () => '');
  for (const [field, column] of columns) cells[column - 1] = values[field];
  return cells;
}

const csvCell = (text: string, delimiter: string) =>
  /["\r\n]/.test(text) || text.includes(delimiter) ? `"${text.replaceAll('"', '""')}"` : text;

/**
 * A fixed-width line: text fields left-aligned and space-padded, amounts right-aligned and zero-padded. A folio longer
 * than its field ("CR-00000123" in 10 positions) is written as its number zero-padded ("0000000123"), as the payment
 * files write it and read it back: cut short, it would name another credit.
 */
function fixedLine(positions: [LayoutField, { start: number; length: number }][], values: Record<LayoutField, string>): string {
  const width = Math.max(...positions.map(([, position]) => position.start + position.length - 1));
  const chars = Array.from({ length: width }, () => ' ');
  for (const [field, { start, length }] of positions) {
    const value = field === 'creditId' && values.creditId.length > length ? values.creditId.replace(/^CR-/, '') : values[field];
    const zeroPadded = field === 'amount' || (field === 'creditId' && value !== values.creditId);
    const text = zeroPadded ? value.padStart(length, '0').slice(-length) : value.padEnd(length, ' ').slice(0, length);
    for (let i = 0; i < length; i++) chars[start - 1 + i] = text[i]!;
  }
  return chars.join('');
}

export async function readBatch(tx: Tx, orderId: string, after: number): Promise<Line[]> {
  return tx
    .select()
    .from(deductionOrderLines)
    .where(and(eq(deductionOrderLines.orderId, orderId), gt(deductionOrderLines.line, after)))
    .orderBy(sql`${deductionOrderLines.line}`)
    .limit(BATCH);
}

/** Every line of the order, a batch at a time, each batch read in the user's scope (its own short transaction). */
async function* linesOf(read: (after: number) => Promise<Line[]>): AsyncGenerator<Line[]> {
  let after = 0;
  for (;;) {
    const batch = await read(after);
    if (batch.length > 0) yield batch;
    if (batch.length < BATCH) return;
    after = batch.at(-1)!.line;
  }
}

/** Streams the cédula's file in its agreement's layout. */
export async function sendDeductionOrderFile(
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { order, stored } = await request.inScope(async (tx) => {
    const found = await loadDeductionOrder(tx, request.params.id);
    const [agreement] = await tx
      .select({ layout: agreements.layout, code: agreements.code })
      .from(agreements)
      .where(eq(agreements.id, found.agreementId));
    return { order: found, stored: agreement! };
  });
  const parsed = layoutSchema.safeParse(stored.layout);
  if (!parsed.success)
    throw new HttpProblem(
      409,
      'Layout no legible',
      'El layout del convenio no se puede leer: defínelo de nuevo en el convenio antes de descargar la cédula.',
    );
  const layout = parsed.data;
  const read = (after: number) => request.inScope((tx) => readBatch(tx, order.id, after));
  const base = `cedula-${stored.code}-${order.payday}${order.status === 'borrador' ? '-borrador' : ''}`.replace(/[^\w.-]+/g, '_');
  const valuesOf = (line: Line) => {
    const values = lineFields(line, order.payday);
    return { ...values, amount: amountText(values.amount, layout.amountInCents ?? false) };
  };

  if (layout.format === 'xlsx') {
    const columns = columnsOf(layout);
    const stream = new PassThrough();
    const write = async () => {
      const excel = await loadExcel();
      const workbook = new excel.stream.xlsx.WorkbookWriter({ stream, useStyles: false });
      const sheet = workbook.addWorksheet(layout.sheet || 'Cédula');
      if (layout.hasHeader) sheet.addRow(cellsOf(columns, HEADER_LABELS)).commit();
      for await (const batch of linesOf(read)) {
        for (const line of batch) {
          const cells: (string | number)[] = cellsOf(columns, valuesOf(line));
          const amountColumn = columns.find(([field]) => field === 'amount')![1];
          cells[amountColumn - 1] = Number(cells[amountColumn - 1]);
          sheet.addRow(cells).commit();
        }
        if (stream.destroyed) return;
        await zipCaughtUp(sheet, { maxBytes: 1024 * 1024, abandoned: () => stream.destroyed, pollMs: 10 });
      }
      sheet.commit();
      await workbook.commit();
    };
    write().catch((error: unknown) => {
      request.log.error({ err: error }, 'deduction order file failed');
      stream.destroy(error as Error);
    });
    return reply
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${base}.xlsx"`)
      .send(stream);
  }

  const text = async function* (): AsyncGenerator<string> {
    if (layout.format === 'csv') {
      const columns = columnsOf(layout);
      const row = (cells: string[]) => `${cells.map((cell) => csvCell(cell, layout.delimiter)).join(layout.delimiter)}\r\n`;
      if (layout.hasHeader) yield row(cellsOf(columns, HEADER_LABELS));
      for await (const batch of linesOf(read)) yield batch.map((line) => row(cellsOf(columns, valuesOf(line)))).join('');
    } else {
      const positions = positionsOf(layout);
      for await (const batch of linesOf(read)) yield batch.map((line) => `${fixedLine(positions, valuesOf(line))}\r\n`).join('');
    }
  };
  return reply
    .type(layout.format === 'csv' ? 'text/csv; charset=utf-8' : 'text/plain; charset=utf-8')
    .header('content-disposition', `attachment; filename="${base}.${layout.format === 'csv' ? 'csv' : 'txt'}"`)
    .send(Readable.from(text()));
}
