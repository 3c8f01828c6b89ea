import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, TEST_AUDIENCE, TEST_PUBLIC_URL, createTestApp, type TestContext } from '../test/test-app';
import { injectTransport, oidcBrowser } from '../test/oidc-client';
import { profiles, users } from '../db/schema/users';

/**
 * A token ends with its sign-in (issue 44): after sign-out is confirmed at the provider, after its code is replayed,
 * after its user is deactivated or moved to another profile, the API refuses it at once, not when it expires. The
 * check is in the database (the grant, the user's tokens_valid_after), so every API process sees it.
 */
describe.each(ENGINES)('tokens end with their session (%s)', (engine) => {
  let ctx: TestContext;
  const browser = () => oidcBrowser(injectTransport(ctx.app), { publicUrl: TEST_PUBLIC_URL, audience: TEST_AUDIENCE });
  const reads = async (token: string) =>
    (await ctx.app.inject({ url: '/api/credits?pageSize=1', headers: { authorization: `Bearer ${token}` } })).statusCode;
  const userId = async (email: string) =>
    (await ctx.system((tx) => tx.select({ id: users.id }).from(users).where(eq(users.email, email))))[0]!.id;

  beforeAll(async () => {
    ctx = await createTestApp(engine, { embeddedIdp: { print: () => undefined }, snapshot: true });
  });
  afterAll(() => ctx.close());
  beforeEach(() => ctx.reset());

  it('refuses the access token once sign-out is confirmed at the provider', async () => {
    const client = browser();
    const tokens = await client.completeSignIn('admin@demo.mx', 'Administrador2026');
    expect(await reads(tokens.access_token)).toBe(200);
    // Who am I, twice: the second, its sign-in recorded within the minute, is answered without a transaction
    // (answersWithoutDatabase), and after sign-out it is refused all the same (below).
    for (let time = 0; time < 2; time++) {
      const lookup = await ctx.app.inject({
        url: '/api/core/user/by_email/admin%40demo.mx',
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(lookup.statusCode).toBe(200);
    }

    const confirm = await client.get(`/oidc/session/end?client_id=portal-web`);
    expect(confirm.statusCode).toBe(200);
    const action =
      /<form[^>]*id="op.logoutForm"[^>]*action="([^"]+)"/.exec(confirm.body)?.[1] ??
      /action="([^"]+)"[^>]*id="op.logoutForm"/.exec(confirm.body)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.body)?.[1];
    expect(action && xsrf, confirm.body).toBeTruthy();
    const ended = await client.post(client.pathOf(action!), { xsrf: xsrf!, logout: 'yes' });
    expect([200, 303]).toContain(ended.statusCode);

    const after = await ctx.app.inject({ url: '/api/credits?pageSize=1', headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ title: 'Sesión terminada' });
    // A signed-in-only route refuses it too (the user lookup the sign-in runs).
    const lookup = await ctx.app.inject({
      url: '/api/core/user/by_email/admin%40demo.mx',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(lookup.statusCode).toBe(401);
  });

  it('refuses the first token when its code is exchanged a second time', async () => {
    const client = browser();
    const { code, verifier } = await client.loginForCode('cartera@demo.mx', 'Cartera2026');
    const first = await client.exchangeCode(code, verifier);
    expect(first.statusCode).toBe(200);
    const token = first.json<{ access_token: string }>().access_token;
    expect(await reads(token)).toBe(200);
    const replay = await client.exchangeCode(code, verifier);
    expect(replay.statusCode).toBe(400);
    expect(await reads(token)).toBe(401);
  });

  it('refuses the tokens of a user deactivated, even once reactivated, and of a user moved to another profile', async () => {
    const tokens = await browser().completeSignIn('cartera@demo.mx', 'Cartera2026');
    const other = await browser().completeSignIn('mesa@demo.mx', 'MesaControl2026');
    const admin = await browser().completeSignIn('admin@demo.mx', 'Administrador2026');
    const headers = { authorization: `Bearer ${admin.access_token}` };
    expect(await reads(tokens.access_token)).toBe(200);

    const cartera = await userId('cartera@demo.mx');
    const detail = (await ctx.app.inject({ url: `/api/users/${cartera}`, headers })).json<{ version: number }>();
    const off = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/${cartera}/status`,
      headers,
      payload: { active: false, version: detail.version },
    });
    expect(off.statusCode, off.body).toBe(200);
    const on = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/${cartera}/status`,
      headers,
      payload: { active: true, version: off.json<{ version: number }>().version },
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(await reads(tokens.access_token)).toBe(401);
    // A fresh sign-in works again.
    expect(await reads((await browser().completeSignIn('cartera@demo.mx', 'Cartera2026')).access_token)).toBe(200);

    const mesa = await userId('mesa@demo.mx');
    const mesaDetail = (await ctx.app.inject({ url: `/api/users/${mesa}`, headers })).json<{
      version: number;
      email: string;
      name: string;
      companyId: string;
      profileId: string;
    }>();
    const [carteraProfile] = await ctx.system((tx) => tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.name, 'Cartera')));
    expect(await reads(other.access_token)).toBe(200);
    const moved = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${mesa}`,
      headers,
      payload: { ...mesaDetail, name: mesaDetail.name ?? 'Mesa', active: true, profileId: carteraProfile!.id, version: mesaDetail.version },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await reads(other.access_token)).toBe(401);
    // The administrator who made both changes is still signed in.
    expect(await reads(admin.access_token)).toBe(200);
  });
});
