import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import { PAYMENT_SPLIT_SHOWN_COLUMNS, columnLabel, type AllocationSplit } from '@portal/contract';
import { formatCents, parseCents } from '@portal/lending';
import { formatMoney } from '../../lib/format';

/** How a payment's pesos were split, shared by the file rows, the payments report and the credit view. */

/** Each component of a split or an allocation line, as the clerk reads it. */
const COMPONENT_NAMES: Record<string, string> = {
  principal: 'Capital',
  interest: 'Interés',
  iva: 'IVA del interés',
  moratoryInterest: 'Moratorios',
  moratoryIva: 'IVA de moratorios',
  fees: 'Comisiones',
  feesIva: 'IVA de comisiones',
  overpayment: 'Sobrepago',
};
export const componentName = (component: string) => COMPONENT_NAMES[component] ?? component;

/** The waterfall's steps (packages/lending allocation): what was due, the period's accrued interest, a prepayment. */
const STEP_NAMES: Record<string, string> = { due: 'Exigible', accrued: 'Devengado del periodo', prepayment: 'Abono anticipado a capital' };
const stepName = (step: string) => STEP_NAMES[step] ?? step;

const plus = (a: string, b: string) => formatCents(parseCents(a, 'importe') + parseCents(b, 'importe'));

const shown = (key: (typeof PAYMENT_SPLIT_SHOWN_COLUMNS)[number]['key']) => columnLabel(PAYMENT_SPLIT_SHOWN_COLUMNS, key);

/** The split in the six columns the reports show: moratorios and comisiones each with their IVA. */
export const SPLIT_FIGURES = [
  { key: 'principal', label: shown('principal'), of: (split: AllocationSplit) => split.principal },
  { key: 'interest', label: shown('interest'), of: (split: AllocationSplit) => split.interest },
  { key: 'iva', label: shown('iva'), of: (split: AllocationSplit) => split.iva },
  { key: 'moratory', label: shown('moratory'), of: (split: AllocationSplit) => plus(split.moratoryInterest, split.moratoryIva) },
  { key: 'fees', label: shown('fees'), of: (split: AllocationSplit) => plus(split.fees, split.feesIva) },
  { key: 'overpayment', label: shown('overpayment'), of: (split: AllocationSplit) => split.overpayment },
] as const;

/** Grid columns of a row's split (a dash while a row has none, e.g. a file not applied yet). */
export function splitColumns<Row extends GridValidRowModel>(splitOf: (row: Row) => AllocationSplit | null): GridColDef<Row>[] {
  return SPLIT_FIGURES.map(({ key, label, of }): GridColDef<Row> => ({
    field: `split-${key}`,
    headerName: label,
    width: key === 'moratory' || key === 'fees' ? 170 : 115,
    align: 'right',
    headerAlign: 'right',
    sortable: false,
    valueGetter: (_value, row) => {
      const split = splitOf(row);
      return split ? of(split) : null;
    },
    valueFormatter: (value: string | null) => (value == null ? '—' : formatMoney(value)),
  }));
}

/** Where each peso of a payment went: installment, component, amount and the waterfall's step. */
export function AllocationTable({
  lines,
  'aria-label': label,
}: {
  lines: { installment: number; component: string; amount: string; step: string }[];
  'aria-label': string;
}) {
  return (
    <Table size="small" aria-label={label}>
      <TableHead>
        <TableRow>
          <TableCell>Amortización</TableCell>
          <TableCell>Concepto</TableCell>
          <TableCell align="right">Importe</TableCell>
          <TableCell>Paso</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {lines.map((line, index) => (
          <TableRow key={`${line.installment}-${line.component}-${index}`}>
            <TableCell>{line.installment}</TableCell>
            <TableCell>{componentName(line.component)}</TableCell>
            <TableCell align="right">{formatMoney(line.amount)}</TableCell>
            <TableCell>{stepName(line.step)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
