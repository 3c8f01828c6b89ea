import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgreementListItem } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import AgreementListScreen from './agreement-list.screen';

const agreement: AgreementListItem = {
  id: '7d1f0c1e-2b3a-4c5d-8e9f-0a1b2c3d4e5f',
  code: 'E2E-1',
  name: 'Magisterio de Veracruz',
  employerName: 'Secretaría de Educación de Veracruz',
  sector: 'estatal',
  frequency: 'quincenal',
  companyId: 'c1',
  company: 'Financiera Demo',
  activeProducts: 1,
  active: true,
  version: 1,
};

describe('Convenios list (the list-screen scaffold)', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: '/catalog/contract-list' }, { path: '/catalog/contract-new' }] }));
    return () => vi.unstubAllGlobals();
  });

  it('asks the API for the URL list state, shows its rows, offers "Nuevo convenio" and opens a row by Enter', async () => {
    const calls = stubApi((_method, path) => {
      if (path.startsWith('/api/agreements?')) return { items: [agreement], total: 1 };
      if (path === '/api/companies') return { items: [] };
      return [404, { type: 'about:blank', title: 'No encontrado', status: 404 }];
    });
    const router = renderScreen(<AgreementListScreen />, {
      path: '/catalog/contract-list',
      url: '/catalog/contract-list?q=E2E-1&sector=estatal',
    });

    const grid = await screen.findByRole('grid', { name: 'Convenios' });
    expect(await within(grid).findByText('Magisterio de Veracruz')).toBeInTheDocument();
    const listCall = calls.find((call) => call.path.startsWith('/api/agreements?'))!;
    expect(Object.fromEntries(new URLSearchParams(listCall.path.split('?')[1]))).toEqual({
      page: '1',
      pageSize: '25',
      sort: 'code',
      q: 'E2E-1',
      sector: 'estatal',
    });
    expect(screen.getByRole('link', { name: 'Nuevo convenio' })).toHaveAttribute('href', '/catalog/contract-new');

    within(grid).getByRole('gridcell', { name: 'E2E-1' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/catalog/contract-edit/${agreement.id}`));
  });
});
