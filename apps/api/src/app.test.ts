import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_EMAIL_CLAIM_TITLE } from '@portal/contract';
import { ENGINES, createTestApp, signToken, type TestContext } from './test/test-app';

describe.each(ENGINES)('the API shell on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(engine);
  });
  afterAll(() => ctx.close());

  it('declares an access rule on every registered /api route', () => {
    const routes = ctx.app.registeredRoutes;
    expect(routes.length).toBeGreaterThan(3);
    const undeclared = routes.filter((route) => route.access === undefined).map((route) => `${route.method} ${route.url}`);
    expect(undeclared).toEqual([]);
    const publicRoutes = routes.filter((route) => route.access && 'public' in route.access).map((route) => route.url);
    // Public is the exception: liveness and readiness, the provider's whereabouts, the API documentation, and the
    // metrics (a scraper has no OIDC session: their handler demands METRICS_TOKEN, see http/observability.test.ts), and
    // the embedded database's copy (the command line has none either: its handler demands the control file's token,
    // see backup.test.ts).
    const openByDesign = ['/api/health', '/api/ready', '/api/auth/config', '/api/metrics', '/api/backup'];
    expect(publicRoutes.every((url) => openByDesign.includes(url) || url.startsWith('/api/docs'))).toBe(true);
  });

  it('answers liveness at /api/health without the database, readiness with it at /api/ready', async () => {
    const health = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', version: expect.any(String) });
    expect(health.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
    const ready = await ctx.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ok', database: { ok: true, driver: engine } });
  });

  it('refuses a token without the e-mail claim with its own title, which the sign-in page turns into a Spanish reason', async () => {
    const response = await ctx.app.inject({
      url: '/api/core/user/by_email/admin%40demo.mx',
      headers: { authorization: `Bearer ${await signToken('')}` },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ title: MISSING_EMAIL_CLAIM_TITLE, detail: expect.stringContaining('(email)') });
  });

  it('keeps a caller-given request id', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'prueba-12345678' } });
    expect(response.headers['x-request-id']).toBe('prueba-12345678');
  });

  it('serves the OpenAPI document generated from the zod contract', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/core/user/by_email/{email}']));
  });

  it('answers an unknown API path with a Spanish Problem JSON 404', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/no-existe' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ status: 404, title: 'Recurso no encontrado' });
  });

  it('exposes the provider settings the browser needs, and no secret', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/auth/config' });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual(['audience', 'clientId', 'embedded', 'issuer', 'passwordResetUrl', 'scope']);
  });
});
