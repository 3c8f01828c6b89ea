import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import { catalog, sampleRequest } from './origination.test-data';
import RequestListScreen from './request-list.screen';
// The date filters' picker is loaded lazily by the app; loaded here first, so its cold transform is no test's time.
import '../../components/date-field';

const disbursed = sampleRequest({
  status: 'dispersada',
  creditId: 'cr-1',
  creditFolio: 'CR-000001',
  documentList: [
    {
      kind: 'ine',
      fileName: 'ine.pdf',
      contentType: 'application/pdf',
      size: 204800,
      uploadedAt: '2026-02-10T15:00:00Z',
      uploadedBy: 'ana@demo.mx',
    },
  ],
  history: [
    {
      id: 1,
      occurredAt: '2026-02-11T15:00:00Z',
      actorEmail: 'tesoreria@demo.mx',
      action: 'request.disburse',
      before: { status: 'aprobada' },
      after: { status: 'dispersada' },
    },
  ],
});

describe('Capturas screen', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: '/origination/request-list' }, { path: '/wallet/credits/credits-list' }] }));
    return () => vi.unstubAllGlobals();
  });

  it('keeps filters in the URL, opens the detail of ?id= and links a disbursed request to its credit', async () => {
    const calls = stubApi((_method, path) => {
      if (path === '/api/pre-requests/catalog') return catalog;
      if (path.startsWith('/api/requests?')) return { items: [disbursed], total: 1 };
      if (path === `/api/requests/${disbursed.id}`) return disbursed;
      return [404, { type: 'about:blank', title: 'No encontrado', status: 404 }];
    });
    const router = renderScreen(<RequestListScreen />, {
      path: '/origination/request-list',
      url: `/origination/request-list?status=dispersada&id=${disbursed.id}`,
    });

    const detail = await screen.findByRole('dialog', { name: 'Detalle de la solicitud' });
    expect(await within(detail).findByRole('heading', { name: 'Solicitud SOL-000007' })).toBeInTheDocument();
    expect(within(detail).getByRole('link', { name: 'Ver crédito' })).toHaveAttribute('href', '/wallet/credits/credits-view/cr-1');
    expect(within(detail).getByText('Dispersada: crédito CR-000001.')).toBeInTheDocument();
    const documents = within(detail).getByRole('table', { name: 'Documentos de la solicitud' });
    expect(documents).toHaveTextContent('ine.pdf · 200 KB');
    expect(within(documents).getByRole('button', { name: 'Ver INE' })).toBeInTheDocument();
    expect(within(documents).queryByText('Reemplazar')).not.toBeInTheDocument();
    expect(within(detail).getByRole('table', { name: 'Tabla de amortización de la solicitud' })).toHaveTextContent('$1,180.00');
    expect(within(detail).getByRole('table', { name: 'Historial de la solicitud' })).toHaveTextContent('aprobada → dispersada');
    expect(within(detail).queryByRole('group', { name: 'Acciones de la solicitud' })).not.toBeInTheDocument();

    const listCall = calls.find((call) => call.path.startsWith('/api/requests?'));
    expect(new URLSearchParams(listCall!.path.split('?')[1]).get('status')).toBe('dispersada');
    expect(listCall!.path).not.toContain('id=');

    await userEvent.click(within(detail).getByRole('button', { name: 'Cerrar detalle' }));
    expect(router.state.location.search).toBe('?status=dispersada');
  });
});
