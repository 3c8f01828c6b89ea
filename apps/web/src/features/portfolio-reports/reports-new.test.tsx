import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// Many clicks and keystrokes through MUI's menus: slow on a loaded machine.
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import ReportsNewScreen from './reports-new.screen';

const CARTERA = '7d3a0c1e-3f0b-4c55-9a57-3b8d1f2a9c01';
const ADMIN = '7d3a0c1e-3f0b-4c55-9a57-3b8d1f2a9c02';
const CREATED = '5b8f6c3a-1d2e-4f70-8a91-0c2b3d4e5f60';

describe('Nuevo Reporte Operativo', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: '/admon-wallet/reports-new' }, { path: '/admon-wallet/reports-list' }] }));
    return () => vi.unstubAllGlobals();
  });

  it('refuses a definition without columns, then sends the chosen columns in their order, the filters, sort, format and profiles', async () => {
    const calls = stubApi((method, path) => {
      if (path.startsWith('/api/report-definitions/profiles'))
        return {
          items: [
            { id: ADMIN, name: 'Administrador' },
            { id: CARTERA, name: 'Cartera' },
          ],
        };
      if (method === 'POST') return [201, { id: CREATED }];
      return undefined;
    });
    const user = userEvent.setup();
    const router = renderScreen(<ReportsNewScreen />, { path: '/admon-wallet/reports-new' });
    await user.type(await screen.findByRole('textbox', { name: 'Nombre del reporte' }), 'Cartera vencida de Jalisco');
    await user.click(screen.getByRole('button', { name: 'Guardar reporte' }));
    expect(await screen.findAllByText('Elige al menos una columna.')).not.toHaveLength(0);
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);

    // Cartera al día is the first dataset: its fields are offered.
    await user.click(screen.getByRole('button', { name: 'Agregar Folio' }));
    // The field's name adds it, as the "+" does: the whole row is the button.
    await user.click(within(screen.getByRole('list', { name: 'Campos disponibles' })).getByText('Saldo vencido'));
    await user.click(within(screen.getByRole('list', { name: 'Campos disponibles' })).getByText('Días de atraso'));
    await user.click(screen.getByRole('button', { name: 'Subir Días de atraso' }));
    const chosen = screen.getByRole('list', { name: /Columnas del reporte/ });
    expect(
      within(chosen)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['1. Folio', '2. Días de atraso', '3. Saldo vencido']);
    await user.click(screen.getByRole('button', { name: 'Quitar Saldo vencido' }));

    await user.click(screen.getByRole('checkbox', { name: 'Convenio' }));
    await user.click(screen.getByRole('checkbox', { name: 'Tramo de atraso' }));
    await user.click(screen.getByRole('checkbox', { name: 'Fecha de dispersión (rango de fechas)' }));
    await user.click(screen.getByRole('combobox', { name: 'Ordenar por' }));
    await user.click(screen.getByRole('option', { name: 'Días de atraso' }));
    await user.click(screen.getByRole('combobox', { name: 'Dirección' }));
    await user.click(screen.getByRole('option', { name: 'Descendente' }));
    await user.click(screen.getByRole('combobox', { name: 'Formato' }));
    await user.click(screen.getByRole('option', { name: 'CSV (UTF-8)' }));
    await user.click(screen.getByRole('checkbox', { name: 'Cartera' }));
    await user.click(screen.getByRole('button', { name: 'Guardar reporte' }));

    await waitFor(() => expect(router.state.location.pathname).toBe(`/admon-wallet/report-edit/${CREATED}`));
    const posted = calls.find((call) => call.method === 'POST')!;
    expect(posted.path).toBe('/api/report-definitions');
    expect(posted.body).toEqual({
      name: 'Cartera vencida de Jalisco',
      description: '',
      dataset: 'cartera-al-dia',
      columns: ['folio', 'daysPastDue'],
      filters: [
        { field: 'agreement', type: 'agreement' },
        { field: 'bucket', type: 'bucket' },
        { field: 'disbursementDate', type: 'dateRange' },
      ],
      sort: { field: 'daysPastDue', direction: 'desc' },
      format: 'csv',
      profileIds: [CARTERA],
    });
  });

  it('shows the API’s refusal of a column beside the column chooser', async () => {
    stubApi((method, path) => {
      if (path.startsWith('/api/report-definitions/profiles')) return { items: [{ id: CARTERA, name: 'Cartera' }] };
      if (method === 'POST')
        return [
          400,
          {
            type: 'about:blank',
            title: 'Datos inválidos',
            status: 400,
            detail: 'Revisa los campos marcados.',
            errors: [{ field: 'columns.0', message: 'El campo «folio» no existe en Cartera al día.' }],
          },
        ];
      return undefined;
    });
    const user = userEvent.setup();
    renderScreen(<ReportsNewScreen />, { path: '/admon-wallet/reports-new' });
    await user.type(await screen.findByRole('textbox', { name: 'Nombre del reporte' }), 'Prueba');
    await user.click(screen.getByRole('button', { name: 'Agregar Folio' }));
    await user.click(screen.getByRole('checkbox', { name: 'Cartera' }));
    await user.click(screen.getByRole('button', { name: 'Guardar reporte' }));
    expect(await screen.findAllByText('El campo «folio» no existe en Cartera al día.')).not.toHaveLength(0);
  });
});
