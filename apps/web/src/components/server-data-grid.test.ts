import { describe, expect, it } from 'vitest';
import { fromSortModel, toSortModel } from './server-data-grid';

describe('grid sort ↔ API sort', () => {
  it('maps "-field" to a descending sort and back', () => {
    expect(toSortModel('-lastSignInAt')).toEqual([{ field: 'lastSignInAt', sort: 'desc' }]);
    expect(fromSortModel([{ field: 'email', sort: 'asc' }])).toBe('email');
    expect(fromSortModel(toSortModel('-name'))).toBe('-name');
    expect(fromSortModel([])).toBeNull();
  });
});
