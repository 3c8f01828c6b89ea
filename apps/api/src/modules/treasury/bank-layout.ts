import { splitCsvLine, textLines } from '../shared/layout-parser';

/**
 * A batch written as a bank's bulk SPEI upload (docs/domain.md, "Tesorería"). The layout is data: each record (header,
 * detail, trailer) is its fields in order, each with its width, alignment and padding, so a second bank's format is a
 * new definition, not code. The first definition is of our design and carries what a Mexican bank's bulk upload needs;
 * the real bank's format must be confirmed with the bank before the first file is sent.
 */

export type BatchField =
  | 'recordType'
  | 'sourceAccount'
  | 'batchDate'
  | 'batchFolio'
  | 'lineCount'
  | 'total'
  | 'line'
  | 'trackingKey'
  | 'clabe'
  | 'beneficiary'
  | 'beneficiaryId'
  | 'amount'
  | 'concept'
  | 'reference';

export interface FixedField {
  readonly field: BatchField;
  readonly length: number;
  /** Numbers right-aligned with zeros, texts left-aligned with spaces. */
  readonly align: 'left' | 'right';
  readonly pad: ' ' | '0';
  /** A constant instead of a value (the record type). */
  readonly constant?: string;
}

export interface BankLayout {
  readonly name: string;
  /** Line end the bank expects. */
  readonly lineEnd: '\r\n' | '\n';
  readonly header: readonly FixedField[];
  readonly detail: readonly FixedField[];
  readonly trailer: readonly FixedField[];
  /** The CSV alternative: its columns in order, with their header names. */
  readonly csvColumns: readonly (readonly [BatchField, string])[];
}

const text = (field: BatchField, length: number): FixedField => ({ field, length, align: 'left', pad: ' ' });
const number = (field: BatchField, length: number): FixedField => ({ field, length, align: 'right', pad: '0' });
const type = (constant: string): FixedField => ({ field: 'recordType', length: 1, align: 'left', pad: ' ', constant });

/**
 * SPEI masivo, portal v1 (our design): one header, one detail per transfer, one trailer. Amounts in centavos without
 * a point, dates AAAAMMDD, texts upper case without accents. Header 58 characters, detail 175, trailer 22.
 */
export const SPEI_PORTAL_V1: BankLayout = {
  name: 'SPEI masivo (portal v1)',
  lineEnd: '\r\n',
  header: [
    type('H'),
    number('sourceAccount', 18),
    number('batchDate', 8),
    number('batchFolio', 10),
    number('lineCount', 6),
    number('total', 15),
  ],
  detail: [
    type('D'),
    number('line', 6),
    text('trackingKey', 30),
    number('clabe', 18),
    text('beneficiary', 40),
    text('beneficiaryId', 18),
    number('amount', 15),
    text('concept', 40),
    number('reference', 7),
  ],
  trailer: [type('T'), number('lineCount', 6), number('total', 15)],
  csvColumns: [
    ['line', 'linea'],
    ['trackingKey', 'clave_rastreo'],
    ['sourceAccount', 'cuenta_origen'],
    ['clabe', 'clabe_beneficiario'],
    ['beneficiary', 'beneficiario'],
    ['beneficiaryId', 'rfc_curp'],
    ['amount', 'importe'],
    ['concept', 'concepto'],
    ['reference', 'referencia_numerica'],
  ],
};

/** The longest concept a transfer carries (SPEI's concepto de pago as banks take it in bulk files). */
export const CONCEPT_MAX = 40;

/** Text as a bank file takes it: upper case A–Z, digits and spaces only (Ñ → N, accents dropped), single spaces. */
export function bankText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9 ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** "1234.50" → "123450" (centavos, no point). */
export const centavos = (amount: string): string => {
  const [pesos, cents = ''] = amount.split('.');
  return String(BigInt(pesos! + cents.padEnd(2, '0').slice(0, 2)));
};

export class LayoutOverflowError extends Error {}

function cell(spec: FixedField, values: Partial<Record<BatchField, string>>): string {
  const value = spec.constant ?? values[spec.field] ?? '';
  if (value.length > spec.length) {
    throw new LayoutOverflowError(`El campo ${spec.field} («${value}») no cabe en ${spec.length} posiciones.`);
  }
  return spec.align === 'left' ? value.padEnd(spec.length, spec.pad) : value.padStart(spec.length, spec.pad);
}

export const fixedRecord = (fields: readonly FixedField[], values: Partial<Record<BatchField, string>>): string =>
  fields.map((spec) => cell(spec, values)).join('');

