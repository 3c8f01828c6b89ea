import { createContext, useContext, useMemo, type ReactNode } from 'react';
import {
  DataGrid,
  GridColumnMenu,
  type GridColDef,
  type GridColumnMenuItemProps,
  type GridColumnMenuProps,
  type GridColumnVisibilityModel,
  type GridRowId,
  type GridRowParams,
  type GridRowSelectionModel,
  type GridSortModel,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import { esES } from '@mui/x-data-grid/locales';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import ArrowBack from '@mui/icons-material/ArrowBack';
import ArrowForward from '@mui/icons-material/ArrowForward';
import { useNavigate } from 'react-router';
import { moveField, useGridPrefs } from '../lib/grid-prefs';
import { PAGE_SIZES, type ListState } from '../lib/list-state';

/**
 * The server-side grid every list screen uses: paging and sorting are done by the API in SQL, so the grid only
 * shows one page and reports what the user asked for. Screens declare columns; nothing else.
 */
export interface ServerDataGridProps<Row extends GridValidRowModel> {
  columns: GridColDef<Row>[];
  rows: Row[];
  /** How many rows match, counted up to the API's cap (the contract's LIST_COUNT_CAP); `totalCapped` when more do. */
  total: number;
  totalCapped?: boolean;
  loading: boolean;
  error?: string | null;
  /** "Reintentar" beside the error: loads the page again. */
  onRetry?: () => void;
  state: ListState;
  onChange: (change: Partial<ListState>) => void;
  /** Where a row leads: opened by mouse and by Enter. `onRowClick` instead for a row that opens something else. */
  rowTo?: (row: Row) => string;
  onRowClick?: (row: Row) => void;
  getRowId?: (row: Row) => string;
  /** Shown when the filtered list is empty. */
  emptyText?: string;
  'aria-label': string;
  /** Remembers the user's columns (shown, width, order) in this browser under this name. */
  storageKey?: string;
  /** Columns a first visit does not show (the user may show them from a column's menu). */
  defaultHidden?: readonly string[];
  /** Columns hidden on a phone-sized screen, so the list fits without scrolling sideways. */
  hiddenOnPhone?: readonly string[];
  /** Rows chosen with a checkbox (by row id), kept across pages and filters: a bulk action acts on them. */
  selection?: { ids: readonly string[]; onChange: (ids: string[]) => void };
}

/** The column menu's "Mover a la izquierda / derecha": the community grid has no drag-to-reorder. */
const MoveContext = createContext<((field: string, step: -1 | 1) => void) | null>(null);

function MoveColumnItems({ colDef, onClick }: GridColumnMenuItemProps) {
  const move = useContext(MoveContext);
  if (!move) return null;
  const item = (step: -1 | 1, label: string, icon: ReactNode) => (
    <MenuItem
      onClick={(event) => {
        move(colDef.field, step);
        onClick(event);
      }}
    >
      <ListItemIcon>{icon}</ListItemIcon>
      <ListItemText>{label}</ListItemText>
    </MenuItem>
  );
  return (
    <>
      {item(-1, 'Mover a la izquierda', <ArrowBack fontSize="small" />)}
      {item(1, 'Mover a la derecha', <ArrowForward fontSize="small" />)}
    </>
  );
}

function ColumnMenu(props: GridColumnMenuProps) {
  return (
    <GridColumnMenu {...props} slots={{ columnMenuMoveItem: MoveColumnItems }} slotProps={{ columnMenuMoveItem: { displayOrder: 15 } }} />
  );
}

const localeText = esES.components.MuiDataGrid.defaultProps.localeText;

/**
 * The grid's row count and its "1–25 de …" for a count the API stopped at its cap: the count unknown (-1) with a
 * next page, and "más de 1,000" rather than a number that is not the count, until a short page past the cap ends it.
 */
export function cappedPaging(total: number, totalCapped: boolean, state: { page: number; pageSize: number }, rowsOnPage: number) {
  if (!totalCapped) return { rowCount: total };
  const seen = (state.page - 1) * state.pageSize + rowsOnPage;
  // A page past the cap that comes short is the last one: the count is known.
  if (seen > total && rowsOnPage < state.pageSize) return { rowCount: seen };
  return {
    rowCount: -1,
    paginationMeta: { hasNextPage: true },
    paginationDisplayedRows: ({ from, to }: { from: number; to: number }) =>
      `${from.toLocaleString('es-MX')}–${to.toLocaleString('es-MX')} de más de ${Math.max(total, to).toLocaleString('es-MX')}`,
  };
}

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
  const { state, onChange, rowTo } = props;
  const navigate = useNavigate();
  const open = rowTo ? (row: Row) => void navigate(rowTo(row)) : props.onRowClick;
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [prefs, setPrefs] = useGridPrefs(props.storageKey, props.defaultHidden);
  const fields = props.columns.map((column) => column.field);

  // The user's order and widths over the screen's declared columns (a width chosen by hand replaces a flex).
  const columns = useMemo(() => {
    const rank = (field: string) => (prefs.order.includes(field) ? prefs.order.indexOf(field) : prefs.order.length + fields.indexOf(field));
    return [...props.columns]
      .sort((a, b) => rank(a.field) - rank(b.field))
      .map((column) => (prefs.widths[column.field] ? { ...column, width: prefs.widths[column.field], flex: undefined } : column));
    // `fields` derives from props.columns.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.columns, prefs.order, prefs.widths]);

  const visibility: GridColumnVisibilityModel = Object.fromEntries([
    ...prefs.hidden.map((field) => [field, false]),
    ...(phone ? (props.hiddenOnPhone ?? []).map((field) => [field, false]) : []),
  ]);

  const selection = props.selection;
  const rowId = (row: Row) => String(props.getRowId ? props.getRowId(row) : row.id);
  /** The grid's model of the page (the header checkbox answers "all but these") as the ids chosen on every page. */
  const select = (model: GridRowSelectionModel) => {
    if (!selection) return;
    const page = props.rows.map(rowId);
    const onPage = model.type === 'include' ? page.filter((id) => model.ids.has(id)) : page.filter((id) => !model.ids.has(id));
    selection.onChange([...selection.ids.filter((id) => !page.includes(id)), ...onPage]);
  };

  const paging = cappedPaging(props.total, props.totalCapped ?? false, state, props.rows.length);

  const move = (field: string, step: -1 | 1) =>
    setPrefs((current) => ({ ...current, order: moveField(current.order, fields, field, step) }));

  return (
    <MoveContext.Provider value={move}>
      {props.error ? (
        <Alert
          severity="error"
          sx={{ mb: 2 }}
          action={
            props.onRetry ? (
              <Button color="inherit" size="small" onClick={props.onRetry}>
                Reintentar
              </Button>
            ) : undefined
          }
        >
          {props.error}
        </Alert>
      ) : null}
      <DataGrid<Row>
        aria-label={props['aria-label']}
        columns={columns}
        rows={props.rows}
        rowCount={paging.rowCount}
        {...(paging.paginationMeta ? { paginationMeta: paging.paginationMeta } : {})}
        loading={props.loading}
        getRowId={props.getRowId}
        paginationMode="server"
        sortingMode="server"
        filterMode="server"
        disableColumnFilter
        // Filtering is done in SQL; without this the grid probes `new Function`, which the portal's CSP refuses.
        disableEval
        disableRowSelectionOnClick
        {...(selection
          ? {
              checkboxSelection: true,
              keepNonExistentRowsSelected: true,
              rowSelectionModel: { type: 'include', ids: new Set<GridRowId>(selection.ids) },
              onRowSelectionModelChange: select,
            }
          : {})}
        pageSizeOptions={[...PAGE_SIZES]}
        paginationModel={{ page: state.page - 1, pageSize: state.pageSize }}
        onPaginationModelChange={(model) => onChange({ page: model.page + 1, pageSize: model.pageSize })}
        sortModel={toSortModel(state.sort)}
        onSortModelChange={(model) => onChange({ sort: fromSortModel(model) })}
        onRowClick={open ? (params: GridRowParams<Row>) => open(params.row) : undefined}
        // Enter on a focused cell opens its row, as a click does (a button inside the cell keeps its own Enter).
        onCellKeyDown={(params, event) => {
          if (event.key !== 'Enter' || !open) return;
          if ((event.target as HTMLElement).getAttribute('role') !== 'gridcell') return;
          event.preventDefault();
          open(params.row);
        }}
        columnVisibilityModel={visibility}
        onColumnVisibilityModelChange={(model) =>
          setPrefs((current) => ({
            ...current,
            // What the phone hides for lack of room is not the user's choice: keep only what they hid themselves.
            hidden: Object.entries(model)
              .filter(([field, shown]) => !shown && !(phone && props.hiddenOnPhone?.includes(field)))
              .map(([field]) => field),
          }))
        }
        onColumnWidthChange={(params) =>
          setPrefs((current) => ({ ...current, widths: { ...current.widths, [params.colDef.field]: Math.round(params.width) } }))
        }
        slots={{ columnMenu: ColumnMenu }}
        localeText={{
          ...localeText,
          // A list that failed to load is not an empty one: the alert above says why.
          noRowsLabel: props.error ? 'No se pudieron cargar los registros.' : (props.emptyText ?? 'No hay registros con estos filtros.'),
          ...(paging.paginationDisplayedRows ? { paginationDisplayedRows: paging.paginationDisplayedRows } : {}),
        }}
        autoHeight
        sx={{ bgcolor: 'background.paper', '& .MuiDataGrid-row': { cursor: open ? 'pointer' : 'default' } }}
      />
    </MoveContext.Provider>
  );
}
