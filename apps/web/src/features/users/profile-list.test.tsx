import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import ProfileListScreen from './profile-list.screen';

const cartera: Profile = {
  id: '6b0f1c4e-2a7e-4c55-9a37-3f3c2f1d9a10',
  companyId: null,
  name: 'Cartera',
  roleCode: 'CARTERA',
  permissions: ['/wallet/credits/credits-list'],
  userCount: 2,
  version: 4,
};

const refusal = (field: string, message: string) => [
  409,
  { type: 'conflict', title: 'Perfil duplicado', status: 409, errors: [{ field, message }] },
];

describe('Perfiles: the profile dialog', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: '/user/profile-list' }] }));
    return () => vi.unstubAllGlobals();
  });

  it('checks the fields with the contract before sending, and sends nothing while they are wrong', async () => {
    const calls = stubApi((method, path) => (method === 'GET' && path === '/api/profiles' ? { items: [cartera] } : [500, {}]));
    renderScreen(<ProfileListScreen />, { path: '/user/profile-list' });
    await userEvent.click(await screen.findByRole('button', { name: 'Nuevo perfil' }));
    const dialog = screen.getByRole('dialog', { name: 'Nuevo perfil' });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Escribe el nombre del perfil.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Nombre del perfil')).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText('Clave del rol')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('sends a new profile with its role code in capitals, places a refusal on its field, then closes with a message', async () => {
    let refuse = true;
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path === '/api/profiles') return { items: [cartera] };
      if (method === 'POST' && path === '/api/profiles') {
        if (refuse) return refusal('roleCode', 'Ya existe un perfil con esa clave.');
        return [201, { ...cartera, id: 'nuevo', name: 'Cobranza', roleCode: 'COBRANZA_2', permissions: [], userCount: 0, version: 1 }];
      }
      return [500, {}];
    });
    renderScreen(<ProfileListScreen />, { path: '/user/profile-list' });
    await userEvent.click(await screen.findByRole('button', { name: 'Nuevo perfil' }));
    const dialog = screen.getByRole('dialog', { name: 'Nuevo perfil' });

    await userEvent.type(within(dialog).getByLabelText('Nombre del perfil'), 'Cobranza');
    await userEvent.type(within(dialog).getByLabelText('Clave del rol'), 'cobranza_2');
    expect(within(dialog).getByLabelText('Clave del rol')).toHaveValue('COBRANZA_2');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Lista de usuarios' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(await within(dialog).findByText('Ya existe un perfil con esa clave.')).toBeInTheDocument();
    const sent = calls.filter((call) => call.method === 'POST');
    expect(sent).toEqual([
      { method: 'POST', path: '/api/profiles', body: { name: 'Cobranza', roleCode: 'COBRANZA_2', permissions: ['/user/user-list'] } },
    ]);

    refuse = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Nuevo perfil' })).not.toBeInTheDocument());
    expect(screen.getByText('Perfil creado.')).toBeInTheDocument();
  });

  it('edits a profile on the version it was read at', async () => {
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path === '/api/profiles') return { items: [cartera] };
      if (method === 'PUT' && path === `/api/profiles/${cartera.id}`) return { ...cartera, name: 'Cartera y cobranza', version: 5 };
      return [500, {}];
    });
    renderScreen(<ProfileListScreen />, { path: '/user/profile-list' });
    const row = (await screen.findByRole('cell', { name: 'Cartera' })).closest('tr')!;
    await userEvent.click(within(row as HTMLElement).getByRole('button', { name: 'Editar' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar perfil' });
    expect(within(dialog).getByLabelText('Clave del rol')).toHaveValue('CARTERA');

    const name = within(dialog).getByLabelText('Nombre del perfil');
    await userEvent.clear(name);
    await userEvent.type(name, 'Cartera y cobranza');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Editar perfil' })).not.toBeInTheDocument());
    expect(screen.getByText('Perfil actualizado.')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([
      {
        method: 'PUT',
        path: `/api/profiles/${cartera.id}`,
        body: { name: 'Cartera y cobranza', roleCode: 'CARTERA', permissions: ['/wallet/credits/credits-list'], version: 4 },
      },
    ]);
  });
});
