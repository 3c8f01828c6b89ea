import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CREDIT_COLUMNS, type CreditListItem } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import CreditListScreen from './credit-list.screen';
// The date filters' picker is loaded lazily by the app; loaded here first, so its cold transform is no test's time.
import '../../components/date-field';

const item: CreditListItem = {
  id: 'cr-1',
  folio: 'CR-00000001',
  clientName: 'Ana López Pérez',
  curp: 'LOPA900101MJCPRN09',
  agreement: 'Gobierno de Jalisco',
  company: 'Financiera Demo',
  principal: '10000.00',
  outstandingBalance: '8500.50',
  installment: '520.00',
  nextDiscountDate: '2026-12-15',
  daysPastDue: 45,
  bucket: '31-60',
  status: 'vigente',
  labels: [],
  disbursementDate: '2026-01-10',
};

describe('credits list', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession());
    return () => vi.unstubAllGlobals();
  });

  it('asks the API for the filters in the URL and shows the totals of the filtered set', async () => {
    const calls = stubApi((_method, path) =>
      path.startsWith('/api/credits/totals')
        ? { count: 1, outstandingBalance: '8500.50', overdueBalance: '1040.00' }
        : path.startsWith('/api/credits/agreement-options')
          ? []
          : { items: [item], total: 1 },
    );
    renderScreen(<CreditListScreen />, { path: '/wallet/credits/credits-list', url: '/wallet/credits/credits-list?bucket=31-60' });
    expect(await screen.findByText('CR-00000001')).toBeInTheDocument();
    expect(screen.getByRole('gridcell', { name: '31 a 60 días' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Totales del filtro' })).toHaveTextContent(
      'Créditos: 1Saldo: $8,500.50Saldo vencido: $1,040.00',
    );
    const list = calls.find((c) => c.path.startsWith('/api/credits?'))!;
    expect(new URLSearchParams(list.path.split('?')[1]).get('bucket')).toBe('31-60');
    const totals = calls.find((c) => c.path.startsWith('/api/credits/totals'))!;
    expect(totals.path).toBe('/api/credits/totals?bucket=31-60');
  });

  it("heads its columns with the labels the export writes (the contract's declaration), in the same order", async () => {
    stubApi((_method, path) =>
      path.startsWith('/api/credits/totals')
        ? { count: 1, outstandingBalance: '8500.50', overdueBalance: '1040.00' }
        : path.startsWith('/api/credits/agreement-options')
          ? []
          : { items: [item], total: 1 },
    );
    renderScreen(<CreditListScreen />, { path: '/wallet/credits/credits-list', url: '/wallet/credits/credits-list' });
    expect(await screen.findByText('CR-00000001')).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent?.trim());
    // Empresa and Etiquetas start hidden (the user may show them); every other declared column shows, in order.
    const hidden = new Set(['company', 'labels']);
    expect(headers).toEqual(CREDIT_COLUMNS.filter((column) => !hidden.has(column.key)).map((column) => column.label));
  });
});
