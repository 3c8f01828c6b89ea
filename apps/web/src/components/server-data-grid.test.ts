import { describe, expect, it } from 'vitest';
import { cappedPaging, fromSortModel, toSortModel } from './server-data-grid';

describe('grid sort ↔ API sort', () => {
  it('maps "-field" to a descending sort and back', () => {
    expect(toSortModel('-lastSignInAt')).toEqual([{ field: 'lastSignInAt', sort: 'desc' }]);
    expect(fromSortModel([{ field: 'email', sort: 'asc' }])).toBe('email');
    expect(fromSortModel(toSortModel('-name'))).toBe('-name');
    expect(fromSortModel([])).toBeNull();
  });
});

describe('a count the API stopped at its cap', () => {
  const state = { page: 1, pageSize: 25 };

  it('keeps an exact count as the row count', () => {
    expect(cappedPaging(120, false, state, 25)).toEqual({ rowCount: 120 });
  });

  it('says "más de" the cap, never a count it does not know, until a short page past the cap ends the list', () => {
    const paging = cappedPaging(1000, true, state, 25);
    expect(paging.rowCount).toBe(-1);
    expect(paging.paginationMeta).toEqual({ hasNextPage: true });
    expect(paging.paginationDisplayedRows?.({ from: 1, to: 25 })).toBe('1–25 de más de 1,000');
    // Past the cap, a full page: the rows seen so far are the lower bound.
    const full = cappedPaging(1000, true, { page: 50, pageSize: 25 }, 25);
    expect(full.paginationMeta).toEqual({ hasNextPage: true });
    expect(full.paginationDisplayedRows?.({ from: 1226, to: 1250 })).toBe('1,226–1,250 de más de 1,250');
    // A short page past the cap is the last: 49 full pages and 10 rows.
    expect(cappedPaging(1000, true, { page: 50, pageSize: 25 }, 10)).toEqual({ rowCount: 1235 });
  });
});
