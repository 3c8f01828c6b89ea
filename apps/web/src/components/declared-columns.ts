import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import type { ColumnKind, ListColumn } from '@portal/contract';
import { formatDate, formatDateTime, formatMoney } from '../lib/format';

/** How a kind of value shows in a grid: money and counts to the right, money and dates in es-MX. */
const KIND_LAYOUT: Record<ColumnKind, Partial<GridColDef>> = {
  text: {},
  money: { align: 'right', headerAlign: 'right', valueFormatter: (value: string | null) => (value == null ? '—' : formatMoney(value)) },
  count: { align: 'right', headerAlign: 'right' },
  date: { valueFormatter: (value: string | null) => formatDate(value) },
  datetime: { valueFormatter: (value: string | null) => formatDateTime(value) },
};

/**
 * A grid column from a list's declared column (packages/contract columns.ts): its field, its label as the header and
 * its kind's alignment and format; the screen adds only its layout (width, sorting, a cell of its own).
 */
export function gridColumn<Row extends GridValidRowModel, Key extends string>(
  columns: readonly ListColumn<Key>[],
  key: Key,
  layout: Omit<Partial<GridColDef<Row>>, 'headerName'> = {},
): GridColDef<Row> {
  const declared = columns.find((candidate) => candidate.key === key);
  if (!declared) throw new Error(`La lista no declara la columna ${key}`);
  return { field: key, ...(KIND_LAYOUT[declared.kind] as Partial<GridColDef<Row>>), ...layout, headerName: declared.label };
}

/** The grid columns of a list, in its declared order: those the screen gives a layout for. */
export function gridColumns<Row extends GridValidRowModel, Key extends string>(
  columns: readonly ListColumn<Key>[],
  layout: Partial<Record<Key, Omit<Partial<GridColDef<Row>>, 'headerName'>>>,
): GridColDef<Row>[] {
  return columns.filter(({ key }) => key in layout).map(({ key }) => gridColumn<Row, Key>(columns, key, layout[key]));
}
