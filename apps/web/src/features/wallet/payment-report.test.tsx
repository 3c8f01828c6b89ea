import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Payment, PaymentTotals } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import { AGREEMENT_ID, FILE_ID, appliedFile } from './payment-files.test-data';
import PaymentReportScreen from './payment-report.screen';
// The date filters' picker is loaded lazily by the app; loaded here first, so its cold transform is no test's time.
import '../../components/date-field';

const payment: Payment = {
  id: 'pay-1',
  creditId: 'cr-1',
  creditFolio: 'CR-000001',
  clientName: 'Ana López Pérez',
  agreementId: AGREEMENT_ID,
  agreement: 'Gobierno de Jalisco',
  fileId: FILE_ID,
  fileName: 'nomina-1115.csv',
  fileLine: 12,
  valueDate: '2026-11-15',
  amount: '500.00',
  split: {
    principal: '400.00',
    interest: '80.00',
    iva: '12.80',
    moratoryInterest: '5.00',
    moratoryIva: '0.80',
    fees: '1.20',
    feesIva: '0.20',
    overpayment: '0.00',
  },
  status: 'aplicado',
  appliedAt: '2026-11-16T17:00:00Z',
};

// Two payments of the filter: 500.00 above and 1,020.00 = 900.00 + 100.00 + 16.00 + 4.00 of moratorios with no IVA.
const totals: PaymentTotals = {
  count: 2,
  amount: '1520.00',
  split: {
    principal: '1300.00',
    interest: '180.00',
    iva: '28.80',
    moratoryInterest: '9.00',
    moratoryIva: '0.80',
    fees: '1.20',
    feesIva: '0.20',
    overpayment: '0.00',
  },
};

