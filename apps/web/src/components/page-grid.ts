import type { Dispatch, SetStateAction } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ListState } from '../lib/list-state';

/** One page of a list as every list endpoint answers it. */
export interface ListPage<Row> {
  items: Row[];
  total: number;
  totalCapped: boolean;
}

/** What a ServerDataGrid shows of one page of a list and reports back: rows, count, loading, error with Reintentar. */
export function pageGrid<Row>(page: UseQueryResult<ListPage<Row>>, state: ListState, onChange: (change: Partial<ListState>) => void) {
  return {
    rows: page.data?.items ?? [],
    total: page.data?.total ?? 0,
    totalCapped: page.data?.totalCapped ?? false,
    loading: page.isFetching,
    error: page.isError ? page.error.message : null,
    onRetry: () => void page.refetch(),
    state,
    onChange,
  };
}

/** The same for a list whose state a screen keeps itself (a record's lines, not the URL's list). */
export const localPageGrid = <Row>(page: UseQueryResult<ListPage<Row>>, state: ListState, setState: Dispatch<SetStateAction<ListState>>) =>
  pageGrid(page, state, (change) => setState((current) => ({ ...current, ...change })));
