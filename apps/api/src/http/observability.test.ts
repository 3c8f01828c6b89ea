import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { BEHAVIOUR_ENGINES, TEST_AUDIENCE, TEST_PUBLIC_URL, createTestApp, type TestContext } from '../test/test-app';
import { injectTransport, oidcBrowser } from '../test/oidc-client';
import { users } from '../db/schema/users';
import { createLogger, loggableUrl } from './logging';

const METRICS_TOKEN = 'token-de-prometheus-0123456789abcdef';

/** Every JSON line the process logger writes, as a real destination receives it. */
function capturedLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return {
    logger: createLogger('info', destination),
    lines,
    records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('loggableUrl', () => {
  it('censors credentials in the query and leaves the rest as it was', () => {
    expect(loggableUrl('/oidc/reset-password?token=abc123')).toBe('/oidc/reset-password?token=%5Boculto%5D');
    expect(loggableUrl('/auth-callback.html?code=xyz&state=estado-1')).toBe('/auth-callback.html?code=%5Boculto%5D&state=estado-1');
    expect(loggableUrl('/api/users?q=maria&page=2')).toBe('/api/users?q=maria&page=2');
    expect(loggableUrl('/api/health')).toBe('/api/health');
  });
});

/** Each test builds its own app (its own logger, with or without metrics); a slow machine gets the time to. */
const BUILDS_AN_APP = 120_000;

describe.each(BEHAVIOUR_ENGINES)('observability on %s', (engine) => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  it(
    'logs each request with its id, the user id once known, and never the password, the tokens or a reset link token',
    async () => {
      const log = capturedLogger();
      const printed: string[] = [];
      const app = (ctx = await createTestApp(engine, { logger: log.logger, embeddedIdp: { print: (line) => printed.push(line) } }));
      const client = oidcBrowser(injectTransport(app.app), { publicUrl: TEST_PUBLIC_URL, audience: TEST_AUDIENCE });
      const password = 'Administrador2026';
      const tokens = await client.completeSignIn('admin@demo.mx', password);
      const users_ = await app.app.inject({
        method: 'GET',
        url: '/api/users',
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(users_.statusCode).toBe(200);
      // A reset link carries its token in the URL; opening it is logged.
      await client.post('/oidc/forgot-password', { email: 'originacion@demo.mx' });
      const link = printed.find((line) => line.includes('/reset-password?token='))!.match(/https?:\/\/\S+/)![0];
      const resetToken = new URL(link).searchParams.get('token')!;
      expect((await client.get(client.pathOf(link))).statusCode).toBe(200);

      const text = log.lines.join('\n');
      for (const secret of [password, tokens.access_token, tokens.id_token, resetToken]) expect(text).not.toContain(secret);
      // The access token's signature alone would not be enough to find a leak of a reformatted token: check it too.
      expect(text).not.toContain(tokens.access_token.split('.')[2]);

      const [admin] = await app.system((tx) => tx.select({ id: users.id }).from(users).where(eq(users.email, 'admin@demo.mx')));
      const records = log.records();
      const completed = records.find((record) => record.msg === 'request completed' && record.userId === admin!.id);
      expect(completed).toMatchObject({ reqId: users_.headers['x-request-id'], userId: admin!.id, res: { statusCode: 200 } });
      const incoming = records.find((record) => record.msg === 'incoming request' && record.reqId === users_.headers['x-request-id']);
      expect(incoming).toMatchObject({ req: { method: 'GET', url: '/api/users' } });
      // Every line of a request carries its id.
      expect(records.filter((record) => record.req || record.res).every((record) => typeof record.reqId === 'string')).toBe(true);
    },
    BUILDS_AN_APP,
  );

  it(
    'serves per-route latency histograms at /api/metrics to the bearer of METRICS_TOKEN only, labelled by route pattern',
    async () => {
      const app = (ctx = await createTestApp(engine, { metricsToken: METRICS_TOKEN }));
      const [admin] = await app.system((tx) => tx.select({ id: users.id }).from(users).where(eq(users.email, 'admin@demo.mx')));
      const auth = await app.as('admin@demo.mx');
      for (let call = 0; call < 3; call += 1) {
        expect((await app.app.inject({ method: 'GET', url: `/api/users/${admin!.id}`, headers: auth })).statusCode).toBe(200);
      }
      // The route is public to the portal's access hook (a scraper has no OIDC session): its handler is the only check.
      const refusals = [
        {},
        { authorization: 'Bearer otro-token-0123456789abcdefgh' },
        { authorization: `Bearer ${METRICS_TOKEN}x` },
        { authorization: METRICS_TOKEN },
        // A portal user's valid access token is not the scraper's token.
        auth,
      ];
      for (const headers of refusals) {
        const refused = await app.app.inject({ method: 'GET', url: '/api/metrics', headers });
        expect(refused.statusCode).toBe(401);
        expect(refused.json()).toMatchObject({ status: 401, detail: 'Las métricas requieren el token de METRICS_TOKEN.' });
        expect(refused.body).not.toContain('http_request_duration_seconds');
      }
      const scrape = await app.app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(scrape.statusCode).toBe(200);
      expect(scrape.headers['content-type']).toContain('text/plain');
      expect(scrape.body).toContain('http_request_duration_seconds_count{method="GET",route="/api/users/:id",status_code="200"} 3');
      expect(scrape.body).toMatch(
        /http_request_duration_seconds_bucket\{le="0\.05",method="GET",route="\/api\/users\/:id",status_code="200"\} \d/,
      );
      expect(scrape.body).not.toContain(admin!.id);
      expect(scrape.body).toContain('process_resident_memory_bytes');
    },
    BUILDS_AN_APP,
  );

  it(
    'answers 404 at /api/metrics without METRICS_TOKEN, whatever the caller presents',
    async () => {
      const app = (ctx = await createTestApp(engine));
      for (const headers of [{}, { authorization: `Bearer ${METRICS_TOKEN}` }]) {
        const response = await app.app.inject({ method: 'GET', url: '/api/metrics', headers });
        expect(response.statusCode).toBe(404);
        expect(response.body).not.toContain('process_resident_memory_bytes');
      }
    },
    BUILDS_AN_APP,
  );
});
