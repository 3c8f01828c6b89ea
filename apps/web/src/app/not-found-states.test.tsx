import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetSessionCache, saveSession } from '../lib/auth/session';
import PreRequestEditScreen from '../features/origination/pre-request-edit.screen';
import RequestListScreen from '../features/origination/request-list.screen';
import { catalog } from '../features/origination/origination.test-data';
import UserEditScreen from '../features/users/user-edit.screen';
import CreditViewScreen from '../features/wallet/credit-view.screen';
import { sampleSession } from '../test-support';
import { renderScreen, stubApi } from '../test-render';

const NOT_FOUND = [404, { type: 'about:blank', title: 'No encontrado', status: 404, detail: 'No existe.' }];
// A cut-off or mistyped id in the URL: the API refuses the id itself.
const BAD_ID = [
  400,
  {
    type: 'about:blank',
    title: 'Datos inválidos',
    status: 400,
    detail: 'Revisa los campos marcados.',
    errors: [{ field: 'id', message: 'Identificador no válido.' }],
  },
];

describe('a bad id in the URL shows "No encontrado" with a way back', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(
      sampleSession({
        permissions: ['/origination/pre-request-new', '/origination/request-list', '/user/user-list', '/wallet/credits/credits-list'].map(
          (path) => ({ path }),
        ),
      }),
    );
    return () => vi.unstubAllGlobals();
  });

  it.each([
    [
      'pre-request',
      PreRequestEditScreen,
      '/origination/pre-request-edit/:id',
      '/origination/pre-request-edit/no-existe',
      'Ir a Pre-Solicitudes',
      '/origination/pre-request-new',
      BAD_ID,
    ],
    [
      'user',
      UserEditScreen,
      '/user/user-edit/:id',
      '/user/user-edit/00000000-0000-4000-8000-000000000000',
      'Ir a la lista de usuarios',
      '/user/user-list',
      NOT_FOUND,
    ],
    [
      'credit',
      CreditViewScreen,
      '/wallet/credits/credits-view/:id',
      '/wallet/credits/credits-view/abc',
      'Ir a Créditos',
      '/wallet/credits/credits-list',
      BAD_ID,
    ],
  ] as const)('%s', async (_name, Screen, path, url, back, backTo, answer) => {
    stubApi((_method, requested) =>
      requested === '/api/pre-requests/catalog'
        ? catalog
        : requested.startsWith('/api/companies') || requested.startsWith('/api/profiles')
          ? { items: [] }
          : answer,
    );
    renderScreen(<Screen />, { path, url });
    expect(await screen.findByRole('heading', { name: 'No encontrado' })).toBeInTheDocument();
    expect(screen.queryByText('Revisa los campos marcados.')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: back })).toHaveAttribute('href', backTo);
  });

  it('in the Capturas panel, and its button closes the panel', async () => {
    stubApi((_method, requested) => {
      if (requested === '/api/pre-requests/catalog') return catalog;
      if (requested.startsWith('/api/requests?')) return { items: [], total: 0 };
      return NOT_FOUND;
    });
    const router = renderScreen(<RequestListScreen />, {
      path: '/origination/request-list',
      url: '/origination/request-list?id=no-existe',
    });
    const panel = await screen.findByRole('dialog', { name: 'Detalle de la solicitud' });
    expect(await within(panel).findByRole('heading', { name: 'No encontrado' })).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('link', { name: 'Volver a Capturas' }));
    expect(router.state.location.search).toBe('');
  });
});
