import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { ConfirmProvider } from './components/confirm-dialog';

/** Renders a screen as the shell does (a fresh query client, the confirm dialog, a router at `url`). */
export function renderScreen(element: ReactElement, { path = '/', url = path }: { path?: string; url?: string } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path, element: <ConfirmProvider>{element}</ConfirmProvider> },
      { path: '*', element: <p>Otra pantalla</p> },
    ],
    {
      initialEntries: [url],
    },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

interface FetchCall {
  method: string;
  path: string;
  body: unknown;
}

/**
 * Answers the API with `answer(method, path)` (path with its query): a body for 200, `[status, body]` otherwise.
 * Returns the calls made, JSON bodies parsed, to assert what a screen sent.
 */
export function stubApi(answer: (method: string, path: string) => unknown) {
  const calls: FetchCall[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    calls.push({ method, path: input, body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body });
    const result = answer(method, input);
    const [status, body] = Array.isArray(result) && typeof result[0] === 'number' ? (result as [number, unknown]) : [200, result];
    return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}