export interface BatchForFile {
  sourceAccount: string;
  /** AAAA-MM-DD */
  date: string;
  folioNumber: number;
  total: string;
  lines: {
    line: number;
    trackingKey: string;
    clabe: string;
    beneficiary: string;
    beneficiaryId: string | null;
    amount: string;
    concept: string;
    reference: string;
  }[];
}

function lineValues(batch: BatchForFile, line: BatchForFile['lines'][number], amount: (value: string) => string) {
  return {
    line: String(line.line),
    trackingKey: line.trackingKey,
    sourceAccount: batch.sourceAccount,
    clabe: line.clabe,
    beneficiary: bankText(line.beneficiary).slice(0, 40),
    beneficiaryId: line.beneficiaryId ?? '',
    amount: amount(line.amount),
    concept: bankText(line.concept).slice(0, CONCEPT_MAX),
    reference: line.reference,
  } satisfies Partial<Record<BatchField, string>>;
}

/** The batch in the layout's fixed-width records: header, one detail per line, trailer. */
export function renderFixed(layout: BankLayout, batch: BatchForFile): string {
  const totals = { lineCount: String(batch.lines.length), total: centavos(batch.total) };
  const records = [
    fixedRecord(layout.header, {
      sourceAccount: batch.sourceAccount,
      batchDate: batch.date.replaceAll('-', ''),
      batchFolio: String(batch.folioNumber),
      ...totals,
    }),
    ...batch.lines.map((line) => fixedRecord(layout.detail, lineValues(batch, line, centavos))),
    fixedRecord(layout.trailer, totals),
  ];
  return records.map((record) => record + layout.lineEnd).join('');
}

const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** The CSV alternative: a header row and one row per line, amounts in pesos with two decimals. */
export function renderCsv(layout: BankLayout, batch: BatchForFile): string {
  const rows = [
    layout.csvColumns.map(([, name]) => name),
    ...batch.lines.map((line) => {
      const values = lineValues(batch, line, (amount) => amount) as Partial<Record<BatchField, string>>;
      return layout.csvColumns.map(([field]) => values[field] ?? '');
    }),
  ];
  return rows.map((row) => row.map(csvCell).join(',') + layout.lineEnd).join('');
}

export interface AnswerLine {
  trackingKey: string;
  result: 'liquidada' | 'rechazada';
  reason?: string;
  settledOn?: string;
}

export class AnswerFileError extends Error {}

const RESULT_WORDS: Record<string, AnswerLine['result']> = {
  LIQUIDADA: 'liquidada',
  LIQUIDADO: 'liquidada',
  PAGADA: 'liquidada',
  RECHAZADA: 'rechazada',
  RECHAZADO: 'rechazada',
  DEVUELTA: 'rechazada',
};

/**
 * The bank's answer as CSV (comma or semicolon): clave de rastreo, resultado (LIQUIDADA or RECHAZADA/DEVUELTA),
 * motivo, fecha (AAAA-MM-DD or DD/MM/AAAA, optional). A first line naming the columns is skipped.
 */
export function parseAnswer(content: string): AnswerLine[] {
  const lines = textLines(content.replace(/^\uFEFF/, ''));
  const out: AnswerLine[] = [];
  const problems: string[] = [];
  for (const { raw, line } of lines) {
    const delimiter = raw.includes(';') && !raw.includes(',') ? ';' : ',';
    const cells = splitCsvLine(raw, delimiter).cells.map((value) => value.trim());
    const [trackingKey = '', resultText = '', reason = '', dateText = ''] = cells;
    if (line === 1 && /rastreo/i.test(trackingKey)) continue;
    const result = RESULT_WORDS[bankText(resultText)];
    if (!trackingKey || !result) {
      problems.push(`Línea ${line}: se espera «clave de rastreo, LIQUIDADA o RECHAZADA, motivo, fecha».`);
      continue;
    }
    let settledOn: string | undefined;
    const dmy = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(dateText);
    if (dmy) settledOn = `${dmy[3]}-${dmy[2]}-${dmy[1]}`;
    else if (/^\d{4}-\d{2}-\d{2}$/.test(dateText)) settledOn = dateText;
    else if (dateText) problems.push(`Línea ${line}: fecha «${dateText}» no válida (DD/MM/AAAA).`);
    if (result === 'rechazada' && !reason) problems.push(`Línea ${line}: el rechazo de ${trackingKey} no trae motivo.`);
    out.push({ trackingKey, result, ...(reason ? { reason } : {}), ...(settledOn ? { settledOn } : {}) });
  }
  if (problems.length > 0) throw new AnswerFileError(problems.slice(0, 20).join(' '));
  if (out.length === 0) throw new AnswerFileError('El archivo de respuesta no tiene líneas.');
  return out;
}
