import { LAYOUT_FIELDS, LAYOUT_FIELD_LABELS, type Layout, type LayoutField } from '@portal/contract';
import { loadExcel } from '../../lib/libraries';

/**
 * Writes rows as an employer's payment file in an agreement's layout (csv, xlsx or fixed width): the inverse of the
 * layout parser. The demo's seed makes its payroll files with it, and the tests and the benchmark their fixtures.
 */
export type FileFields = Partial<Record<LayoutField, string>>;

const CSV_SPECIAL = /["\r\n,;|\t]/;
const csvCell = (value: string) => (CSV_SPECIAL.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
const toCents = (amount: string) => {
  const [whole = '0', decimals = ''] = amount.split('.');
  return (BigInt(whole) * 100n + BigInt(decimals.padEnd(2, '0').slice(0, 2))).toString();
};

function cellsOf(layout: Extract<Layout, { format: 'csv' | 'xlsx' }>, fields: FileFields): string[] {
  const width = Math.max(...Object.values(layout.columns).filter((column): column is number => column !== undefined));
  const cells = Array.from({ length: width }, () => '');
  for (const key of LAYOUT_FIELDS) {
    const column = layout.columns[key];
    const value = fields[key];
    if (column !== undefined && value !== undefined) cells[column - 1] = key === 'amount' && layout.amountInCents ? toCents(value) : value;
  }
  return cells;
}

function headerOf(layout: Extract<Layout, { format: 'csv' | 'xlsx' }>): string[] {
  return cellsOf(layout, Object.fromEntries(LAYOUT_FIELDS.map((key) => [key, LAYOUT_FIELD_LABELS[key]])) as FileFields).map(
    (cell, index) => cell || `Columna ${index + 1}`,
  );
}

export async function renderPaymentFile(layout: Layout, rows: readonly FileFields[]): Promise<Buffer> {
  if (layout.format === 'fixed') {
    const lines = rows.map((fields) => {
      let line = '';
      for (const key of LAYOUT_FIELDS) {
        const position = layout.positions[key];
        if (!position) continue;
        const raw = key === 'amount' && (layout.amountInCents ?? true) ? toCents(fields.amount ?? '0') : (fields[key] ?? '');
        const value =
          key === 'amount' || (key === 'creditId' && /^\d+$/.test(raw))
            ? raw.padStart(position.length, '0')
            : raw.padEnd(position.length, ' ');
        line = line.padEnd(position.start - 1, ' ') + value.slice(0, position.length) + line.slice(position.start - 1 + position.length);
      }
      return line;
    });
    return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
  }
  if (layout.format === 'csv') {
    const lines = [...(layout.hasHeader ? [headerOf(layout)] : []), ...rows.map((fields) => cellsOf(layout, fields))];
    return Buffer.from(`${lines.map((cells) => cells.map(csvCell).join(layout.delimiter)).join('\r\n')}\r\n`, 'utf8');
  }
  const excel = await loadExcel();
  const workbook = new excel.Workbook();
  const sheet = workbook.addWorksheet(layout.sheet || 'Hoja1');
  if (layout.hasHeader) sheet.addRow(headerOf(layout));
  for (const fields of rows) sheet.addRow(cellsOf(layout, fields));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
