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

/** `kept`: URL keys the screen owns beside its list (e.g. `id` of an open detail panel); neither filters nor dropped. */
export function readListState(params: URLSearchParams, defaults: Partial<ListState> = {}, kept: readonly string[] = []): ListState {
  const page = Number(params.get('page'));
  const pageSize = Number(params.get('pageSize'));
  const filters: Record<string, string> = { ...defaults.filters };
  params.forEach((value, key) => {
    if (!RESERVED.has(key) && !kept.includes(key) && value !== '') filters[key] = value;
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

export function useListState(defaults: Partial<ListState> = {}, kept: readonly string[] = []) {
  const [params, setParams] = useSearchParams();
  // `defaults` and `kept` are usually inline literals: key the memos on their content, not their identity.
  const defaultsKey = JSON.stringify(defaults);
  const keptKey = JSON.stringify(kept);
  const state = useMemo(
    () => readListState(params, JSON.parse(defaultsKey) as Partial<ListState>, JSON.parse(keptKey) as string[]),
    [params, defaultsKey, keptKey],
  );
  const update = useCallback(
    (change: Partial<ListState>) => {
      const next = { ...state, ...change };
      // A new search, filter or sort starts again at the first page.
      if (change.q !== undefined || change.filters !== undefined || change.sort !== undefined) next.page = change.page ?? 1;
      const nextParams = listStateToParams(next);
      for (const key of JSON.parse(keptKey) as string[]) {
        const value = params.get(key);
        if (value !== null) nextParams.set(key, value);
      }
      setParams(nextParams, { replace: true });
    },
    [state, params, keptKey, setParams],
  );
  return { state, update, queryString: listStateToParams(state).toString() };
}
