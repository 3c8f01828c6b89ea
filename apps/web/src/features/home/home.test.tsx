import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { HomeSummary } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import HomeScreen from './home.screen';

// The chart has its own test (bucket-chart.test.tsx); here its place and its clicks are what matter.
vi.mock('./bucket-chart', () => ({
  default: ({ bars, onOpen }: { bars: { label: string }[]; onOpen: (index: number) => void }) => (
    <button type="button" onClick={() => onOpen(2)}>
      Gráfica de {bars.length} tramos
    </button>
  ),
}));

// 80 active credits: 60 vigentes, 20 vencidos (25 %); this month 45,000.00 received of 60,000.00 expected (75 %).
const summary: HomeSummary = {
  businessDates: [{ company: 'Financiera Demo', businessDate: '2026-11-23' }],
  figuresAt: '2026-11-23T04:10:00.000Z',
  portfolio: {
    count: 80,
    outstandingBalance: '1234567.89',
    overdueBalance: '98765.43',
    byStatus: [
      { status: 'vigente', count: 60, balance: '1000000.00' },
      { status: 'vencido', count: 20, balance: '234567.89' },
    ],
    byBucket: [
      { bucket: 'current', count: 50, balance: '900000.00' },
      { bucket: '1-30', count: 6, balance: '60000.00' },
      { bucket: '31-60', count: 4, balance: '40000.00' },
      { bucket: '61-89', count: 0, balance: '0.00' },
      { bucket: '90+', count: 20, balance: '234567.89' },
    ],
  },
  collections: { from: '2026-11-01', through: '2026-11-23', expected: '60000.00', received: '45000.00' },
  transit: { count: 7, balance: '3500.00' },
  pendingRequests: [
    { status: 'capturada', count: 3 },
    { status: 'en validación', count: 2 },
    { status: 'aprobada', count: 1 },
  ],
  lastFiles: [
    {
      id: 'file-1',
      fileName: 'nomina-1115.csv',
      agreement: 'Gobierno de Jalisco',
      discountDate: '2026-11-15',
      status: 'aplicado',
      appliedAmount: '45000.00',
      uploadedAt: '2026-11-16T17:00:00.000Z',
    },
  ],
};

describe('Inicio', () => {
  beforeEach(() => {
    resetSessionCache();
    return () => vi.unstubAllGlobals();
  });

  it('shows Cartera the portfolio at the fecha flujo, each figure opening the screen behind it filtered', async () => {
    saveSession(
      sampleSession({
        permissions: [
          { path: '/wallet/credits/credits-list' },
          { path: '/wallet/files-pay-list' },
          { path: '/wallet/application-pay-list' },
        ],
      }),
    );
    stubApi(() => summary);
    const router = renderScreen(<HomeScreen />, { path: '/home' });
    const figures = await screen.findByRole('region', { name: 'Cifras de la cartera' });
    expect(
      screen.getByText(
        'Cifras a la fecha flujo: 23/11/2026. Calculadas el 22/11/2026 22:10, al cerrar el día o aplicar un archivo de pagos.',
      ),
    ).toBeInTheDocument();
    expect(within(figures).getByRole('link', { name: /Saldo de la cartera \$1,234,567\.89 80 créditos activos/ })).toHaveAttribute(
      'href',
      '/wallet/credits/credits-list',
    );
    expect(within(figures).getByRole('link', { name: /Créditos vencidos 20 25 % · \$234,567\.89/ })).toHaveAttribute(
      'href',
      '/wallet/credits/credits-list?status=vencido',
    );
    expect(within(figures).getByRole('link', { name: /Créditos vigentes 60 75 %/ })).toHaveAttribute(
      'href',
      '/wallet/credits/credits-list?status=vigente',
    );
    expect(within(figures).getByRole('link', { name: /Cobranza del mes \$45,000\.00 de \$60,000\.00 esperados \(75 %\)/ })).toHaveAttribute(
      'href',
      '/wallet/application-pay-list?status=aplicado&from=2026-11-01&to=2026-11-23',
    );
    expect(within(figures).getByRole('link', { name: /En tránsito \$3,500\.00 7 descuentos/ })).toHaveAttribute(
      'href',
      '/wallet/files-pay-list',
    );

    const buckets = screen.getByRole('table', { name: 'Saldo por antigüedad' });
    expect(within(buckets).getByRole('link', { name: '31 a 60 días' })).toHaveAttribute(
      'href',
      '/wallet/credits/credits-list?bucket=31-60',
    );
    expect(
      within(buckets)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toContain('90 días o más20$234,567.89');
    expect(
      within(screen.getByRole('table', { name: 'Últimos archivos de pagos' })).getByRole('link', { name: 'nomina-1115.csv' }),
    ).toHaveAttribute('href', '/wallet/files-pay-detail/file-1');

    // Without the requests list's permission the counts are shown, not linked.
    const requests = screen.getByRole('table', { name: 'Solicitudes pendientes' });
    expect(within(requests).queryByRole('link')).toBeNull();
    expect(
      within(requests)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['capturada3', 'en validación2', 'aprobada1']);

    // A bar of the chart opens its bucket's credits.
    await userEvent.click(await screen.findByRole('button', { name: 'Gráfica de 5 tramos' }));
    expect(router.state.location.pathname + router.state.location.search).toBe('/wallet/credits/credits-list?bucket=31-60');
  });

  it('keeps the plain home, and asks nothing, for a user without a Cartera permission', async () => {
    saveSession(sampleSession({ permissions: [{ path: '/origination/request-list' }] }));
    const calls = stubApi(() => summary);
    renderScreen(<HomeScreen />, { path: '/home' });
    expect(await screen.findByText('Estas son las áreas del portal a las que tienes acceso.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Cifras de la cartera' })).toBeNull();
    expect(calls).toEqual([]);
  });

  it('says so when the figures cannot be loaded', async () => {
    saveSession(sampleSession({ permissions: [{ path: '/wallet/credits/credits-list' }] }));
    stubApi(() => [500, { title: 'Error', status: 500 }]);
    renderScreen(<HomeScreen />, { path: '/home' });
    expect(await screen.findByText('No se pudieron cargar las cifras de la cartera. Intenta de nuevo más tarde.')).toBeInTheDocument();
  });
});
