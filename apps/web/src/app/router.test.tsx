import { render, screen, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { routerOptions, routes } from './router';
import { resetSessionCache, saveSession } from '../lib/auth/session';
import { sampleSession } from '../test-support';

function open(path: string) {
  const router = createMemoryRouter(routes, { ...routerOptions, initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

describe('router guards', () => {
  // Compile the lazy screens once up front, so a cold transform on a busy machine does not eat the waits below.
  // The router also loads the demo's route table on a parameterised or unknown path: through its own hook, warmed here.
  beforeAll(() =>
    Promise.all([
      import('./shell/guarded-layout'),
      import('../features/session/signin.screen'),
      import('./shell/placeholder.screen'),
      import('../features/users/user-edit.screen'),
      routerOptions.patchRoutesOnNavigation?.({
        path: '/',
        matches: [],
        patch: () => undefined,
        signal: new AbortController().signal,
        fetcherKey: undefined,
      }),
    ]),
  );

  beforeEach(() => {
    resetSessionCache();
    // No API here: the sign-in page's configuration request fails, which it shows as an error.
    vi.stubGlobal('fetch', async () => new Response(null, { status: 503 }));
    return () => vi.unstubAllGlobals();
  });

  it('sends a signed-out visitor to sign in, carrying the page wanted', async () => {
    const router = open('/catalog/contract-list?page=2');
    expect(await screen.findByRole('button', { name: 'Iniciar sesión' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/session/signin');
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/catalog/contract-list?page=2')}`);
  });

  it('shows the 403 page, not the sign-in page, to a user without the permission', async () => {
    saveSession(sampleSession());
    open('/user/user-edit/123');
    expect(await screen.findByText(/No tienes permiso para ver esta pantalla/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Acceso denegado (403)' })).toBeInTheDocument();
  });

  it('opens a permitted screen with its title and breadcrumb', async () => {
    saveSession(sampleSession({ permissions: [{ path: '/wallet/credits/credits-list' }, { path: '/wallet/operative-report' }] }));
    open('/wallet/operative-report');
    expect(await screen.findByRole('heading', { name: 'Reportes Operativos', level: 1 })).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Ruta de navegación' });
    expect(crumbs).toHaveTextContent('Inicio');
    // The group is a link to its first screen this user may open.
    expect(within(crumbs).getByRole('link', { name: 'Cartera' })).toHaveAttribute('href', '/wallet/credits/credits-list');
  });

  it('keeps the role-list dashboard to role SA', async () => {
    saveSession(sampleSession());
    open('/dashboard/default');
    expect(await screen.findByRole('heading', { name: 'Acceso denegado (403)' })).toBeInTheDocument();
  });

  it('sends a visitor at / straight to sign in, without loading the signed-in layout', async () => {
    const router = open('/');
    expect(await screen.findByRole('button', { name: 'Iniciar sesión' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/session/signin');
    expect(router.routes[0]!.children!.find((route) => route.id === 'shell')!.Component).toBeUndefined();
  });

  it('redirects / to /home and an unknown path to /session/404', async () => {
    saveSession(sampleSession());
    const router = open('/');
    expect(await screen.findByRole('heading', { name: /Hola, Ana Cartera/ })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/home');
    await router.navigate('/no/existe');
    expect(await screen.findByRole('heading', { name: 'Página no encontrada' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/session/404');
  });
});
