import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EMPLOYER_STATEMENT_LINE_COLUMNS, type EmployerStatement, type EmployerStatementLine } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import EmployerStatementScreen from './employer-statement.screen';

const AGREEMENT = '0b9a7c1e-5d2f-4e8a-9c3b-2a1d0e9f8c7b';

const statement: EmployerStatement = {
  month: '2026-11',
  paydays: [
    {
      agreementId: AGREEMENT,
      agreement: 'Gobierno de Jalisco',
      payday: '2026-11-30',
      orderId: 'o1',
      orderStatus: 'enviada',
      instructed: { count: 4, amount: '3248.37' },
      received: { count: 3, amount: '2498.37' },
      missing: { count: 1, amount: '700.00' },
    },
  ],
  totals: {
    instructed: { count: 4, amount: '3248.37' },
    received: { count: 3, amount: '2498.37' },
    missing: { count: 1, amount: '700.00' },
  },
};

const missingLine: EmployerStatementLine = {
  creditId: 'c4',
  creditFolio: 'CR-00000004',
  employeeNumber: 'E-104',
  name: 'Dora Díaz',
  payday: '2026-11-30',
  instructedAmount: '700.00',
  receivedAmount: null,
  daysSince: 3,
};

describe('Estado de cuenta por convenio', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: '/wallet/employer-statement' }] }));
    return () => vi.unstubAllGlobals();
  });

  it('shows instructed, received and missing per payday with the month totals, and a figure opens the lines behind it', async () => {
    const calls = stubApi((_method, path) => {
      if (path.includes('/employer-statement/lines')) return { items: [missingLine], total: 1, totalCapped: false };
      if (path.includes('/employer-statement')) return statement;
      return [];
    });
    renderScreen(<EmployerStatementScreen />, { path: '/wallet/employer-statement' });

    const table = await screen.findByRole('table', { name: 'Estado de cuenta del mes' });
    expect(within(table).getByRole('button', { name: 'Instruido de Gobierno de Jalisco del 30/11/2026' })).toHaveTextContent(
      '4 · $3,248.37',
    );
    expect(within(table).getByRole('button', { name: 'Recibido de Gobierno de Jalisco del 30/11/2026' })).toHaveTextContent(
      '3 · $2,498.37',
    );
    expect(within(table).getByLabelText('Total faltante')).toHaveTextContent('1 · $700.00');

    await userEvent.click(within(table).getByRole('button', { name: 'Faltante de Gobierno de Jalisco del 30/11/2026' }));
    const grid = await screen.findByRole('grid', { name: /Líneas: Faltante/ });
    expect(await within(grid).findByText('CR-00000004')).toBeInTheDocument();
    expect(within(grid).getByText('$700.00')).toBeInTheDocument();
    // The grid's headers are the declared columns the export writes (the first ones: jsdom renders no more).
    for (const column of EMPLOYER_STATEMENT_LINE_COLUMNS.slice(0, 3)) expect(within(grid).getByText(column.label)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exportar a Excel' })).toBeEnabled();
    const asked = calls.find((call) => call.path.includes('/employer-statement/lines'))!.path;
    expect(asked).toContain(`agreementId=${AGREEMENT}`);
    expect(asked).toContain('payday=2026-11-30');
    expect(asked).toContain('group=faltantes');
  });

  it('says so when no cédula was emitted for a payday of the month', async () => {
    stubApi((_method, path) => (path.includes('/employer-statement') ? { ...statement, paydays: [] } : []));
    renderScreen(<EmployerStatementScreen />, { path: '/wallet/employer-statement' });
    expect(await screen.findByText('Ninguna cédula emitida para un día de pago de este mes.')).toBeInTheDocument();
  });
});
