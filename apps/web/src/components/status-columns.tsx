import Button from '@mui/material/Button';
import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import { useConfirm } from './confirm-dialog';
import type { Notice } from './notice-snackbar';
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

/** The status change a toggle asks the API for: the row, its new state and the version it was read at. */
export interface StatusChange {
  id: string;
  active: boolean;
  version: number;
}

/**
 * A list's deactivate/activate action: asks first (in the row's own words), then applies the change and reports
 * the outcome, or the API's refusal, as a notice.
 */
export function useStatusToggle<Row extends Toggleable & { id: string; version: number }>(options: {
  setStatus: (change: StatusChange) => Promise<unknown>;
  /** The question's title and message, and the notice once done, for deactivating (`deactivate`) or activating. */
  describe: (row: Row, deactivate: boolean) => { title: string; message: string; done: string };
  onNotice: (notice: Notice) => void;
}) {
  const confirm = useConfirm();
  return async (row: Row) => {
    const deactivate = row.active;
    const copy = options.describe(row, deactivate);
    if (!(await confirm({ title: copy.title, message: copy.message, destructive: deactivate }))) return;
    try {
      await options.setStatus({ id: row.id, active: !deactivate, version: row.version });
      options.onNotice({ kind: 'success', text: copy.done });
    } catch (error) {
      options.onNotice({ kind: 'error', text: (error as Error).message });
    }
  };
}
