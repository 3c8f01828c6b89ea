import { describe, expect, it } from 'vitest';
import { listStateToParams, readListState } from './list-state';

describe('list state in the URL', () => {
  it('reads page, size, sort, search and filters, ignoring bad numbers', () => {
    const state = readListState(new URLSearchParams('page=3&pageSize=50&sort=-email&q=ana&active=true&profileId='));
    expect(state).toEqual({ page: 3, pageSize: 50, sort: '-email', q: 'ana', filters: { active: 'true' } });
    expect(readListState(new URLSearchParams('page=-1&pageSize=7'))).toMatchObject({ page: 1, pageSize: 25 });
  });

  it('leaves the keys a screen keeps for itself out of the filters', () => {
    expect(readListState(new URLSearchParams('status=aprobada&id=r1'), {}, ['id']).filters).toEqual({ status: 'aprobada' });
  });

  it('writes back what it reads, without empty values', () => {
    const params = listStateToParams({ page: 2, pageSize: 25, sort: null, q: '  ', filters: { companyId: 'x', status: '' } });
    expect(params.toString()).toBe('page=2&pageSize=25&companyId=x');
  });
});
