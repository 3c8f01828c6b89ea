import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BusinessDate, DayClose, DayCloseRun } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import BusinessDateScreen from './business-date.screen';

const run: DayCloseRun = {
  id: 'run-1',
  companyId: 'c1',
  fromDate: '2026-11-23',
  throughDate: '2026-11-23',
  daysTotal: 4,
  daysDone: 1,
  status: 'en curso',
  jobId: 'job-1',
  error: null,
  requestedBy: 'u1',
  requestedAt: '2026-11-23T18:00:00Z',
  finishedAt: null,
};
const date = (activeRun: DayCloseRun | null): BusinessDate => ({
  companyId: 'c1',
  company: 'Financiera Demo',
  businessDate: '2026-11-23',
  today: '2026-11-23',
  activeRun,
});
const closed: DayClose = {
  id: 7,
  companyId: 'c1',
  company: 'Financiera Demo',
  businessDate: '2026-11-22',
  creditsProcessed: 300,
  newVencidos: 2,
  newlyDueInstallments: 11,
  toTransit: 9,
  toNotApplied: 3,
  moratoryAccrued: '1234.50',
  moratoryIvaAccrued: '197.52',
  feesAccrued: '0.00',
  durationMs: 1500,
  closedBy: 'cartera@demo.mx',
  closedAt: '2026-11-22T23:00:00Z',
};

describe('Admin Fecha Flujo', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: '/wallet/admin-flow-date' }, { path: '/actions/wallet/close-day' }] }));
    return () => vi.unstubAllGlobals();
  });

  it('asks before closing, naming the date and the company, then queues the close of that company', async () => {
    const calls = stubApi((method, path) => {
      if (path.startsWith('/api/flow-date/business-dates')) return [date(null)];
      if (method === 'POST') return [202, { ...run, daysDone: 0, status: 'en espera' }];
      return { items: [closed], total: 1 };
    });
    renderScreen(<BusinessDateScreen />, { path: '/wallet/admin-flow-date' });
    const history = await screen.findByRole('grid', { name: 'Historial de cierres' });
    expect(await within(history).findByText('$1,234.50')).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Cerrar día' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cerrar día' });
    expect(dialog).toHaveTextContent('Se cerrará el día 23/11/2026 de Financiera Demo');
    // An action that cannot be taken back: "No" has the focus, so Enter does no harm.
    expect(within(dialog).getByRole('button', { name: 'No' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sí' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST')).toEqual([
        { method: 'POST', path: '/api/flow-date/day-closes', body: { companyId: 'c1' } },
      ]),
    );
  });

  it('shows a close in progress with its days done, and no second "Cerrar día" for that company', async () => {
    stubApi((_method, path) => (path.startsWith('/api/flow-date/business-dates') ? [date(run)] : { items: [], total: 0 }));
    renderScreen(<BusinessDateScreen />, { path: '/wallet/admin-flow-date' });
    expect(await screen.findByText('Cerrando: 1 de 4 días')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Avance del cierre de Financiera Demo' })).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByRole('button', { name: 'Cerrar día' })).toBeDisabled();
    expect(await screen.findByText('Todavía no se ha cerrado ningún día.')).toBeInTheDocument();
  });

  it('refuses a day that has not come before asking, in dd/mm/aaaa, and sends nothing', async () => {
    const calls = stubApi((_method, path) =>
      path.startsWith('/api/flow-date/business-dates') ? [{ ...date(null), businessDate: '2026-11-24' }] : { items: [closed], total: 1 },
    );
    renderScreen(<BusinessDateScreen />, { path: '/wallet/admin-flow-date' });
    await userEvent.click(await screen.findByRole('button', { name: 'Cerrar día' }));
    expect(
      await screen.findByText('El día 24/11/2026 todavía no llega: hoy es 23/11/2026. Se cierra hasta el día de hoy.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Cerrar día' })).toBeNull();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });
});
