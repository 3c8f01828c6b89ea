import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENGINES, TEST_AUDIENCE, TEST_PUBLIC_URL, createTestApp, type TestContext } from '../test/test-app';
import { outbox } from '../db/schema/audit';
import { users } from '../db/schema/users';
import { verifyPassword } from './passwords';
import type * as Passwords from './passwords';
import { API_SCOPE, LOCK_MINUTES, MAX_FAILED_ATTEMPTS } from './idp';
import { injectTransport, oidcBrowser } from '../test/oidc-client';
import { lowCostHash } from '../test/low-cost-hash';

/** Counts password verifications (each one scrypt), to show every sign-in path costs the same. */
const scrypts = vi.hoisted(() => ({ count: 0 }));
vi.mock('./passwords', async (importOriginal) => {
  const actual = await importOriginal<typeof Passwords>();
  return {
    ...actual,
    verifyPassword: (password: string, stored: string) => {
      scrypts.count += 1;
      return actual.verifyPassword(password, stored);
    },
  };
});

/** The sign-in page's one answer to every failed attempt, whoever the account is. */
const INVALID = `Correo o contraseña incorrectos. Después de ${MAX_FAILED_ATTEMPTS} intentos fallidos la cuenta se bloquea ${LOCK_MINUTES} minutos.`;

/** The text of a page's alert (the only part of a failed sign-in that may differ), or null. */
const alertOf = (body: string) =>
  /<div class="alert [a-z]+" role="[a-z]+">([^<]*)<\/div>/.exec(body)?.[1]?.replaceAll('&#39;', "'") ?? null;

/** The provider's sign-in walked like a browser, over `inject`. */
const browser = (ctx: TestContext) => oidcBrowser(injectTransport(ctx.app), { publicUrl: TEST_PUBLIC_URL, audience: TEST_AUDIENCE });

