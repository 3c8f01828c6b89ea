import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, redirect, type PatchRoutesOnNavigationFunction, type RouteObject } from 'react-router';
import { FORGOT_PASSWORD_PATH, HOME_PATH, NOT_FOUND_PATH, SIGN_IN_PATH } from '@portal/contract';
import { SCREEN_ROUTES, type ScreenHandle } from './routes';
import { RouteLoading } from '../components/route-loading';
import { getSession } from '../lib/auth/session';

const lazyScreen = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

export const routes: RouteObject[] = [
  {
    hydrateFallbackElement: <RouteLoading />,
    children: [
      // The session is decided here, before the signed-in layout would load: a visitor goes straight to sign in.
      { path: '/', loader: () => redirect(getSession() ? HOME_PATH : SIGN_IN_PATH), element: <RouteLoading /> },
      { path: SIGN_IN_PATH, lazy: lazyScreen(() => import('../features/session/signin.screen')) },
      { path: FORGOT_PASSWORD_PATH, lazy: lazyScreen(() => import('../features/session/forgot-password.screen')) },
      { path: NOT_FOUND_PATH, lazy: lazyScreen(() => import('./shell/not-found.screen')) },
      {
        // The shell is its own chunk, so the sign-in page does not download it.
        id: 'shell',
        lazy: lazyScreen(() => import('./shell/guarded-layout')),
        children: SCREEN_ROUTES.map((route): RouteObject => ({
          path: route.path,
          handle: { title: route.title, group: route.group, access: route.access } satisfies ScreenHandle,
          lazy: lazyScreen(route.load),
        })),
      },
      { path: '*', element: <Navigate to={NOT_FOUND_PATH} replace /> },
    ],
  },
];

/** The template's demo routes (apps/web/src/demo) are found on first visit, so none of their code ships with sign-in. */
export const routerOptions: { patchRoutesOnNavigation?: PatchRoutesOnNavigationFunction } = {
  patchRoutesOnNavigation:
    import.meta.env.VITE_DEMO === 'false'
      ? undefined
      : async (args) => {
          // A product route matched (React Router asks on any path it cannot rule out): the demo's table stays unloaded.
          const deepest = args.matches.at(-1)?.route.path;
          if (deepest && deepest !== '/' && deepest !== '*') return;
          const demo = await import('../demo/registry');
          demo.patchDemoRoutes(args);
        },
};

export const createRouter = () => createBrowserRouter(routes, routerOptions);
