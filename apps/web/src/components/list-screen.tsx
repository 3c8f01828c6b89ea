import type { ComponentProps, ReactNode } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { GridValidRowModel } from '@mui/x-data-grid';
import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ScreenPath } from '@portal/contract';
import { hasPermission } from '../lib/auth/session';
import { formatDate } from '../lib/format';
import { useSession } from '../lib/auth/use-session';
import { useListState, type ListState } from '../lib/list-state';
import { ExportButton } from './export-button';
import { CompanyFilter, DateFilter, FilterBar, SelectFilter, TextFilter, type FilterOption } from './filter-bar';
import { NoticeSnackbar, type Notice } from './notice-snackbar';
import { pageGrid, type ListPage } from './page-grid';
import { ServerDataGrid, type ServerDataGridProps } from './server-data-grid';

/** The list's query for a list state (the URL's query string): its cache key and its fetch. */
export type ListQuery<Row> = (queryString: string) => {
  queryKey: QueryKey;
  queryFn: () => Promise<ListPage<Row>>;
  /** For a list whose rows change on their own (a background sender's outcomes): fetched again every so many ms. */
  refetchInterval?: number;
};

/** A filter of the list, kept in the URL under `key`. */
export type ListFilter =
  | { kind: 'select'; key: string; label: string; options: FilterOption[] }
  | { kind: 'text'; key: string; label: string }
  /** A date; `after`, the key of the date filter that starts its range, which it may not precede. */
  | { kind: 'date'; key: string; label: string; after?: string }
  /** The company (brand) filter, labelled "Empresa". */
  | { kind: 'company'; key: string }
  /**
   * A filter a link sets (e.g. a file's payments, from the file's detail) and no control offers: shown while set, as a
   * chip that removes it.
   */
  | { kind: 'chip'; key: string; label: (value: string) => ReactNode };

/**
 * The headless core of a list: its state in the URL (page, page size, sort, search, filters) and its page from the
 * API for that state, the previous page kept on screen while the next one loads. `grid` goes to a ServerDataGrid.
 */
export function useServerList<Row>(query: ListQuery<Row>, defaults: Partial<ListState> = {}, kept: readonly string[] = []) {
  const { state, update, queryString } = useListState(defaults, kept);
  const list = useQuery({ ...query(queryString), placeholderData: keepPreviousData });
  return {
    state,
    update,
    queryString,
    grid: pageGrid(list, state, update),
  };
}

type GridOwnProps = 'rows' | 'total' | 'totalCapped' | 'loading' | 'error' | 'onRetry' | 'state' | 'onChange';

export type ListScreenProps<Row extends GridValidRowModel> = Omit<ServerDataGridProps<Row>, GridOwnProps> & {
  /** The screen's heading (h1). */
  title: string;
  query: ListQuery<Row>;
  /** The list state of a first visit (e.g. its default sort). */
  defaults?: Partial<ListState>;
  /** URL keys the screen keeps beside the list (e.g. `id` of an open detail panel). */
  kept?: readonly string[];
  searchLabel: string;
  filters?: readonly ListFilter[];
  /** "Exportar a Excel" of the current filter: the API's export route and the file name when it names none. */
  exportTo?: { route: ComponentProps<typeof ExportButton>['route']; fallbackName: string };
  /** The "Nuevo …" button: the screen it opens, shown to those whose profile grants that screen. */
  create?: { to: ScreenPath; label: string; icon: ReactNode };
  /** Other buttons beside it (e.g. a screen the list's area opens). */
  actions?: ReactNode;
  /** The outcome shown in the snackbar; the screen owns it, export failures are reported through onNotice. */
  notice: Notice | null;
  onNotice: (notice: Notice | null) => void;
  /** A line between the filters and the grid that follows the same filters (e.g. the filtered set's totals). */
  summary?: (queryString: string) => ReactNode;
  /** What the screen shows beside the list (e.g. a detail panel). */
  children?: ReactNode;
};

/**
 * The list-screen scaffold: heading, search and filters, export and actions, the server grid and the outcome
 * snackbar. A screen declares its columns, filters, query and where a row leads (`rowTo` or `onRowClick`);
 * the rows open by mouse and by Enter.
 */
export function ListScreen<Row extends GridValidRowModel>(props: ListScreenProps<Row>) {
  const {
    title,
    query,
    defaults,
    kept,
    searchLabel,
    filters = [],
    exportTo,
    create,
    actions,
    notice,
    onNotice,
    summary,
    children,
    ...grid
  } = props;
  const session = useSession();
  const list = useServerList(query, defaults, kept);
  const { state, update } = list;
  const filter = (key: string) => ({
    value: state.filters[key] ?? '',
    onChange: (value: string) => update({ filters: { ...state.filters, [key]: value } }),
  });
  // A range typed backwards finds nothing: its end says why, naming the date it starts on.
  const rangeError = (spec: Extract<ListFilter, { kind: 'date' }>) => {
    const from = spec.after === undefined ? '' : (state.filters[spec.after] ?? '');
    const to = state.filters[spec.key] ?? '';
    return from !== '' && to !== '' && to < from ? `Es anterior al ${formatDate(from)}.` : undefined;
  };

  return (
    <Paper sx={{ p: { xs: 2, md: 3 } }}>
      <Typography variant="h1" component="h1" gutterBottom>
        {title}
      </Typography>
      <FilterBar
        search={state.q}
        onSearch={(q) => update({ q })}
        searchLabel={searchLabel}
        actions={
          <>
            {exportTo && (
              <ExportButton
                route={exportTo.route}
                queryString={list.queryString}
                fallbackName={exportTo.fallbackName}
                onError={(text) => onNotice({ kind: 'error', text })}
                empty={!list.grid.loading && list.grid.error === null && list.grid.total === 0}
              />
            )}
            {actions}
            {create && hasPermission(session, create.to) && (
              <Button variant="contained" startIcon={create.icon} component={Link} to={create.to}>
                {create.label}
              </Button>
            )}
          </>
        }
      >
        {filters.map((spec) => {
          switch (spec.kind) {
            case 'select':
              return <SelectFilter key={spec.key} label={spec.label} options={spec.options} {...filter(spec.key)} />;
            case 'company':
              return <CompanyFilter key={spec.key} {...filter(spec.key)} />;
            case 'date':
              return <DateFilter key={spec.key} label={spec.label} error={rangeError(spec)} {...filter(spec.key)} />;
            case 'text':
              return <TextFilter key={spec.key} label={spec.label} {...filter(spec.key)} />;
            case 'chip': {
              const { value, onChange } = filter(spec.key);
              return value === '' ? null : (
                <Chip key={spec.key} label={spec.label(value)} onDelete={() => onChange('')} sx={{ alignSelf: 'center' }} />
              );
            }
          }
        })}
      </FilterBar>
      {summary?.(list.queryString)}
      <ServerDataGrid<Row> {...grid} {...list.grid} />
      {children}
      <NoticeSnackbar notice={notice} onClose={() => onNotice(null)} />
    </Paper>
  );
}
