import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The one list state every list screen uses (page, page size, sort, search, filters), kept in the URL so a
 * list can be bookmarked, shared and restored with the back button. It maps 1:1 onto the API's list query
 * `{ page, pageSize, sort, q, ...filters }`.
 */
export interface ListState {
  page: number;
  pageSize: number;
  /** Field name, `-field` for descending, or null for the API's default order. */
  sort: string | null;
  q: string;
  filters: Record<string, string>;
}

export const PAGE_SIZES = [10, 25, 50, 100] as const;
const RESERVED = new Set(['page', 'pageSize', 'sort', 'q']);

export function readListState(params: URLSearchParams, defaults: Partial<ListState> = {}): ListState {
  const page = Number(params.get('page'));
  const pageSize = Number(params.get('pageSize'));
  const filters: Record<string, string> = { ...defaults.filters };
  params.forEach((value, key) => {
    if (!RESERVED.has(key) && value !== '') filters[key] = value;
  });
  return {
    page: Number.isInteger(page) && page >= 1 ? page : (defaults.page ?? 1),
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : (defaults.pageSize ?? 25),
    sort: params.get('sort') ?? defaults.sort ?? null,
    q: params.get('q') ?? defaults.q ?? '',
    filters,
  };
}

export function listStateToParams(state: ListState): URLSearchParams {
  const params = new URLSearchParams();
  params.set('page', String(state.page));
  params.set('pageSize', String(state.pageSize));
  if (state.sort) params.set('sort', state.sort);
  if (state.q.trim() !== '') params.set('q', state.q.trim());
  for (const [key, value] of Object.entries(state.filters)) {
    if (value !== '') params.set(key, value);
  }
  return params;
}

export function useListState(defaults: Partial<ListState> = {}) {
  const [params, setParams] = useSearchParams();
  // `defaults` is usually an inline object: key the memo on its content, not its identity.
  const defaultsKey = JSON.stringify(defaults);
  const state = useMemo(
    () => readListState(params, JSON.parse(defaultsKey) as Partial<ListState>),
    [params, defaultsKey],
  );
  const update = useCallback(
    (change: Partial<ListState>) => {
      const next = { ...state, ...change };
      // A new search, filter or sort starts again at the first page.
      if (change.q !== undefined || change.filters !== undefined || change.sort !== undefined) next.page = change.page ?? 1;
      setParams(listStateToParams(next), { replace: true });
    },
    [state, setParams],
  );
  return { state, update, queryString: listStateToParams(state).toString() };
}
