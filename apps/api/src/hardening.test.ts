import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema, type Db } from './db/client';
import { buildApp } from './app';
import { DEFAULT_DAILY_MINIMUM_WAGE } from './config';
import { isDatabaseUnavailable } from './http/errors';
import { ENGINES, createTestApp, fixedClock, type TestContext } from './test/test-app';

/** Inline scripts of a page that its CSP does not allow by hash (oidc-provider hashes its own into the header). */
function unhashedInlineScripts(body: string, csp: string): string[] {
  const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1] ?? '';
  return [...body.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi)]
    .map((match) => match[1]!)
    .filter((script) => !scriptSrc.includes(`'sha256-${createHash('sha256').update(script).digest('base64')}'`));
}

describe.each(ENGINES)('security headers and failure answers (%s)', (engine) => {
  let ctx: TestContext;
  let webDist: string;
  beforeAll(async () => {
    // A stand-in for the built SPA, with the hidden source map vite writes next to a bundle.
    webDist = await mkdtemp(path.join(tmpdir(), 'portal-web-'));
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(
      path.join(webDist, 'index.html'),
      '<!doctype html><div id="root"></div><script type="module" src="/assets/main.js"></script>',
    );
    await writeFile(path.join(webDist, 'assets', 'main.js'), 'console.log(1);');
    await writeFile(path.join(webDist, 'assets', 'main.js.map'), '{"version":3,"sources":["src/secreto.ts"]}');
    ctx = await createTestApp(engine, { embeddedIdp: { print: () => undefined }, webDist });
  });
  afterAll(async () => {
    await ctx.close();
    await rm(webDist, { recursive: true, force: true });
  });

  it.each([
    ['the SPA', '/home'],
    ['an API answer', '/api/health'],
    ['Swagger UI', '/api/docs/static/index.html'],
    ["the provider's forgot-password page", '/oidc/forgot-password'],
    ["the provider's sign-out page (a hijacked Koa answer)", '/oidc/session/end'],
    ['a 404', '/api/no-existe'],
  ])('sends a CSP with no inline script, no framing by others, nosniff and no referrer on %s', async (_name, url) => {
    const response = await ctx.app.inject({ url });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it("serves the provider's pages and Swagger UI with no inline script the CSP does not name by hash", async () => {
    for (const url of ['/oidc/forgot-password', '/oidc/session/end', '/api/docs/']) {
      const page = await ctx.app.inject({ url });
      expect(page.statusCode).toBe(200);
      expect(unhashedInlineScripts(page.body, String(page.headers['content-security-policy']))).toEqual([]);
    }
    // Opened without a trailing slash, Swagger UI still links its files under /api/docs (not /docs, the SPA's fallback).
    expect((await ctx.app.inject({ url: '/api/docs' })).body).toContain('src="/api/docs/static/swagger-ui-bundle.js"');
    const script = await ctx.app.inject({ url: '/oidc/submit-logout.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body).toContain("getElementById('op.logoutForm').submit()");
  });

  it('serves the bundle but not its source map', async () => {
    expect((await ctx.app.inject({ url: '/assets/main.js' })).statusCode).toBe(200);
    const map = await ctx.app.inject({ url: '/assets/main.js.map' });
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('secreto');
  });
});

describe.each(ENGINES)('a database that goes away under a running app (%s)', (engine) => {
  it('answers 503 Problem JSON in Spanish, not 500', async () => {
    const ctx = await createTestApp(engine);
    try {
      const headers = await ctx.as('admin@demo.mx');
      expect((await ctx.app.inject({ url: '/api/users', headers })).statusCode).toBe(200);
      await ctx.closeDatabase();
      const response = await ctx.app.inject({ url: '/api/users', headers });
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.headers['retry-after']).toBe('30');
      expect(response.json()).toMatchObject({ status: 503, title: 'Servicio no disponible', type: 'urn:portal:problem:unavailable' });
      expect(response.json().detail).toContain('La base de datos no responde');
    } finally {
      await ctx.close();
    }
  });
});

describe('a PostgreSQL that refuses connections', () => {
  it('answers 503, not 500', async () => {
    // Port 1 on the loopback: nothing listens, so every connection attempt is refused at once.
    const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/portal', connectionTimeoutMillis: 2_000 });
    pool.on('error', () => undefined);
    const app = await buildApp({
      db: drizzle(pool, { schema }) as unknown as Db,
      driver: 'postgres',
      clock: fixedClock(),
      verifier: { verify: async () => ({ email: 'admin@demo.mx' }) } as never,
      authConfig: {
        issuer: 'https://idp.test/oidc',
        clientId: 'portal-web',
        audience: 'api',
        scope: 'openid',
        embedded: true,
        passwordResetUrl: null,
      },
      dailyMinimumWage: DEFAULT_DAILY_MINIMUM_WAGE,
    });
    try {
      const response = await app.inject({ url: '/api/users', headers: { authorization: 'Bearer cualquiera' } });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ status: 503, title: 'Servicio no disponible' });
    } finally {
      await app.close();
      await pool.end();
    }
  });
});

describe('isDatabaseUnavailable', () => {
  const withCause = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), true],
    ['a refused connection wrapped by drizzle', withCause(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })), true],
    [
      "node-postgres' AggregateError for localhost",
      withCause(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })])),
      true,
    ],
    ['a connection cut mid-query', withCause(new Error('Connection terminated unexpectedly')), true],
    ['an administrator shutdown (57P01)', withCause(Object.assign(new Error('terminating connection'), { code: '57P01' })), true],
    ['a connection exception (class 08)', withCause(Object.assign(new Error('x'), { code: '08006' })), true],
    ['a closed pool', new Error('Cannot use a pool after calling end on the pool'), true],
    ['a unique violation', withCause(Object.assign(new Error('duplicate'), { code: '23505' })), false],
    ['a syntax error', withCause(Object.assign(new Error('syntax'), { code: '42601' })), false],
    ['a plain bug', new TypeError('x is undefined'), false],
  ])('%s → %s', (_name, error, expected) => {
    expect(isDatabaseUnavailable(error)).toBe(expected);
  });
});
