import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { catalog } from './origination.test-data';
import PreRequestNewScreen from './pre-request-new.screen';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';

const user = userEvent.setup();
const PATH = '/origination/pre-request-new';
const input = (label: string) => screen.getByLabelText(label, { exact: false, selector: 'input' });

async function choose(label: string, option: RegExp | string) {
  await user.click(await screen.findByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('forms that forgive and guide (pre-request form)', () => {
  let calls: ReturnType<typeof stubApi>;
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: PATH }] }));
    calls = stubApi((method, path) => {
      if (path === '/api/pre-requests/catalog') return catalog;
      if (path.startsWith('/api/pre-requests?')) return { items: [], total: 0 };
      if (method === 'POST') return { id: 'p1', folio: 'PS-000099' };
      return [404, { type: 'about:blank', title: 'No encontrado', status: 404 }];
    });
    return () => vi.unstubAllGlobals();
  });

  it('after a failed save, focuses the first invalid field (in screen order) and sums up what to fix', async () => {
    renderScreen(<PreRequestNewScreen />, { path: PATH });
    await user.click(await screen.findByRole('button', { name: 'Guardar borrador' }));
    expect(await screen.findByText(/No se guardó: revisa los \d+ campos marcados/)).toBeInTheDocument();
    await waitFor(() => expect(input('CURP')).toHaveFocus());
  });

  it('accepts amounts as people type them ("$12,500.00", "30,000") and sends them clean', async () => {
    const router = renderScreen(<PreRequestNewScreen />, { path: PATH });
    await user.type(await screen.findByLabelText('CURP', { exact: false, selector: 'input' }), 'PXNE660720HMCXTN06');
    await user.type(input('Número de empleado'), 'J-1001');
    await user.type(input('Nombre(s)'), 'Enrique');
    await user.type(input('Primer apellido'), 'Peña');
    await choose('Convenio', /^GOB-JAL/);
    await choose('Producto', /^Nómina Jalisco 24/);
    await user.type(input('Sueldo neto por periodo'), '$12,500.00');
    await user.type(input('Monto solicitado'), '30,000');
    await choose('Plazo', '24 pagos');
    expect(screen.getByLabelText('Dictamen en vivo')).toHaveTextContent('Pre-aprobada');
    await user.click(screen.getByRole('button', { name: 'Guardar borrador' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')!.body).toMatchObject({ netSalary: '12500.00', amount: '30000.00' });
    // A successful save leaves without asking.
    await waitFor(() => expect(router.state.location.pathname).toBe('/origination/pre-request-edit/p1'));
  });

  it('asks before leaving a half-filled form, with "Seguir editando" focused', async () => {
    const router = renderScreen(<PreRequestNewScreen />, { path: PATH });
    await user.type(await screen.findByLabelText('CURP', { exact: false, selector: 'input' }), 'PXNE66');
    void router.navigate('/user/user-list');
    const dialog = await screen.findByRole('dialog', { name: '¿Salir sin guardar?' });
    expect(within(dialog).getByRole('button', { name: 'Seguir editando' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Seguir editando' }));
    expect(router.state.location.pathname).toBe(PATH);
    expect(input('CURP')).toHaveValue('PXNE66');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    void router.navigate('/user/user-list');
    await user.click(
      within(await screen.findByRole('dialog', { name: '¿Salir sin guardar?' })).getByRole('button', { name: 'Salir sin guardar' }),
    );
    expect(await screen.findByText('Otra pantalla')).toBeInTheDocument();
  });
});
