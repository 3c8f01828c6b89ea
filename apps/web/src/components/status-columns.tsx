import Button from '@mui/material/Button';
import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import { StatusChip } from './status-chip';

/** Active/inactive, the same way on every list: the status filter, its chip column and its toggle button. */
export const STATUS_FILTER_OPTIONS = [
  { value: 'active', label: 'Activos' },
  { value: 'inactive', label: 'Inactivos' },
];

type Toggleable = GridValidRowModel & { active: boolean };

export function statusColumn<Row extends Toggleable>(): GridColDef<Row> {
  return {
    field: 'active',
    headerName: 'Estado',
    width: 110,
    renderCell: ({ row }) => <StatusChip status={row.active ? 'activo' : 'inactivo'} />,
  };
}

/** "Desactivar" on an active row, `activateLabel` on an inactive one; the click does not open the row. */
export function statusActionColumn<Row extends Toggleable>(options: {
  activateLabel: string;
  onToggle: (row: Row) => void;
  /** Rows that get no button (e.g. the signed-in user's own). */
  hidden?: (row: Row) => boolean;
  width?: number;
}): GridColDef<Row> {
  return {
    field: 'actions',
    headerName: 'Acciones',
    sortable: false,
    width: options.width ?? 130,
    renderCell: ({ row }) =>
      options.hidden?.(row) ? null : (
        <Button
          size="small"
          color={row.active ? 'error' : 'primary'}
          onClick={(event) => {
            event.stopPropagation();
            options.onToggle(row);
          }}
        >
          {row.active ? 'Desactivar' : options.activateLabel}
        </Button>
      ),
  };
}
