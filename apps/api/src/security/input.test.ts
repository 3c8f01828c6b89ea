import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, createTestApp, type TestContext } from '../test/test-app';
import { seedDemoPortfolio } from '../seed/seed-portfolio';

/** Input PostgreSQL cannot take, and malformed forms, are a clear 400 naming the field, never a 500. */
describe.each(ENGINES)('hostile input (%s)', (engine) => {
  let ctx: TestContext;
  let admin: { authorization: string };
  beforeAll(async () => {
    ctx = await createTestApp(engine);
    // A few requests to search among.
    await seedDemoPortfolio(ctx.db, ctx.clock.now(), 5);
    admin = await ctx.as('admin@demo.mx');
  });
  afterAll(() => ctx.close());

  it('refuses a NUL character in a search or a name with the field named', async () => {
    for (const url of ['/api/users?q=a%00b', '/api/agreements?q=%00', '/api/requests?q=%00', '/api/users?q=x&status=active%00']) {
      const response = await ctx.app.inject({ url, headers: admin });
      expect(response.statusCode, url).toBe(400);
      expect(response.json<{ errors: { field: string; message: string }[] }>().errors[0]!.message).toContain('NUL');
    }
    const named = await ctx.app.inject({
      method: 'POST',
      url: '/api/profiles',
      headers: admin,
      payload: { name: 'Perfil\u0000raro', roleCode: 'X', permissions: [] },
    });
    expect(named.statusCode).toBe(400);
    expect(named.json()).toMatchObject({ errors: [{ field: 'name' }] });
  });

  it('refuses a lone surrogate instead of storing U+FFFD silently', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/profiles',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: '{"name":"Perfil \\ud800 roto","roleCode":"X","permissions":[]}',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: [{ field: 'name', message: expect.stringContaining('Unicode') }] });
  });

  it('answers a malformed multipart body with 400, not 500', async () => {
    const body = '--limite\r\nContent-Disposition: form-data; name="data"\r\n\r\n{"curp":';
    for (const url of ['/api/requests', '/api/agreements/layout-test']) {
      const response = await ctx.app.inject({
        method: 'POST',
        url,
        headers: { ...admin, 'content-type': 'multipart/form-data; boundary=limite' },
        payload: body,
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
  });

  it('answers a body nested thousands of levels deep with 400 naming the limit, not 500', async () => {
    const nested = `{"items":${'['.repeat(3_000)}${']'.repeat(3_000)}}`;
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/profiles',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: nested,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ errors: [{ field: 'items.0.0', message: expect.stringContaining('más de 32 niveles') }] });
  });

  it('answers a malformed multipart document upload with 400, not 500', async () => {
    const [{ id }] = (await ctx.app.inject({ url: '/api/requests?pageSize=1', headers: admin })).json<{ items: [{ id: string }] }>().items;
    for (const contentType of ['multipart/form-data', 'multipart/form-data; boundary=limite']) {
      const response = await ctx.app.inject({
        method: 'PUT',
        url: `/api/requests/${id}/documents/ine`,
        headers: { ...admin, 'content-type': contentType },
        payload: '--limite\r\nContent-Disposition: form-data; name="file"; filename="ine.pdf"\r\n\r\n%PDF-1.4',
      });
      expect(response.statusCode, `${contentType}: ${response.body}`).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
  });

  it('takes %, _ and \\ literally in the Capturas search', async () => {
    const all = await ctx.app.inject({ url: '/api/requests?pageSize=1', headers: admin });
    expect(all.json<{ total: number }>().total).toBeGreaterThan(0);
    for (const q of ['%', '_', '\\']) {
      const response = await ctx.app.inject({ url: `/api/requests?q=${encodeURIComponent(q)}`, headers: admin });
      expect(response.statusCode).toBe(200);
      expect(response.json<{ total: number }>().total, q).toBe(0);
    }
  });
});
