import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, TEST_AUDIENCE, TEST_PUBLIC_URL, createTestApp, type TestContext } from '../test/test-app';
import { outbox, users } from '../db/schema';
import { verifyPassword } from './passwords';
import { API_SCOPE, LOCK_MINUTES, MAX_FAILED_ATTEMPTS } from './idp';

/** A minimal cookie jar over `inject`, enough to walk the provider's redirects like a browser. */
function browser(ctx: TestContext) {
  const jar = new Map<string, string>();
  const remember = (setCookie: string | string[] | undefined) => {
    for (const line of [setCookie ?? []].flat()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!.trim(), value.join('='));
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  return {
    async get(url: string) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: { cookie: cookie() } });
      remember(response.headers['set-cookie']);
      return response;
    },
    async post(url: string, form: Record<string, string>) {
      const response = await ctx.app.inject({
        method: 'POST',
        url,
        headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(form).toString(),
      });
      remember(response.headers['set-cookie']);
      return response;
    },
  };
}

const pathOf = (location: string) => {
  const url = new URL(location, TEST_PUBLIC_URL);
  return `${url.pathname}${url.search}`;
};

/** Authorization code + PKCE up to the login page; answers the interaction path and what to finish the flow with. */
async function startAuthorization(client: ReturnType<typeof browser>) {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({
    client_id: 'portal-web',
    response_type: 'code',
    scope: `openid email profile ${API_SCOPE}`,
    redirect_uri: `${TEST_PUBLIC_URL}/auth-callback.html`,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'estado-1',
    resource: TEST_AUDIENCE,
  });
  const authorize = await client.get(`/oidc/auth?${query}`);
  expect(authorize.statusCode).toBe(303);
  const interaction = pathOf(authorize.headers.location as string);
  expect(interaction).toMatch(/^\/oidc\/interaction\/[\w-]+$/);
  return { interaction, verifier };
}

/** Signs in on the provider's page and follows its redirects back to the client's callback; answers the code. */
async function loginForCode(client: ReturnType<typeof browser>, email: string, password: string) {
  const { interaction, verifier } = await startAuthorization(client);
  let response = await client.post(`${interaction}/login`, { email, password });
  for (let hops = 0; response.statusCode === 303 && hops < 6; hops += 1) {
    const location = response.headers.location as string;
    if (location.startsWith(`${TEST_PUBLIC_URL}/auth-callback.html`)) break;
    response = await client.get(pathOf(location));
  }
  const callback = new URL(response.headers.location as string);
  expect(callback.searchParams.get('state')).toBe('estado-1');
  return { code: callback.searchParams.get('code')!, verifier };
}

/** The token request of a public client; without `verifier` it omits the PKCE proof. */
function exchangeCode(ctx: TestContext, code: string, verifier?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: 'portal-web',
      code,
      ...(verifier ? { code_verifier: verifier } : {}),
      redirect_uri: `${TEST_PUBLIC_URL}/auth-callback.html`,
    }).toString(),
  });
}

async function completeSignIn(ctx: TestContext, client: ReturnType<typeof browser>, email: string, password: string) {
  const { code, verifier } = await loginForCode(client, email, password);
  const token = await exchangeCode(ctx, code, verifier);
  expect(token.statusCode).toBe(200);
  return token.json<{ access_token: string; id_token: string; token_type: string }>();
}

describe.each(ENGINES)('embedded OIDC provider (%s)', (engine) => {
  let ctx: TestContext;
  let printed: string[];
  beforeEach(async () => {
    printed = [];
    ctx = await createTestApp(engine, { embeddedIdp: { print: (line) => printed.push(line) } });
  });
  afterEach(() => ctx.close());

  it('publishes its discovery document with PKCE and a JWKS without private parts', async () => {
    const discovery = (await ctx.app.inject({ url: '/oidc/.well-known/openid-configuration' })).json<Record<string, unknown>>();
    expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
    const jwks = (await ctx.app.inject({ url: '/oidc/jwks' })).json<{ keys: Record<string, unknown>[] }>();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('signs a user in with code + PKCE and issues a JWT access token the API accepts', async () => {
    const client = browser(ctx);
    const tokens = await completeSignIn(ctx, client, 'Admin@Demo.mx', 'Administrador2026');
    const [header, payload] = tokens.access_token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header.typ).toBe('at+jwt');
    expect(payload).toMatchObject({ aud: TEST_AUDIENCE, email: 'admin@demo.mx', scope: API_SCOPE });
    const lookup = await ctx.app.inject({
      url: '/api/core/user/by_email/admin%40demo.mx',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(lookup.statusCode).toBe(200);
  });

  it('refuses a token request without the PKCE verifier', async () => {
    const { code } = await loginForCode(browser(ctx), 'admin@demo.mx', 'Administrador2026');
    const token = await exchangeCode(ctx, code);
    expect(token.statusCode).toBe(400);
    expect(token.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('shows a Spanish login page and locks the account for 15 minutes after five wrong passwords', async () => {
    const client = browser(ctx);
    const { interaction } = await startAuthorization(client);
    const page = await client.get(interaction);
    expect(page.body).toContain('<html lang="es-MX">');
    expect(page.body).toContain('Correo electrónico');

    for (let attempt = 1; attempt < MAX_FAILED_ATTEMPTS; attempt += 1) {
      const wrong = await client.post(`${interaction}/login`, { email: 'cartera@demo.mx', password: `mala-${attempt}` });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.body).toContain('Correo o contraseña incorrectos.');
      expect(wrong.body).not.toContain(`mala-${attempt}`);
    }
    const fifth = await client.post(`${interaction}/login`, { email: 'cartera@demo.mx', password: 'mala-5' });
    expect(fifth.body).toContain('La cuenta está bloqueada por demasiados intentos fallidos. Intenta de nuevo en 15 minutos');
    // Even the right password is refused while locked…
    const locked = await client.post(`${interaction}/login`, { email: 'cartera@demo.mx', password: 'Cartera2026' });
    expect(locked.statusCode).toBe(401);
    expect(locked.body).toContain('bloqueada');
    // …and accepted once the 15 minutes are over.
    ctx.clock.advance(LOCK_MINUTES * 60_000 + 1000);
    const tokens = await completeSignIn(ctx, browser(ctx), 'cartera@demo.mx', 'Cartera2026');
    expect(tokens.token_type).toBe('Bearer');
  });

  it('answers an unknown e-mail exactly like a wrong password', async () => {
    const client = browser(ctx);
    const { interaction } = await startAuthorization(client);
    const unknown = await client.post(`${interaction}/login`, { email: 'nadie@demo.mx', password: 'Cualquiera2026' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toContain('Correo o contraseña incorrectos.');
    expect(unknown.body).not.toContain('quedan');
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
    const path = pathOf(link);

    expect((await client.get(path)).body).toContain('Confirma la nueva contraseña');
    const mismatch = await client.post('/oidc/reset-password', {
      token: new URL(link).searchParams.get('token')!,
      password: 'NuevaClave2027',
      confirmation: 'OtraClave2027',
    });
    expect(mismatch.body).toContain('Las contraseñas no coinciden.');
    const weak = await client.post('/oidc/reset-password', { token: new URL(link).searchParams.get('token')!, password: 'corta', confirmation: 'corta' });
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
    await completeSignIn(ctx, browser(ctx), 'originacion@demo.mx', 'NuevaClave2027');
  });

  it('keeps its signing keys in the database: a second provider on the same data accepts the first one\'s tokens', async () => {
    const tokens = await completeSignIn(ctx, browser(ctx), 'admin@demo.mx', 'Administrador2026');
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
