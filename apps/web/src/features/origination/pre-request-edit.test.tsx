import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import { catalog, sentPreRequest } from './origination.test-data';
import PreRequestEditScreen from './pre-request-edit.screen';

function open(permissions: string[]) {
  resetSessionCache();
  saveSession(sampleSession({ permissions: permissions.map((path) => ({ path })) }));
  stubApi((_method, path) => (path === '/api/pre-requests/catalog' ? catalog : sentPreRequest));
  renderScreen(<PreRequestEditScreen />, {
    path: '/origination/pre-request-edit/:id',
    url: `/origination/pre-request-edit/${sentPreRequest.id}`,
  });
}

describe('pre-request edit screen', () => {
  beforeEach(() => () => vi.unstubAllGlobals());

  it('offers to convert a sent pre-request into a request to whoever may capture one', async () => {
    open(['/origination/pre-request-new', '/origination/request-new']);
    expect(await screen.findByRole('link', { name: 'Convertir en solicitud' })).toHaveAttribute(
      'href',
      `/origination/request-new?preRequest=${sentPreRequest.id}`,
    );
  });

  it('does not offer it without the Solicitudes permission', async () => {
    open(['/origination/pre-request-new']);
    expect(await screen.findByRole('heading', { name: 'Pre-solicitud PS-000012' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Convertir en solicitud' })).not.toBeInTheDocument();
  });
});
