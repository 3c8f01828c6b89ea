import { DataGrid, type GridColDef, type GridRowParams, type GridSortModel, type GridValidRowModel } from '@mui/x-data-grid';
import { esES } from '@mui/x-data-grid/locales';
import Alert from '@mui/material/Alert';
import { PAGE_SIZES, type ListState } from '../lib/list-state';

/**
 * The server-side grid every list screen uses: paging and sorting are done by the API in SQL, so the grid only
 * shows one page and reports what the user asked for. Screens declare columns; nothing else.
 */
export interface ServerDataGridProps<Row extends GridValidRowModel> {
  columns: GridColDef<Row>[];
  rows: Row[];
  total: number;
  loading: boolean;
  error?: string | null;
  state: ListState;
  onChange: (change: Partial<ListState>) => void;
  onRowClick?: (row: Row) => void;
  getRowId?: (row: Row) => string;
  /** Shown when the filtered list is empty. */
  emptyText?: string;
  'aria-label': string;
}

const localeText = esES.components.MuiDataGrid.defaultProps.localeText;

export function toSortModel(sort: string | null): GridSortModel {
  if (!sort) return [];
  return sort.startsWith('-') ? [{ field: sort.slice(1), sort: 'desc' }] : [{ field: sort, sort: 'asc' }];
}

export function fromSortModel(model: GridSortModel): string | null {
  const [first] = model;
  if (!first?.sort) return null;
  return first.sort === 'desc' ? `-${first.field}` : first.field;
}

export function ServerDataGrid<Row extends GridValidRowModel>(props: ServerDataGridProps<Row>) {
  const { state, onChange } = props;
  return (
    <>
      {props.error ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {props.error}
        </Alert>
      ) : null}
      <DataGrid<Row>
        aria-label={props['aria-label']}
        columns={props.columns}
        rows={props.rows}
        rowCount={props.total}
        loading={props.loading}
        getRowId={props.getRowId}
        paginationMode="server"
        sortingMode="server"
        filterMode="server"
        disableColumnFilter
        // Filtering is done in SQL; without this the grid probes `new Function`, which the portal's CSP refuses.
        disableEval
        disableRowSelectionOnClick
        pageSizeOptions={[...PAGE_SIZES]}
        paginationModel={{ page: state.page - 1, pageSize: state.pageSize }}
        onPaginationModelChange={(model) => onChange({ page: model.page + 1, pageSize: model.pageSize })}
        sortModel={toSortModel(state.sort)}
        onSortModelChange={(model) => onChange({ sort: fromSortModel(model) })}
        onRowClick={props.onRowClick ? (params: GridRowParams<Row>) => props.onRowClick?.(params.row) : undefined}
        localeText={{ ...localeText, noRowsLabel: props.emptyText ?? 'No hay registros con estos filtros.' }}
        autoHeight
        sx={{ bgcolor: 'background.paper', '& .MuiDataGrid-row': { cursor: props.onRowClick ? 'pointer' : 'default' } }}
      />
    </>
  );
}
