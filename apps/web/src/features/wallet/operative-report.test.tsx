import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// Many clicks and keystrokes through MUI's menus: slow on a loaded machine.
import type { ReportRun, RunnableReport } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import OperativeReportScreen from './operative-report.screen';

const AGREEMENT_ID = '0b6b1f0e-6d7c-4c1a-9d0e-2f3a4b5c6d7e';
const REPORT: RunnableReport = {
  id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  name: 'Cartera vencida por antigüedad',
  description: 'Créditos con atraso',
  dataset: 'cartera-vencida',
  format: 'xlsx',
  filters: [
    { field: 'agreement', type: 'agreement' },
    { field: 'bucket', type: 'bucket' },
  ],
};

const run = (overrides: Partial<ReportRun>): ReportRun => ({
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  definitionId: REPORT.id,
  definitionName: REPORT.name,
  dataset: 'cartera-vencida',
  format: 'xlsx',
  parameters: {},
  status: 'completado',
  rowsTotal: 1200,
  rowsDone: 1200,
  size: 2_621_440,
  fileName: 'cartera-vencida-2026-11-23.xlsx',
  durationMs: 3400,
  error: null,
  requestedBy: 'Ana Cartera',
  requestedAt: '2026-11-23T16:00:00.000Z',
  finishedAt: '2026-11-23T16:00:03.400Z',
  expiresAt: '2026-11-30T16:00:03.400Z',
  ...overrides,
});

describe('Reportes Operativos', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: '/wallet/operative-report' }] }));
    return () => vi.unstubAllGlobals();
  });

  it('asks the chosen report’s parameters, starts it, shows a running run’s progress and the history with its download', async () => {
    const running = run({
      id: '2b3c4d5e-6f70-4a81-9b2c-3d4e5f607182',
      status: 'en curso',
      rowsTotal: 4000,
      rowsDone: 1000,
      size: null,
      fileName: null,
      durationMs: null,
      finishedAt: null,
      parameters: { bucket: { value: '31-60' } },
    });
    const done = run({ parameters: { agreement: { value: AGREEMENT_ID } } });
    const calls = stubApi((method, path) => {
      if (path.startsWith('/api/report-runs/runnable')) return { items: [REPORT] };
      if (path.startsWith('/api/credits/agreement-options')) return [{ id: AGREEMENT_ID, name: 'Gobierno de Jalisco' }];
      if (method === 'POST') return [202, running];
      if (path.startsWith('/api/report-runs')) return { items: [running, done], total: 2 };
      return undefined;
    });
    const user = userEvent.setup();
    renderScreen(<OperativeReportScreen />, { path: '/wallet/operative-report' });

    // A run in progress shows its bar (read from the API: it survives a reload).
    expect(await screen.findByRole('progressbar', { name: `Avance de ${REPORT.name}` })).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByText(`${REPORT.name}: 1,000 de 4,000 filas`)).toBeInTheDocument();

    const grid = screen.getByRole('grid', { name: 'Historial de ejecuciones' });
    const doneRow = (await within(grid).findByText('Convenio: Gobierno de Jalisco')).closest('[role="row"]') as HTMLElement;
    expect(
      within(doneRow)
        .getAllByRole('gridcell')
        .map((cell) => cell.textContent),
    ).toEqual([
      '23/11/2026 10:00',
      REPORT.name,
      'Convenio: Gobierno de Jalisco',
      'completado',
      '1,200',
      '2.5 MB',
      '3.4 s',
      'Ana Cartera',
      'Descargar',
    ]);
    const runningRow = within(grid).getByText('Tramo de atraso: 31 a 60 días').closest('[role="row"]') as HTMLElement;
    expect(within(runningRow).queryByRole('button', { name: /Descargar/ })).toBeNull();

    await user.click(screen.getByRole('combobox', { name: 'Reporte' }));
    await user.click(screen.getByRole('option', { name: REPORT.name }));
    await user.click(screen.getByRole('combobox', { name: 'Tramo de atraso' }));
    await user.click(screen.getByRole('option', { name: '61 a 89 días' }));
    await user.click(screen.getByRole('button', { name: 'Ejecutar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    const posted = calls.find((call) => call.method === 'POST')!;
    expect(posted.path).toBe('/api/report-runs');
    expect(posted.body).toEqual({ definitionId: REPORT.id, parameters: { bucket: { value: '61-89' } } });
    expect(await screen.findByText(`«${REPORT.name}» en proceso. Cuando termine, descárgalo del historial.`)).toBeInTheDocument();
  });

  it('tells a profile without reports what to do', async () => {
    stubApi((_method, path) =>
      path.startsWith('/api/report-runs/runnable') ? { items: [] } : path.startsWith('/api/report-runs') ? { items: [], total: 0 } : [],
    );
    renderScreen(<OperativeReportScreen />, { path: '/wallet/operative-report' });
    expect(
      await screen.findByText('Tu perfil no tiene reportes que ejecutar. Pide a quien administra la cartera que te permita uno.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Todavía no has ejecutado reportes.')).toBeInTheDocument();
  });
});
