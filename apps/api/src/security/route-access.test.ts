import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ROUTES } from '@portal/contract';
import { ENGINES, createTestApp, signToken, type TestContext } from '../test/test-app';

/**
 * Access is decided by the route that matched, never by the URL string: every declared route, spelled every way a
 * router may still match it, refuses a caller without a valid token, with a garbage token and with a token of a user
 * whose profile lacks the route's permission. Sent over a real socket, so the request target reaches the server
 * exactly as written (an absolute-form target included).
 */
type Answer = { status: number; body: string };

function send(port: number, method: string, target: string, authorization?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path: target,
        headers: { ...(authorization ? { authorization } : {}), 'content-type': 'application/json' },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    if (method !== 'GET' && method !== 'DELETE') request.write('{}');
    request.end();
  });
}

const SAMPLE_ID = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';

/** The route's path with its parameters filled in. */
const concrete = (url: string) =>
  url
    .replace(/:kind/g, 'ine')
    .replace(/:email/g, 'admin@demo.mx')
    .replace(/:\w+/g, SAMPLE_ID)
    .replace(/\*$/, 'x');

/** Ways of writing the same path that a router may still match. */
function spellings(path: string, port: number): Record<string, string> {
  const encodeFirst = (segment: string) => (segment === '' ? segment : `%${segment.charCodeAt(0).toString(16)}${segment.slice(1)}`);
  return {
    plain: path,
    'percent-encoded': path.split('/').map(encodeFirst).join('/'),
    'double slash': path.replaceAll('/', '//'),
    'trailing slash': `${path}/`,
    'mixed case': path.replace(/[a-z]/g, (letter, index: number) => (index % 2 === 0 ? letter.toUpperCase() : letter)),
    'absolute form': `http://127.0.0.1:${port}${path}`,
  };
}

describe.each(ENGINES.slice(0, 1))('access by matched route (%s)', (engine) => {
  let ctx: TestContext;
  let port: number;
  beforeAll(async () => {
    ctx = await createTestApp(engine);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(() => ctx.close());

  it('declares an access rule on every route the server registered, not only under /api', () => {
    const undeclared = ctx.app.registeredRoutes
      .filter((route) => route.access === undefined)
      .map((route) => `${route.method} ${route.url}`);
    expect(undeclared).toEqual([]);
  });

  it('registers exactly the routes of the contract route table under /api, each with its declared access', () => {
    const registered = ctx.app.registeredRoutes
      .filter((route) => route.url.startsWith('/api/') && !route.url.startsWith('/api/docs'))
      .map((route) => `${route.method} ${route.url} ${JSON.stringify(route.access)}`)
      .sort();
    const declared = ALL_ROUTES.map((route) => `${route.method} /api${route.path} ${JSON.stringify(route.access)}`).sort();
    expect(registered).toEqual(declared);
  });

  it('refuses every protected route, however it is spelled, without a valid token or the permission', async () => {
    const noPermission = `Bearer ${await signToken('sinpermisos@demo.mx')}`;
    const callers: Record<string, string | undefined> = {
      'no token': undefined,
      'garbage token': 'Bearer no-es-un-jwt',
      'token without permission': noPermission,
    };
    const protectedRoutes = ctx.app.registeredRoutes.filter((route) => route.access && !('public' in route.access));
    expect(protectedRoutes.length).toBeGreaterThan(30);
    const leaks: string[] = [];
    for (const route of protectedRoutes) {
      for (const [spelling, target] of Object.entries(spellings(concrete(route.url), port))) {
        for (const [caller, authorization] of Object.entries(callers)) {
          // Any valid token passes a signed-in route by design (the sign-in lookup answers only about oneself).
          if (caller === 'token without permission' && route.access && 'signedIn' in route.access) continue;
          const answer = await send(port, route.method, target, authorization);
          if (answer.status < 400 || answer.status >= 500)
            leaks.push(`${route.method} ${target} (${spelling}, ${caller}) → ${answer.status}`);
        }
      }
    }
    expect(leaks).toEqual([]);
  });

  it('answers the attack of the review: the outbox and user creation through /%61pi are refused', async () => {
    expect((await send(port, 'GET', '/%61pi/outbox')).status).toBe(401);
    expect((await send(port, 'POST', '/%61pi/users')).status).toBe(401);
    expect((await send(port, 'GET', `http://127.0.0.1:${port}/api/users`)).status).toBe(401);
    // Signed in with the permission, the same encoded spelling reaches the route itself.
    expect((await send(port, 'GET', '/%61pi/outbox', `Bearer ${await signToken('admin@demo.mx')}`)).status).toBe(200);
  });

  it('answers a path that matches no route with a 404, also when it looks like the API', async () => {
    for (const target of ['/api/no-existe', '/%61pi/no-existe', '//api//no-existe']) {
      const answer = await send(port, 'GET', target);
      expect(answer.status, target).toBe(404);
      expect(answer.body).toContain('Recurso no encontrado');
    }
  });
});
