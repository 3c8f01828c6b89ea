import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { permissionListSchema, userLookupRecordSchema, ALL_PERMISSION_PATHS } from '@portal/contract';
import { ENGINES, createTestApp, signToken, type TestContext } from '../../test/test-app';
import { users } from '../../db/schema/users';

describe.each(ENGINES)('GET /api/core/user/by_email/{email} on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(engine);
  });
  afterAll(() => ctx.close());

  const lookup = async (email: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url: `/api/core/user/by_email/${encodeURIComponent(email)}`, headers });

  it('answers the seed shape: data[0] is a JSON string whose permissions are a JSON string of paths', async () => {
    const response = await lookup('admin@demo.mx', await ctx.as('admin@demo.mx'));
    expect(response.statusCode).toBe(200);
    const body = response.json<{ data: string[] }>();
    expect(body.data).toHaveLength(1);
    const record = userLookupRecordSchema.parse(JSON.parse(body.data[0]!));
    expect(record).toMatchObject({ email: 'admin@demo.mx', keyuser: 'Demo Administrador', profile: 'SA' });
    const permissions = permissionListSchema.parse(JSON.parse(record.permissions));
    expect(permissions.map((permission) => permission.path)).toEqual(ALL_PERMISSION_PATHS);
  });

  it('records the sign-in time of the user looking themselves up', async () => {
    await lookup('Cartera@Demo.MX', await ctx.as('cartera@demo.mx'));
    const [row] = await ctx.system((db) => db.select().from(users).where(eq(users.email, 'cartera@demo.mx')));
    expect(row!.lastSignInAt?.toISOString()).toBe(ctx.clock.now().toISOString());
  });

  it('keeps the sign-in to the minute: a lookup within it writes nothing, one past it records the new time', async () => {
    const signedInAt = async () =>
      (await ctx.system((db) => db.select().from(users).where(eq(users.email, 'originacion@demo.mx'))))[0]!.lastSignInAt?.toISOString();
    const headers = await ctx.as('originacion@demo.mx');
    await lookup('originacion@demo.mx', headers);
    const first = ctx.clock.now().toISOString();
    expect(await signedInAt()).toBe(first);
    ctx.clock.advance(59_000);
    await lookup('originacion@demo.mx', headers);
    expect(await signedInAt()).toBe(first);
    ctx.clock.advance(2_000);
    await lookup('originacion@demo.mx', headers);
    expect(await signedInAt()).toBe(ctx.clock.now().toISOString());
  });

  it('gives an empty permission list to a profile without permissions', async () => {
    const response = await lookup('sinpermisos@demo.mx', await ctx.as('sinpermisos@demo.mx'));
    expect(response.statusCode).toBe(200);
    const record = userLookupRecordSchema.parse(JSON.parse(response.json<{ data: string[] }>().data[0]!));
    expect(JSON.parse(record.permissions)).toEqual([]);
  });

  it('answers 401 as Problem JSON without a token, with a foreign token, an expired one or a non-access token', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer not-a-jwt' },
      { authorization: `Bearer ${await signToken('admin@demo.mx', { audience: 'https://other.test/api' })}` },
      { authorization: `Bearer ${await signToken('admin@demo.mx', { issuer: 'https://evil.test' })}` },
      { authorization: `Bearer ${await signToken('admin@demo.mx', { expiresIn: '-1m' })}` },
      { authorization: `Bearer ${await signToken('admin@demo.mx', { typ: 'JWT' })}` },
    ];
    for (const headers of attempts) {
      const response = await lookup('admin@demo.mx', headers);
      expect(response.statusCode).toBe(401);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toMatchObject({ status: 401, title: 'Sesión no válida' });
    }
  });

  it('refuses 403 when a user without the user-list permission asks for someone else', async () => {
    const response = await lookup('admin@demo.mx', await ctx.as('cartera@demo.mx'));
    expect(response.statusCode).toBe(403);
    expect(response.json().detail).toBe('Solo puedes consultar tu propio usuario.');
  });

  it('lets a holder of /user/user-list look up another user', async () => {
    const response = await lookup('cartera@demo.mx', await ctx.as('admin@demo.mx'));
    expect(response.statusCode).toBe(200);
  });

  it('answers 404 for a signed-in identity that is not registered in the portal', async () => {
    const response = await lookup('nadie@demo.mx', await ctx.as('nadie@demo.mx'));
    expect(response.statusCode).toBe(404);
    expect(response.json().detail).toBe('El usuario no está registrado en el portal.');
  });

  it('answers 403 for a deactivated user, and records no sign-in for it', async () => {
    await ctx.system((db) => db.update(users).set({ active: false, lastSignInAt: null }).where(eq(users.email, 'originacion@demo.mx')));
    const response = await lookup('originacion@demo.mx', await ctx.as('originacion@demo.mx'));
    expect(response.statusCode).toBe(403);
    expect(response.json().title).toBe('Usuario inactivo');
    const [row] = await ctx.system((db) =>
      db.select({ lastSignInAt: users.lastSignInAt }).from(users).where(eq(users.email, 'originacion@demo.mx')),
    );
    expect(row!.lastSignInAt).toBeNull();
  });
});

