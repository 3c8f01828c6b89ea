import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import PaymentFileListScreen from './payment-file-list.screen';
import { AGREEMENT_ID, FILE_ID, appliedFile } from './payment-files.test-data';
// The date filters' picker is loaded lazily by the app; loaded here first, so its cold transform is no test's time.
import '../../components/date-field';

describe('Listado de archivos de pagos', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: '/wallet/files-pay-list' }] }));
    return () => vi.unstubAllGlobals();
  });

  it('asks the API for the filters in the URL, shows each file’s figures, and opens a file’s detail', async () => {
    const calls = stubApi((_method, path) =>
      path.startsWith('/api/credits/agreement-options')
        ? [{ id: AGREEMENT_ID, name: 'Gobierno de Jalisco' }]
        : { items: [appliedFile()], total: 1 },
    );
    const url = `/wallet/files-pay-list?agreementId=${AGREEMENT_ID}&status=aplicado&discountFrom=2026-11-01&q=nomina`;
    const router = renderScreen(<PaymentFileListScreen />, { path: '/wallet/files-pay-list', url });
    const grid = await screen.findByRole('grid', { name: 'Archivos de pagos' });
    const cell = await within(grid).findByText('nomina-1115.csv');
    const row = cell.closest('[role="row"]') as HTMLElement;
    expect(
      within(row)
        .getAllByRole('gridcell')
        .map((c) => c.textContent),
    ).toEqual([
      'Gobierno de Jalisco',
      '15/11/2026',
      'nomina-1115.csv',
      'aplicado',
      '$1,500.00',
      '$250.00',
      '4',
      '3 / 1',
      'cartera@demo.mx',
      '16/11/2026 10:30',
    ]);
    const sent = new URLSearchParams(calls.find((c) => c.path.startsWith('/api/payment-files?'))!.path.split('?')[1]);
    expect(Object.fromEntries(sent)).toMatchObject({
      agreementId: AGREEMENT_ID,
      status: 'aplicado',
      discountFrom: '2026-11-01',
      q: 'nomina',
      sort: '-uploadedAt',
    });

    await userEvent.click(cell);
    expect(router.state.location.pathname).toBe(`/wallet/files-pay-detail/${FILE_ID}`);
  });
});
