import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { eq } from 'drizzle-orm';
import { outbox } from '../../db/schema/audit';
import { companies } from '../../db/schema/users';

describe.each(BEHAVIOUR_ENGINES)('GET /api/outbox (%s)', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(engine);
    const [company] = await ctx.system((db) => db.select().from(companies).where(eq(companies.code, 'DEMO')));
    await ctx.system((db) =>
      db.insert(outbox).values(
        Array.from({ length: 3 }, (_, index) => ({
          companyId: company!.id,
          toEmail: `persona${index}@demo.mx`,
          subject: 'Restablece tu contraseña del portal',
          body: 'enlace',
          link: `https://portal.test/oidc/reset-password?token=t${index}`,
          createdAt: new Date(Date.UTC(2026, 10, 20, 10, index)),
        })),
      ),
    );
  });
  afterAll(() => ctx.close());

  it('lets whoever manages users read the messages, newest first and paged', async () => {
    const response = await ctx.app.inject({ url: '/api/outbox?page=1&pageSize=2', headers: await ctx.as('admin@demo.mx') });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ items: { toEmail: string }[]; total: number }>();
    expect(body.total).toBe(3);
    expect(body.items.map((item) => item.toEmail)).toEqual(['persona2@demo.mx', 'persona1@demo.mx']);
  });

  it('refuses users who may not issue access links (listing users is not enough) and anonymous callers', async () => {
    const denied = await ctx.app.inject({ url: '/api/outbox', headers: await ctx.as('cartera@demo.mx') });
    expect(denied.statusCode).toBe(403);
    // Operación lists users but may not create them nor send access: the links would open its colleagues' accounts.
    const listsOnly = await ctx.app.inject({ url: '/api/outbox', headers: await ctx.as('plus@demo.mx') });
    expect(listsOnly.statusCode).toBe(403);
    expect(listsOnly.json()).toMatchObject({ detail: expect.stringContaining('/user/user-new') });
    expect(denied.headers['content-type']).toContain('application/problem+json');
    expect((await ctx.app.inject({ url: '/api/outbox' })).statusCode).toBe(401);
  });

  it('finds messages by addressee or subject and by delivery status, and refuses an unknown status in Spanish', async () => {
    const headers = await ctx.as('admin@demo.mx');
    const byAddress = await ctx.app.inject({ url: '/api/outbox?q=PERSONA1%40', headers });
    expect(byAddress.json()).toMatchObject({ total: 1, items: [{ toEmail: 'persona1@demo.mx', status: 'unsent', attempts: 0 }] });
    expect((await ctx.app.inject({ url: '/api/outbox?q=restablece', headers })).json()).toMatchObject({ total: 3 });
    expect((await ctx.app.inject({ url: '/api/outbox?status=unsent', headers })).json()).toMatchObject({ total: 3 });
    expect((await ctx.app.inject({ url: '/api/outbox?status=sent', headers })).json()).toMatchObject({ total: 0 });
    const bad = await ctx.app.inject({ url: '/api/outbox?status=perdido', headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errors: [{ field: 'status', message: 'Estado no válido.' }] });
  });

  it('rejects a page size over 100 with a Spanish field error', async () => {
    const response = await ctx.app.inject({ url: '/api/outbox?pageSize=500', headers: await ctx.as('admin@demo.mx') });
    expect(response.statusCode).toBe(400);
  });
});