/**
 * One's own lookup, its sign-in recorded by this process within the minute, is answered from the request's principal
 * with no transaction (answersWithoutDatabase): shown by closing the database under the app, so any statement would
 * fail. The principal memory is set longer than the minute here, so that the minute alone decides.
 */
describe.each(ENGINES)('GET /api/core/user/by_email/{email} without the database on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(engine, { principalTtlMs: 10 * 60_000 });
  });
  afterAll(() => ctx.close());

  const lookup = async (email: string, headers: Record<string, string>) =>
    ctx.app.inject({ method: 'GET', url: `/api/core/user/by_email/${encodeURIComponent(email)}`, headers });
  const recordOf = (response: { json: <T>() => T }) =>
    userLookupRecordSchema.parse(JSON.parse(response.json<{ data: string[] }>().data[0]!));

  it('answers each user their own record only, refuses another company’s, and needs the database again past the minute', async () => {
    const cartera = await ctx.as('cartera@demo.mx');
    const plus = await ctx.as('plus@demo.mx');
    const companyOf = async (email: string) =>
      (await ctx.system((db) => db.select({ companyId: users.companyId }).from(users).where(eq(users.email, email))))[0]!.companyId;
    const demoCompany = await companyOf('cartera@demo.mx');
    const plusCompany = await companyOf('plus@demo.mx');
    expect(demoCompany).not.toBe(plusCompany);
    // Each signs in: the first lookup records the sign-in, in a transaction.
    expect((await lookup('cartera@demo.mx', cartera)).statusCode).toBe(200);
    expect((await lookup('plus@demo.mx', plus)).statusCode).toBe(200);
    // Operación may look users up, within its own company's rows: Financiera Demo's user is not found there.
    expect((await lookup('cartera@demo.mx', plus)).statusCode).toBe(404);

    await ctx.closeDatabase();
    const own = await lookup('cartera@demo.mx', cartera);
    expect(own.statusCode).toBe(200);
    expect(recordOf(own)).toMatchObject({ email: 'cartera@demo.mx', companyid: demoCompany, profile: 'CARTERA' });
    const other = await lookup('plus@demo.mx', plus);
    expect(other.statusCode).toBe(200);
    expect(recordOf(other)).toMatchObject({ email: 'plus@demo.mx', companyid: plusCompany });
    // Another user's record, of another company, is never answered from memory: that lookup needs its transaction.
    expect((await lookup('cartera@demo.mx', plus)).statusCode).toBe(503);
    expect((await lookup('plus@demo.mx', cartera)).statusCode).toBe(503);

    // Past the minute the sign-in is due again: the lookup opens its transaction, which the closed database fails.
    ctx.clock.advance(60_000);
    expect((await lookup('cartera@demo.mx', cartera)).statusCode).toBe(503);
  });
});
