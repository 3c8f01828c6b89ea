import { LABEL_UPDATE_MAX_ROWS, type LabelUpdateRowInput } from '@portal/contract';
import { loadExcel } from '../../lib/libraries';
import { SpreadsheetLimitError, openSpreadsheet } from '../../lib/xlsx-read';
import { cellText, decodeText, splitCsvLine, textLines } from '../shared/layout-parser';
import { plainText } from '../shared/text';

/** Why a label file cannot be read at all; a wrong cell is reported on its row instead (the preview). */
export class LabelFileError extends Error {}

/** The header names each column answers to (accents and case aside), and the name a message gives it. */
const COLUMNS = { folio: ['folio', 'credito', 'folio del credito'], label: ['etiqueta'], action: ['accion'] } as const;
const COLUMN_NAMES = { folio: 'folio', label: 'etiqueta', action: 'acción' } as const;
type Column = keyof typeof COLUMNS;

/** Where each column is, from the header row; the columns may come in any order, with others between them. */
function columnsOf(header: string[]): Record<Column, number> {
  const names = header.map(plainText);
  const found = Object.fromEntries(
    (Object.keys(COLUMNS) as Column[]).map((column) => [
      column,
      names.findIndex((name) => (COLUMNS[column] as readonly string[]).includes(name)),
    ]),
  );
  const missing = (Object.keys(found) as Column[]).filter((column) => found[column] === -1);
  if (missing.length > 0) {
    throw new LabelFileError(
      `La primera fila debe nombrar las columnas folio, etiqueta y acción; falta ${missing.map((column) => COLUMN_NAMES[column]).join(', ')}.`,
    );
  }
  return found as Record<Column, number>;
}

function toRows(table: { line: number; cells: string[] }[]): LabelUpdateRowInput[] {
  const [header, ...data] = table;
  if (!header) throw new LabelFileError('El archivo está vacío.');
  if (data.length === 0) throw new LabelFileError('El archivo no tiene filas de datos después de los encabezados.');
  if (data.length > LABEL_UPDATE_MAX_ROWS)
    throw new LabelFileError(
      `El archivo tiene ${data.length.toLocaleString('es-MX')} filas; se leen hasta ${LABEL_UPDATE_MAX_ROWS.toLocaleString('es-MX')}. Divídelo en varios.`,
    );
  const at = columnsOf(header.cells);
  return data.map(({ line, cells }) => ({
    line,
    folio: (cells[at.folio] ?? '').trim().slice(0, 40),
    label: (cells[at.label] ?? '').trim().slice(0, 60),
    action: (cells[at.action] ?? '').trim().slice(0, 20),
  }));
}

/** The delimiter the header line uses: the first of , ; | tab that it contains. */
const delimiterOf = (header: string) => [',', ';', '|', '\t'].find((candidate) => header.includes(candidate)) ?? ',';

async function readXlsx(content: Buffer): Promise<{ line: number; cells: string[] }[]> {
  const excel = await loadExcel();
  const workbook = new excel.Workbook();
  try {
    // Inflated under a hard cap and measured before exceljs builds anything.
    await workbook.xlsx.load(openSpreadsheet(content) as unknown as ArrayBuffer);
  } catch (error) {
    if (error instanceof SpreadsheetLimitError) throw new LabelFileError(error.message);
    throw new LabelFileError('El archivo no es un Excel (.xlsx) válido.');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new LabelFileError('El Excel no tiene hojas.');
  const table: { line: number; cells: string[] }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    const cells = Array.from({ length: row.cellCount }, (_, index) => cellText(row.getCell(index + 1), excel));
    if (cells.some((cell) => cell.trim() !== '')) table.push({ line, cells });
  });
  return table;
}

/** A .xlsx is a zip (PK); anything else is read as CSV text in UTF-8 or windows-1252. */
export async function readLabelFile(content: Buffer): Promise<LabelUpdateRowInput[]> {
  if (content.length === 0) throw new LabelFileError('El archivo está vacío.');
  if (content[0] === 0x50 && content[1] === 0x4b) return toRows(await readXlsx(content));
  if (content.includes(0)) throw new LabelFileError('El archivo no es un CSV ni un Excel (.xlsx).');
  const lines = textLines(decodeText(content).text);
  const delimiter = delimiterOf(lines[0]?.raw ?? '');
  return toRows(lines.map(({ line, raw }) => ({ line, cells: splitCsvLine(raw, delimiter).cells })));
}
