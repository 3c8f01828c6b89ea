import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import AgreementListScreen from './agreement-list.screen';

const TITLE = 'Monto neto mínimo de una renovación';

function signIn(canEdit: boolean) {
  resetSessionCache();
  saveSession(
    sampleSession({
      permissions: [{ path: '/catalog/contract-list' }, ...(canEdit ? [{ path: '/actions/agreements/renewal-minimum' }] : [])],
    }),
  );
}

/** The API as the screen sees it: the list empty, the minimum as `stored`, a PUT answered by `saving()`. */
function api(stored: string, saving: () => unknown = () => [500, {}]) {
  return stubApi((method, path) => {
    if (path === '/api/agreements/renewal-minimum') return method === 'PUT' ? saving() : { renewalMinimumNet: stored };
    if (path.startsWith('/api/agreements?')) return { items: [], total: 0, totalCapped: false };
    return { items: [] };
  });
}

describe('Convenios: the minimum net amount of a renewal', () => {
  beforeEach(() => () => vi.unstubAllGlobals());

  it('shows the value as money, edits it in a dialog, refuses a bad amount in Spanish and saves the good one', async () => {
    signIn(true);
    const calls = api('12500.5', () => ({ renewalMinimumNet: '20000.00' }));
    renderScreen(<AgreementListScreen />, { path: '/catalog/contract-list' });

    const section = await screen.findByRole('region', { name: TITLE });
    expect(await within(section).findByText('$12,500.50')).toBeInTheDocument();
    await userEvent.click(within(section).getByRole('button', { name: 'Editar' }));

    const dialog = await screen.findByRole('dialog', { name: TITLE });
    const field = within(dialog).getByRole('textbox', { name: 'Monto neto mínimo' });
    await userEvent.clear(field);
    await userEvent.type(field, '1.234');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Monto neto mínimo: a lo más dos decimales (centavos).')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    await userEvent.clear(field);
    await userEvent.type(field, '$20,000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
      path: '/api/agreements/renewal-minimum',
      body: { renewalMinimumNet: '20000.00' },
    });
    expect(await within(section).findByText('$20,000.00')).toBeInTheDocument();
    expect(await screen.findByText('Monto neto mínimo guardado.')).toBeInTheDocument();
  });

  it("shows the API's refusal in Spanish next to the field", async () => {
    signIn(true);
    // A refusal the browser's schema does not make (another administrator's rule, a newer API): said where it belongs.
    api('0.00', () => [
      400,
      {
        type: 'about:blank',
        title: 'Datos inválidos',
        status: 400,
        detail: 'Revisa los campos marcados.',
        errors: [{ field: 'renewalMinimumNet', message: 'El monto neto mínimo no se pudo guardar: inténtalo de nuevo.' }],
      },
    ]);
    renderScreen(<AgreementListScreen />, { path: '/catalog/contract-list' });
    const section = await screen.findByRole('region', { name: TITLE });
    await userEvent.click(await within(section).findByRole('button', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: TITLE });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('El monto neto mínimo no se pudo guardar: inténtalo de nuevo.')).toBeInTheDocument();
  });

  it('shows the value without an Editar button to a user without the permission', async () => {
    signIn(false);
    api('0.00');
    renderScreen(<AgreementListScreen />, { path: '/catalog/contract-list' });
    const section = await screen.findByRole('region', { name: TITLE });
    expect(await within(section).findByText('$0.00')).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Editar' })).not.toBeInTheDocument();
  });
});