describe.each(ENGINES)('embedded OIDC provider (%s)', (engine) => {
  let ctx: TestContext;
  let printed: string[] = [];
  beforeAll(async () => {
    ctx = await createTestApp(engine, { embeddedIdp: { print: (line) => printed.push(line) }, snapshot: true });
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    printed = [];
    await ctx.reset();
  });

  it('publishes its discovery document with PKCE and a JWKS without private parts', async () => {
    const discovery = (await ctx.app.inject({ url: '/oidc/.well-known/openid-configuration' })).json<Record<string, unknown>>();
    expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
    const jwks = (await ctx.app.inject({ url: '/oidc/jwks' })).json<{ keys: Record<string, unknown>[] }>();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('signs a user in with code + PKCE and issues a JWT access token the API accepts', async () => {
    const client = browser(ctx);
    const tokens = await client.completeSignIn('Admin@Demo.mx', 'Administrador2026');
    const [header, payload] = tokens.access_token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header.typ).toBe('at+jwt');
    expect(payload).toMatchObject({ aud: TEST_AUDIENCE, email: 'admin@demo.mx', scope: API_SCOPE });
    const lookup = await ctx.app.inject({
      url: '/api/core/user/by_email/admin%40demo.mx',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(lookup.statusCode).toBe(200);
  });

  it('refuses a token request without the PKCE verifier', async () => {
    const { code } = await browser(ctx).loginForCode('admin@demo.mx', 'Administrador2026');
    const token = await browser(ctx).exchangeCode(code);
    expect(token.statusCode).toBe(400);
    expect(token.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('shows a Spanish login page and locks the account for 15 minutes after five wrong passwords', async () => {
    const client = browser(ctx);
    const { interaction } = await client.startAuthorization();
    const page = await client.get(interaction);
    expect(page.body).toContain('<html lang="es-MX">');
    expect(page.body).toContain('Correo electrónico');

    for (let attempt = 1; attempt <= MAX_FAILED_ATTEMPTS; attempt += 1) {
      const wrong = await client.post(`${interaction}/login`, { email: 'cartera@demo.mx', password: `mala-${attempt}` });
      expect(wrong.statusCode).toBe(401);
      expect(alertOf(wrong.body)).toBe(INVALID);
      expect(wrong.body).not.toContain(`mala-${attempt}`);
    }
    // A wrong password on the locked account says nothing new; the right one learns it is locked, and is refused…
    expect(alertOf((await client.post(`${interaction}/login`, { email: 'cartera@demo.mx', password: 'mala-6' })).body)).toBe(INVALID);
    const locked = await client.post(`${interaction}/login`, { email: 'cartera@demo.mx', password: 'Cartera2026' });
    expect(locked.statusCode).toBe(401);
    expect(alertOf(locked.body)).toContain('La cuenta está bloqueada por demasiados intentos fallidos. Intenta de nuevo en 15 minutos');
    // …and accepted once the 15 minutes are over.
    ctx.clock.advance(LOCK_MINUTES * 60_000 + 1000);
    const tokens = await browser(ctx).completeSignIn('cartera@demo.mx', 'Cartera2026');
    expect(tokens.token_type).toBe('Bearer');
  });

  it('answers an unknown account, a wrong password and a locked account alike, each after one scrypt', async () => {
    const client = browser(ctx);
    const { interaction } = await client.startAuthorization();
    const attempt = async (email: string, password: string) => {
      scrypts.count = 0;
      const response = await client.post(`${interaction}/login`, { email, password });
      return { status: response.statusCode, alert: alertOf(response.body), scrypts: scrypts.count };
    };
    const expected = { status: 401, alert: INVALID, scrypts: 1 };
    expect(await attempt('nadie@demo.mx', 'Cualquiera2026')).toEqual(expected);
    expect(await attempt('cartera@demo.mx', 'Cualquiera2026')).toEqual(expected);
    await ctx.system((db) =>
      db
        .update(users)
        .set({ lockedUntil: new Date(ctx.clock.now().getTime() + 10 * 60_000) })
        .where(eq(users.email, 'mesa@demo.mx')),
    );
    expect(await attempt('mesa@demo.mx', 'Cualquiera2026')).toEqual(expected);
    await ctx.system((db) => db.update(users).set({ active: false }).where(eq(users.email, 'originacion@demo.mx')));
    expect(await attempt('originacion@demo.mx', 'Originacion2026')).toEqual(expected);
  });

  it('resets a password through a one-time link written to the outbox and the console', async () => {
    const client = browser(ctx);
    const unknown = await client.post('/oidc/forgot-password', { email: 'nadie@demo.mx' });
    const known = await client.post('/oidc/forgot-password', { email: 'originacion@demo.mx' });
    // Same answer either way, so the page does not reveal who has an account.
    expect(unknown.body).toBe(known.body);
    expect(known.body).toContain('Si el correo está registrado, enviamos un enlace para restablecer la contraseña.');
    const messages = await ctx.system((db) => db.select().from(outbox));
    expect(messages).toHaveLength(1);
    const link = messages[0]!.link!;
    expect(printed.join('\n')).toContain(link);
    const path = browser(ctx).pathOf(link);

    expect((await client.get(path)).body).toContain('Confirma la nueva contraseña');
    const mismatch = await client.post('/oidc/reset-password', {
      token: new URL(link).searchParams.get('token')!,
      password: 'NuevaClave2027',
      confirmation: 'OtraClave2027',
    });
    expect(mismatch.body).toContain('Las contraseñas no coinciden.');
    const weak = await client.post('/oidc/reset-password', {
      token: new URL(link).searchParams.get('token')!,
      password: 'corta',
      confirmation: 'corta',
    });
    expect(weak.body).toContain('al menos 10 caracteres');

    const saved = await client.post('/oidc/reset-password', {
      token: new URL(link).searchParams.get('token')!,
      password: 'NuevaClave2027',
      confirmation: 'NuevaClave2027',
    });
    expect(saved.body).toContain('Tu contraseña se actualizó');
    const [user] = await ctx.system((db) => db.select().from(users).where(eq(users.email, 'originacion@demo.mx')));
    expect(await verifyPassword('NuevaClave2027', user!.passwordHash!)).toBe(true);

    const reused = await client.get(path);
    expect(reused.statusCode).toBe(410);
    expect(reused.body).toContain('ya se usó');
    await browser(ctx).completeSignIn('originacion@demo.mx', 'NuevaClave2027');
  });

  it('takes only form fields on its pages: JSON bodies of any shape get 415, never a 500', async () => {
    const nested = `${'['.repeat(6_000)}${']'.repeat(6_000)}`;
    const mail = () => ctx.system((db) => db.select().from(outbox));
    const before = await mail();
    for (const [url, payload] of [
      ['/oidc/forgot-password', { email: 5 }],
      ['/oidc/forgot-password', { email: ['originacion@demo.mx'] }],
      ['/oidc/forgot-password', nested],
      ['/oidc/reset-password', { token: { a: 1 }, password: 'Otra2026!', confirmation: 'Otra2026!' }],
      ['/oidc/reset-password', { token: ['a'], password: 'Otra2026!', confirmation: 'Otra2026!' }],
    ] as const) {
      const response = await ctx.app.inject({
        method: 'POST',
        url,
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode, `${url} ${response.body}`).toBe(415);
    }
    expect(await mail()).toEqual(before);
  });

  it('asks to confirm sign-out with a page whose auto-submit is a script file, not inline script', async () => {
    const client = browser(ctx);
    await client.completeSignIn('admin@demo.mx', 'Administrador2026');
    const confirm = await client.get('/oidc/session/end');
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('id="op.logoutForm"');
    expect(confirm.body).toContain('<script src="/oidc/submit-logout.js"></script>');
    expect(confirm.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/i);
    expect(String(confirm.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it("keeps its signing keys in the database: a second provider on the same data accepts the first one's tokens", async () => {
    const tokens = await browser(ctx).completeSignIn('admin@demo.mx', 'Administrador2026');
    const { createEmbeddedIdp } = await import('./idp');
    const again = await createEmbeddedIdp({
      db: ctx.db,
      issuer: 'https://idp.test/oidc',
      publicUrl: TEST_PUBLIC_URL,
      clientId: 'portal-web',
      audience: TEST_AUDIENCE,
      clock: ctx.clock,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined } as never,
    });
    const { jwtVerify } = await import('jose');
    const verified = await jwtVerify(tokens.access_token, again.keys, { audience: TEST_AUDIENCE });
    expect(verified.payload.email).toBe('admin@demo.mx');
  });
});

describe.each(ENGINES)('sign-in lockout and rate limits under pressure (%s)', (engine) => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  // The count's atomicity under sessions that write side by side is PostgreSQL's to prove: PGlite runs one transaction
  // at a time, and the order (count, then verify) is the same code on both. On PGlite only when PostgreSQL is not there.
  it.skipIf(engine === 'pglite' && ENGINES.includes('postgres'))(
    'counts 100 concurrent guesses before verifying them: once five wrong ones are counted, the right one never signs in',
    async () => {
      // Limits out of the way: this is about the lockout itself.
      const unlimited = { limit: 1_000, windowMinutes: 15 };
      ctx = await createTestApp(engine, {
        embeddedIdp: { print: () => undefined, rateLimits: { signInPerAccount: unlimited, signInPerAddress: unlimited } },
      });
      // What is counted here is the guesses, not the hashing: the account's hash at a low cost (the stored hash names
      // its own), so 100 verifications take a second instead of 100 scrypts of 128 MB on a 2-core machine.
      const cheap = await lowCostHash('Cartera2026');
      expect(await verifyPassword('Cartera2026', cheap)).toBe(true);
      await ctx.system((db) => db.update(users).set({ passwordHash: cheap }).where(eq(users.email, 'cartera@demo.mx')));
      const client = browser(ctx);
      const { interaction } = await client.startAuthorization();
      scrypts.count = 0;
      const guesses = Array.from({ length: 100 }, (_, index) => (index === 99 ? 'Cartera2026' : `mala-${index}`));
      const answers = await Promise.all(
        guesses.map((password) => client.post(`${interaction}/login`, { email: 'cartera@demo.mx', password })),
      );

      // No answer is a finished sign-in (a 303 back to the client): the wrong guesses all get the same refusal, and
      // the right one, which came after five were counted, only learns that the account is locked.
      expect(answers.map((answer) => answer.statusCode)).toEqual(guesses.map(() => 401));
      expect(new Set(answers.slice(0, 99).map((answer) => alertOf(answer.body)))).toEqual(new Set([INVALID]));
      expect(alertOf(answers[99]!.body)).toMatch(/^La cuenta está bloqueada por demasiados intentos fallidos/);
      // Every path took one scrypt (timing reveals nothing), though only five were checked against the account.
      expect(scrypts.count).toBe(100);
      const [user] = await ctx.system((db) => db.select().from(users).where(eq(users.email, 'cartera@demo.mx')));
      expect(user!.failedAttempts).toBe(MAX_FAILED_ATTEMPTS);
      expect(user!.lockedUntil!.getTime()).toBe(ctx.clock.now().getTime() + LOCK_MINUTES * 60_000);
    },
  );

  it('answers 429 past the per-address and per-account sign-in limits, before any password is checked', async () => {
    ctx = await createTestApp(engine, {
      embeddedIdp: {
        print: () => undefined,
        rateLimits: { signInPerAddress: { limit: 3, windowMinutes: 15 }, signInPerAccount: { limit: 2, windowMinutes: 15 } },
      },
    });
    const client = browser(ctx);
    const { interaction } = await client.startAuthorization();
    // One address trying three different accounts, then a fourth: refused, whoever it names.
    for (const email of ['a@demo.mx', 'b@demo.mx', 'c@demo.mx']) {
      expect((await client.post(`${interaction}/login`, { email, password: 'x' }, '203.0.113.7')).statusCode).toBe(401);
    }
    scrypts.count = 0;
    const blocked = await client.post(`${interaction}/login`, { email: 'admin@demo.mx', password: 'Administrador2026' }, '203.0.113.7');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe(String(15 * 60));
    expect(alertOf(blocked.body)).toBe('Demasiados intentos. Espera 15 minutos e inténtalo de nuevo.');
    expect(blocked.body).toContain('<html lang="es-MX">');
    expect(scrypts.count).toBe(0);

    // One account tried from many addresses: the third attempt is refused, even with the right password.
    for (const address of ['198.51.100.1', '198.51.100.2']) {
      expect((await client.post(`${interaction}/login`, { email: 'cartera@demo.mx', password: 'mala' }, address)).statusCode).toBe(401);
    }
    const third = await client.post(`${interaction}/login`, { email: 'Cartera@Demo.mx', password: 'Cartera2026' }, '198.51.100.3');
    expect(third.statusCode).toBe(429);

    // A new window lets both through again.
    ctx.clock.advance(15 * 60_000);
    const { code } = await client.loginForCode('cartera@demo.mx', 'Cartera2026');
    expect(code).toBeTruthy();
  });

  it('counts only attempts that did not sign in: a success gives its hit back', async () => {
    ctx = await createTestApp(engine, {
      embeddedIdp: {
        print: () => undefined,
        rateLimits: { signInPerAddress: { limit: 2, windowMinutes: 15 }, signInPerAccount: { limit: 2, windowMinutes: 15 } },
      },
    });
    // Three sign-ins of one account from one address, past both limits of two: each one succeeds.
    for (let signIn = 0; signIn < 3; signIn += 1) await browser(ctx).completeSignIn('admin@demo.mx', 'Administrador2026');
  });

  it('sends at most three reset mails per account per hour with the same answer, and 429 past the per-address limit', async () => {
    ctx = await createTestApp(engine, { embeddedIdp: { print: () => undefined } });
    const client = browser(ctx);
    const answers = [];
    for (let request = 0; request < 10; request += 1) {
      answers.push(await client.post('/oidc/forgot-password', { email: 'originacion@demo.mx' }, `198.51.100.${request}`));
    }
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(await ctx.system((db) => db.select().from(outbox))).toHaveLength(3);
    ctx.clock.advance(60 * 60_000);
    await client.post('/oidc/forgot-password', { email: 'originacion@demo.mx' }, '198.51.100.99');
    expect(await ctx.system((db) => db.select().from(outbox))).toHaveLength(4);

    // One address asking for many accounts: the eleventh request in the hour is refused.
    for (let request = 0; request < 10; request += 1) {
      expect((await client.post('/oidc/forgot-password', { email: `persona${request}@demo.mx` }, '203.0.113.9')).statusCode).toBe(200);
    }
    const refused = await client.post('/oidc/forgot-password', { email: 'admin@demo.mx' }, '203.0.113.9');
    expect(refused.statusCode).toBe(429);
    expect(alertOf(refused.body)).toBe('Demasiados intentos. Espera 60 minutos e inténtalo de nuevo.');
    expect(await ctx.system((db) => db.select().from(outbox))).toHaveLength(4);
  });

  it('builds its discovery URLs from the request, not from X-Forwarded-Host, unless TRUST_PROXY is on', async () => {
    const discovery = async (trustProxy: boolean) => {
      ctx = await createTestApp(engine, { embeddedIdp: { print: () => undefined }, trustProxy });
      const response = await ctx.app.inject({
        url: '/oidc/.well-known/openid-configuration',
        headers: { 'x-forwarded-host': 'atacante.example', 'x-forwarded-proto': 'https' },
      });
      await ctx.close();
      ctx = undefined;
      return response.body;
    };
    expect(await discovery(false)).not.toContain('atacante.example');
    expect(await discovery(true)).toContain('https://atacante.example/oidc/auth');
  });
});