describe('Reporte de pagos', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: '/wallet/application-pay-list' }] }));
    return () => vi.unstubAllGlobals();
  });

  it('shows each payment with its split, links to its credit and file, and the totals of the filter in the URL', async () => {
    const calls = stubApi((_method, path) => {
      if (path.startsWith('/api/payments/totals')) return totals;
      if (path.startsWith('/api/credits/agreement-options')) return [{ id: AGREEMENT_ID, name: 'Gobierno de Jalisco' }];
      return { items: [payment], total: 1 };
    });
    const url = `/wallet/application-pay-list?agreementId=${AGREEMENT_ID}&from=2026-11-01&to=2026-11-30&q=CR-000001`;
    const router = renderScreen(<PaymentReportScreen />, { path: '/wallet/application-pay-list', url });
    const grid = await screen.findByRole('grid', { name: 'Pagos' });
    const folio = await within(grid).findByRole('link', { name: 'CR-000001' });
    expect(folio).toHaveAttribute('href', '/wallet/credits/credits-view/cr-1');
    expect(within(grid).getByRole('link', { name: 'nomina-1115.csv, línea 12' })).toHaveAttribute(
      'href',
      `/wallet/files-pay-detail/${FILE_ID}`,
    );
    const row = folio.closest('[role="row"]') as HTMLElement;
    expect(
      within(row)
        .getAllByRole('gridcell')
        .map((cell) => cell.textContent)
        .slice(4),
    ).toEqual(['15/11/2026', '$500.00', '$400.00', '$80.00', '$12.80', '$5.80', '$1.40', '$0.00', 'aplicado']);

    await waitFor(() =>
      expect(screen.getByRole('group', { name: 'Totales del filtro' })).toHaveTextContent(
        'Pagos aplicados: 2Importe: $1,520.00Capital: $1,300.00Interés: $180.00IVA: $28.80Moratorios con IVA: $9.80Comisiones con IVA: $1.40Sobrepago: $0.00',
      ),
    );
    // No status asked: the list has both, the totals what stands, and the screen says so.
    expect(screen.getByRole('group', { name: 'Totales del filtro' })).toHaveTextContent(
      'Los totales suman solo los pagos aplicados; la lista muestra también los revertidos',
    );
    // The totals follow the filters, without the page and the order.
    const totalsQuery = new URLSearchParams(calls.find((c) => c.path.startsWith('/api/payments/totals'))!.path.split('?')[1]);
    expect(Object.fromEntries(totalsQuery)).toEqual({ agreementId: AGREEMENT_ID, from: '2026-11-01', to: '2026-11-30', q: 'CR-000001' });
    const list = new URLSearchParams(calls.find((c) => c.path.startsWith('/api/payments?'))!.path.split('?')[1]);
    expect(Object.fromEntries(list)).toMatchObject({ agreementId: AGREEMENT_ID, from: '2026-11-01', to: '2026-11-30', q: 'CR-000001' });

    // A status chosen goes to the URL and to both requests.
    await userEvent.click(screen.getByRole('combobox', { name: 'Estado' }));
    await userEvent.click(await screen.findByRole('option', { name: 'revertido' }));
    expect(new URLSearchParams(router.state.location.search).get('status')).toBe('revertido');
    await waitFor(() =>
      expect(calls.some((c) => c.path.startsWith('/api/payments/totals') && c.path.includes('status=revertido'))).toBe(true),
    );
    expect(screen.getByRole('button', { name: 'Exportar a Excel' })).toBeInTheDocument();
  });

  it('shows the file a link filtered by as a chip that removes the filter, and says revertidos when those are asked for', async () => {
    stubApi((_method, path) => {
      if (path.startsWith('/api/payments/totals')) return { ...totals, count: 1 };
      if (path.startsWith('/api/credits/agreement-options')) return [];
      if (path === `/api/payment-files/${FILE_ID}`) return appliedFile();
      return { items: [{ ...payment, status: 'revertido' }], total: 1 };
    });
    const router = renderScreen(<PaymentReportScreen />, {
      path: '/wallet/application-pay-list',
      url: `/wallet/application-pay-list?fileId=${FILE_ID}&status=revertido`,
    });
    const chip = (await screen.findByText('Archivo: nomina-1115.csv')).closest('[role="button"]') as HTMLElement;
    await waitFor(() => expect(screen.getByRole('group', { name: 'Totales del filtro' })).toHaveTextContent('Pagos revertidos: 1'));
    expect(screen.getByRole('group', { name: 'Totales del filtro' })).not.toHaveTextContent('Los totales suman solo');
    await userEvent.click(within(chip).getByTestId('CancelIcon'));
    expect(new URLSearchParams(router.state.location.search).get('fileId')).toBeNull();
    expect(screen.queryByText('Archivo: nomina-1115.csv')).not.toBeInTheDocument();
  });

  it('says a list that failed to load is not an empty one, loads it again on Reintentar, and exports nothing from an empty filter', async () => {
    let fail = true;
    stubApi((_method, path) => {
      if (path.startsWith('/api/payments/totals')) return { ...totals, count: 0 };
      if (path.startsWith('/api/credits/agreement-options')) return [];
      if (fail)
        return [503, { type: 'about:blank', title: 'Servicio no disponible', status: 503, detail: 'La base de datos no responde.' }];
      return { items: [], total: 0 };
    });
    renderScreen(<PaymentReportScreen />, { path: '/wallet/application-pay-list', url: '/wallet/application-pay-list?status=revertido' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('La base de datos no responde.');
    expect(screen.getByText('No se pudieron cargar los registros.')).toBeInTheDocument();
    expect(screen.queryByText('No hay pagos con estos filtros.')).not.toBeInTheDocument();
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('No hay pagos con estos filtros.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exportar a Excel' })).toBeDisabled();
  });

  it('filters by a date typed digit by digit only once its year is whole', async () => {
    const calls = stubApi((_method, path) => {
      if (path.startsWith('/api/payments/totals')) return totals;
      if (path.startsWith('/api/credits/agreement-options')) return [];
      return { items: [payment], total: 1 };
    });
    const router = renderScreen(<PaymentReportScreen />, { path: '/wallet/application-pay-list', url: '/wallet/application-pay-list' });
    const from = await screen.findByRole('group', { name: 'Fecha valor desde' });
    await userEvent.click(within(from).getAllByRole('spinbutton')[0]!);
    await userEvent.keyboard('01112026');
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('from')).toBe('2026-11-01'));
    expect(
      within(from)
        .getAllByRole('spinbutton')
        .map((section) => section.textContent),
    ).toEqual(['01', '11', '2026']);
    // Each section named in Spanish with its accents, as a screen reader reads it.
    expect(
      within(from)
        .getAllByRole('spinbutton')
        .map((section) => section.getAttribute('aria-label')),
    ).toEqual(['Día', 'Mes', 'Año']);
    // No list was asked for a year being typed (0002, 0020, 0202).
    const asked = calls.map((call) => new URLSearchParams(call.path.split('?')[1]).get('from')).filter((value) => value !== null);
    expect(new Set(asked)).toEqual(new Set(['2026-11-01']));
  });

  /** The report with no payments: what the date range tests need of the API. */
  const emptyReportApi = () =>
    stubApi((_method, path) => {
      if (path.startsWith('/api/payments/totals')) return totals;
      if (path.startsWith('/api/credits/agreement-options')) return [];
      return { items: [], total: 0 };
    });

  it('says a range typed backwards ends before it starts, naming the date it starts on', async () => {
    emptyReportApi();
    renderScreen(<PaymentReportScreen />, {
      path: '/wallet/application-pay-list',
      url: '/wallet/application-pay-list?from=2026-11-15&to=2026-11-01',
    });
    const to = await screen.findByRole('group', { name: 'Fecha valor hasta' });
    const field = to.closest('.MuiFormControl-root') as HTMLElement;
    expect(within(field).getByText('Es anterior al 15/11/2026.')).toBeInTheDocument();
  });

  it('takes a range whose end is its start', async () => {
    emptyReportApi();
    renderScreen(<PaymentReportScreen />, {
      path: '/wallet/application-pay-list',
      url: '/wallet/application-pay-list?from=2026-11-15&to=2026-11-15',
    });
    await screen.findByRole('group', { name: 'Fecha valor hasta' });
    expect(screen.queryByText(/Es anterior a/)).not.toBeInTheDocument();
  });
});
