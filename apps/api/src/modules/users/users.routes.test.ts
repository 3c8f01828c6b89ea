import ExcelJS from 'exceljs';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIST_COUNT_CAP, SEARCH_COUNT_CAP } from '@portal/contract';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { auditEvents, outbox } from '../../db/schema/audit';
import { companies, profiles, users } from '../../db/schema/users';

type Json = Record<string, unknown>;

describe.each(BEHAVIOUR_ENGINES)('Usuarios API (%s)', (engine) => {
  let ctx: TestContext;
  let admin: { authorization: string };
  let ids: { cartera: string; originacion: string; admin: string; company: string };

  beforeAll(async () => {
    ctx = await createTestApp(engine, { snapshot: true });
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await ctx.reset();
    admin = await ctx.as('admin@demo.mx');
    const byName = async (name: string) => (await ctx.system((db) => db.select().from(profiles).where(eq(profiles.name, name))))[0]!.id;
    ids = {
      cartera: await byName('Cartera'),
      originacion: await byName('Originación'),
      admin: await byName('Administrador'),
      company: (await ctx.system((db) => db.select().from(companies)))[0]!.id,
    };
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Json, headers = admin) =>
    ctx.app.inject({ method, url, payload, headers });

  const newUser = (overrides: Json = {}) => ({
    email: 'Nueva.Persona@Demo.mx',
    name: 'Nueva Persona',
    profileId: ids.cartera,
    companyId: ids.company,
    active: true,
    ...overrides,
  });

  async function seedMany(total: number) {
    const rows = Array.from({ length: total }, (_, index) => ({
      email: `persona${String(index).padStart(3, '0')}@demo.mx`,
      name: index % 2 ? `Zoe ${index}` : `Ana ${index}`,
      profileId: index % 3 === 0 ? ids.originacion : ids.cartera,
      companyId: ids.company,
      active: index % 5 !== 0,
    }));
    await ctx.system((db) => db.insert(users).values(rows));
  }

  it('pages a search sorted by a joined name (profile) and by its own column alike (decision 0039)', async () => {
    await seedMany(60);
    // "zoe" matches the 30 odd persons; their profile is Originación for multiples of three, Cartera otherwise.
    const zoes = Array.from({ length: 60 }, (_, index) => index).filter((index) => index % 2 === 1);
    const email = (index: number) => `persona${String(index).padStart(3, '0')}@demo.mx`;
    const profileOf = (index: number) => (index % 3 === 0 ? 'Originación' : 'Cartera');
    const byProfileThenId = await call('GET', '/api/users?q=zoe&sort=-profile&pageSize=10&page=2');
    expect(byProfileThenId.statusCode).toBe(200);
    const profilePage = byProfileThenId.json<{ items: { email: string; profile: string }[]; total: number }>();
    expect(profilePage.total).toBe(30);
    // Descending profile name: the ten Originación persons first, then the twenty Cartera.
    const profiles = zoes.map(profileOf).sort().reverse();
    expect(profilePage.items.map((item) => item.profile)).toEqual(profiles.slice(10, 20));
    const byName = (await call('GET', '/api/users?q=zoe&sort=email&pageSize=10&page=3')).json<{ items: { email: string }[] }>();
    expect(byName.items.map((item) => item.email)).toEqual(zoes.map(email).slice(20, 30));
  });

  it('pages, sorts and filters in SQL', async () => {
    await seedMany(60);
    const page = await call('GET', '/api/users?page=2&pageSize=10&sort=-email&status=active&profileId=' + ids.cartera);
    expect(page.statusCode).toBe(200);
    const body = page.json<{ items: { email: string; active: boolean; profile: string }[]; total: number }>();
    const expected = Array.from({ length: 60 }, (_, index) => index)
      .filter((index) => index % 3 !== 0 && index % 5 !== 0)
      .map((index) => `persona${String(index).padStart(3, '0')}@demo.mx`)
      .concat(['cartera@demo.mx'])
      .sort()
      .reverse();
    expect(body.total).toBe(expected.length);
    expect(body.items.map((item) => item.email)).toEqual(expected.slice(10, 20));
    expect(body.items.every((item) => item.active && item.profile === 'Cartera')).toBe(true);

    const search = (await call('GET', '/api/users?q=zoe%201&pageSize=100')).json<{ items: { name: string }[] }>();
    expect(search.items.length).toBeGreaterThan(0);
    expect(search.items.every((item) => item.name.startsWith('Zoe 1'))).toBe(true);
    // LIKE wildcards in the search are taken literally.
    expect((await call('GET', '/api/users?q=%25')).json<{ total: number }>().total).toBe(0);
    // Neither case nor accents matter, in the name or the e-mail, on either side (decision 0031).
    await ctx.system((db) =>
      db
        .insert(users)
        .values({ email: 'Maria.Nunez@demo.mx', name: 'María José Núñez', profileId: ids.cartera, companyId: ids.company, active: true }),
    );
    for (const q of ['maria jose nunez', 'MARÍA', 'núñez', 'maria.nunez@', 'NUÑEZ@DEMO']) {
      const found = (await call('GET', `/api/users?q=${encodeURIComponent(q)}`)).json<{ items: { email: string }[] }>();
      expect(
        found.items.map((item) => item.email),
        q,
      ).toEqual(['Maria.Nunez@demo.mx']);
    }
  });

  it('counts up to LIST_COUNT_CAP: exact below and at it, "more than" past it, a filtered set counted on its own', async () => {
    const page = async (query: string) =>
      (await call('GET', `/api/users?pageSize=25&${query}`)).json<{ items: unknown[]; total: number; totalCapped: boolean }>();
    const seeded = (await page('')).total;
    // Up to the cap exactly: the seed's users and enough new ones to make LIST_COUNT_CAP.
    await seedMany(LIST_COUNT_CAP - seeded);
    expect(await page('')).toMatchObject({ total: LIST_COUNT_CAP, totalCapped: false });
    // One more and the count stops: the cap, said to be a lower bound, and the page still full.
    await ctx.system((db) =>
      db.insert(users).values({ email: 'una.mas@demo.mx', name: 'Una Más', profileId: ids.cartera, companyId: ids.company, active: true }),
    );
    const past = await page('');
    expect(past).toMatchObject({ total: LIST_COUNT_CAP, totalCapped: true });
    expect(past.items).toHaveLength(25);
    // A page past the cap is served: the count bounds what is counted, not what can be read.
    expect((await page(`page=${LIST_COUNT_CAP / 25 + 1}`)).items).toHaveLength(1);
    // A search alone past SEARCH_COUNT_CAP says "more than" it without counting (decision 0035): the Zoe half of the
    // seeded users, 400-odd.
    expect(await page('q=zoe')).toMatchObject({ total: SEARCH_COUNT_CAP, totalCapped: true });
    // Another filter applies to the count, exactly: the Zoes of the Originación profile (odd and every third index).
    const zoesInOriginacion = Array.from({ length: LIST_COUNT_CAP - seeded }, (_, index) => index).filter(
      (index) => index % 2 === 1 && index % 3 === 0,
    ).length;
    expect(await page(`q=zoe&profileId=${ids.originacion}`)).toMatchObject({ total: zoesInOriginacion, totalCapped: false });
    // The page is written into the statement's text (db/fixed-select.ts): the last page the contract accepts is an
    // offset PostgreSQL takes, an empty page rather than an error; one past it is refused as a bad query.
    const last = await call('GET', `/api/users?pageSize=100&page=${Number.MAX_SAFE_INTEGER}`);
    expect(last.statusCode).toBe(200);
    expect(last.json<{ items: unknown[] }>().items).toEqual([]);
    expect((await call('GET', '/api/users?pageSize=100&page=99999999999999999999')).statusCode).toBe(400);
  });

  it('rejects a bad list query with Spanish field errors', async () => {
    const response = await call('GET', '/api/users?pageSize=500&sort=password');
    expect(response.statusCode).toBe(400);
    const fields = response.json<{ errors: { field: string }[] }>().errors.map((error) => error.field);
    expect(fields).toEqual(expect.arrayContaining(['pageSize', 'sort']));
  });

  it('creates a user, audits it and writes the set-password link to the outbox', async () => {
    const created = await call('POST', '/api/users', newUser());
    expect(created.statusCode).toBe(201);
    const user = created.json<{ id: string; email: string; version: number; history: { action: string; actorEmail: string }[] }>();
    expect(user.email).toBe('nueva.persona@demo.mx');
    expect(user.history).toEqual([expect.objectContaining({ action: 'user.create', actorEmail: 'admin@demo.mx' })]);
    const [message] = await ctx.system((db) => db.select().from(outbox).where(eq(outbox.toEmail, 'nueva.persona@demo.mx')));
    expect(message?.link).toMatch(/\/reset-password\?token=/);
  });

  it('Reenviar acceso: issues a fresh set-password link, answers it once to the administrator and audits it', async () => {
    const user = (await call('POST', '/api/users', newUser())).json<{ id: string }>();
    const response = await call('POST', `/api/users/${user.id}/access-link`);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<{ email: string; link: string; expiresAt: string }>();
    expect(answer).toMatchObject({ email: 'nueva.persona@demo.mx', link: expect.stringMatching(/\/reset-password\?token=/) });
    const messages = await ctx.system((db) => db.select().from(outbox).where(eq(outbox.toEmail, 'nueva.persona@demo.mx')));
    expect(messages.map((message) => message.link)).toContain(answer.link);
    const [event] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, user.id), eq(auditEvents.action, 'user.access-link')));
    expect(event).toMatchObject({ actorEmail: 'admin@demo.mx', after: { email: 'nueva.persona@demo.mx', expiresAt: answer.expiresAt } });
    expect(JSON.stringify(event!.after)).not.toContain('token=');

    const missing = await call('POST', '/api/users/00000000-0000-4000-8000-000000000000/access-link');
    expect(missing.statusCode).toBe(404);
    const cartera = await ctx.as('cartera@demo.mx');
    expect((await call('POST', `/api/users/${user.id}/access-link`, undefined, cartera)).statusCode).toBe(403);
  });

  it('refuses an e-mail already used, whatever its case, with its own message', async () => {
    const response = await call('POST', '/api/users', newUser({ email: 'CARTERA@demo.mx' }));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ errors: [{ field: 'email', message: 'Ya existe un usuario con ese correo electrónico.' }] });
  });

  it('validates every field with the contract schema, in Spanish', async () => {
    const response = await call('POST', '/api/users', {
      email: 'no-es-correo',
      name: 'A',
      profileId: 'x',
      companyId: ids.company,
      active: true,
    });
    expect(response.statusCode).toBe(400);
    const errors = Object.fromEntries(
      response.json<{ errors: { field: string; message: string }[] }>().errors.map((error) => [error.field, error.message]),
    );
    expect(errors).toMatchObject({
      email: 'Escribe un correo electrónico válido, por ejemplo nombre@empresa.mx.',
      name: 'Escribe el nombre (al menos 2 letras).',
      profileId: 'Elige un perfil.',
    });
  });

  it('updates with the current version, refuses a stale one with 409, and records before and after', async () => {
    const created = (await call('POST', '/api/users', newUser())).json<{ id: string; version: number }>();
    const update = { ...newUser({ name: 'Nombre Nuevo', profileId: ids.originacion }), version: created.version };
    const saved = await call('PUT', `/api/users/${created.id}`, update);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ name: 'Nombre Nuevo', profile: 'Originación', version: created.version + 1 });

    const stale = await call('PUT', `/api/users/${created.id}`, { ...update, name: 'Otro' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<{ detail: string }>().detail).toContain('Recarga la página');

    const audit = await ctx.system((db) => db.select().from(auditEvents).where(eq(auditEvents.entityId, created.id)));
    const change = audit.find((event) => event.action === 'user.update')!;
    expect(change.before).toMatchObject({ name: 'Nueva Persona', profileId: ids.cartera });
    expect(change.after).toMatchObject({ name: 'Nombre Nuevo', profileId: ids.originacion });
    expect(change.actorEmail).toBe('admin@demo.mx');
  });

  it('deactivates and reactivates with the current version', async () => {
    const [cartera] = await ctx.system((db) => db.select().from(users).where(eq(users.email, 'cartera@demo.mx')));
    const off = await call('POST', `/api/users/${cartera!.id}/status`, { active: false, version: cartera!.version });
    expect(off.json()).toMatchObject({ active: false });
    const on = await call('POST', `/api/users/${cartera!.id}/status`, { active: true, version: cartera!.version + 1 });
    expect(on.json()).toMatchObject({
      active: true,
      history: [expect.objectContaining({ action: 'user.reactivate' }), expect.objectContaining({ action: 'user.deactivate' })],
    });
  });

  it("refuses to deactivate oneself, to change one's own profile, and to edit the profile one holds", async () => {
    const [me] = await ctx.system((db) => db.select().from(users).where(eq(users.email, 'admin@demo.mx')));
    const self = await call('POST', `/api/users/${me!.id}/status`, { active: false, version: me!.version });
    expect(self.statusCode).toBe(409);
    expect(self.json()).toMatchObject({ detail: 'No puedes desactivar tu propio usuario.' });

    // A second administrator tries to take the last full profile away from the first one.
    await ctx.system((db) =>
      db.insert(users).values({ email: 'otra.admin@demo.mx', name: 'Otra', profileId: ids.cartera, companyId: ids.company }),
    );
    const other = await ctx.as('otra.admin@demo.mx');
    // Cartera cannot touch users at all…
    expect(
      (
        await call(
          'PUT',
          `/api/users/${me!.id}`,
          { ...newUser({ email: 'admin@demo.mx', profileId: ids.cartera }), version: me!.version },
          other,
        )
      ).statusCode,
    ).toBe(403);
    // …and nobody changes their own profile, not even to demote themself (privileges.ts).
    const demote = await call('PUT', `/api/users/${me!.id}`, {
      ...newUser({ email: 'admin@demo.mx', profileId: ids.cartera }),
      version: me!.version,
    });
    expect(demote.statusCode).toBe(403);
    expect(demote.json()).toMatchObject({ detail: 'No puedes cambiar tu propio perfil.' });
    const [unchanged] = await ctx.system((db) => db.select().from(users).where(eq(users.id, me!.id)));
    expect(unchanged!.profileId).toBe(ids.admin);

    const stripProfile = await call('PUT', `/api/profiles/${ids.admin}`, {
      name: 'Administrador',
      roleCode: 'SA',
      permissions: ['/user/user-list'],
      version: 1,
    });
    expect(stripProfile.statusCode).toBe(403);
    expect(stripProfile.json()).toMatchObject({ detail: 'No puedes modificar el perfil que tú tienes.' });
  });

  it('last-administrator rule under a race: two administrators deactivating each other at once leave one of them', async () => {
    // Only admin@demo.mx and a second administrator hold every permission.
    await ctx.system((db) =>
      db
        .update(users)
        .set({ active: false })
        .where(and(eq(users.profileId, ids.admin), ne(users.email, 'admin@demo.mx'))),
    );
    const [second] = await ctx.system((db) =>
      db.insert(users).values({ email: 'admin2@demo.mx', name: 'Segunda', profileId: ids.admin, companyId: ids.company }).returning(),
    );
    for (let attempt = 0; attempt < 4; attempt++) {
      // Fresh tokens each time: a deactivation ends the tokens issued before it, reactivation does not revive them.
      const asFirst = await ctx.as('admin@demo.mx');
      const asSecond = await ctx.as('admin2@demo.mx');
      const [first, other] = await Promise.all(
        ['admin@demo.mx', 'admin2@demo.mx'].map(
          async (email) => (await ctx.system((db) => db.select().from(users).where(eq(users.email, email))))[0]!,
        ),
      );
      const answers = await Promise.all([
        call('POST', `/api/users/${other!.id}/status`, { active: false, version: other!.version }, asFirst),
        call('POST', `/api/users/${first!.id}/status`, { active: false, version: first!.version }, asSecond),
      ]);
      // One wins; the other is refused by the rule (409) or, when the winner deactivated its author first, as inactive (403).
      expect(
        answers.filter((answer) => answer.statusCode === 200),
        answers.map((answer) => answer.body).join('\n'),
      ).toHaveLength(1);
      const refused = answers.find((answer) => answer.statusCode !== 200)!;
      expect(refused.json(), refused.body).toMatchObject(
        refused.statusCode === 409
          ? { title: 'Debe quedar un administrador' }
          : { status: 403, detail: 'Tu usuario no está registrado o está inactivo en el portal.' },
      );
      const active = await ctx.system((db) =>
        db
          .select({ email: users.email })
          .from(users)
          .where(and(eq(users.profileId, ids.admin), eq(users.active, true))),
      );
      expect(active).toHaveLength(1);
      // Both active again for the next attempt.
      await ctx.system((db) =>
        db
          .update(users)
          .set({ active: true })
          .where(inArray(users.id, [first!.id, second!.id])),
      );
    }
  });

  it('exports the current filter to a real .xlsx', async () => {
    await seedMany(30);
    const response = await call('GET', `/api/users/export.xlsx?status=inactive&sort=email`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    expect(response.headers['content-disposition']).toMatch(/usuarios-\d{4}-\d{2}-\d{2}\.xlsx/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Usuarios')!;
    const emails = sheet.getColumn(1).values.slice(2);
    expect(sheet.getRow(1).getCell(1).value).toBe('Correo electrónico');
    expect(emails).toEqual([
      'persona000@demo.mx',
      'persona005@demo.mx',
      'persona010@demo.mx',
      'persona015@demo.mx',
      'persona020@demo.mx',
      'persona025@demo.mx',
    ]);
    expect(sheet.getRow(2).getCell(5).value).toBe('Inactivo');
  });

  it('manages profiles: create, edit, refuse a duplicate name, delete only when unused', async () => {
    const created = await call('POST', '/api/profiles', {
      name: 'Consulta',
      roleCode: 'CONSULTA',
      permissions: ['/wallet/credits/credits-list'],
    });
    expect(created.statusCode).toBe(201);
    const profile = created.json<{ id: string; version: number; userCount: number }>();
    expect(profile.userCount).toBe(0);
    expect((await call('POST', '/api/profiles', { name: 'consulta', roleCode: 'X1', permissions: [] })).statusCode).toBe(409);
    expect((await call('POST', '/api/profiles', { name: 'Mal', roleCode: 'mal rol', permissions: ['/no/existe'] })).statusCode).toBe(400);
    const edited = await call('PUT', `/api/profiles/${profile.id}`, {
      name: 'Consulta',
      roleCode: 'CONSULTA',
      permissions: ['/wallet/credits/credits-list', '/wallet/operative-report'],
      version: profile.version,
    });
    expect(edited.json()).toMatchObject({ permissions: ['/wallet/credits/credits-list', '/wallet/operative-report'], version: 2 });

    const inUse = await call('DELETE', `/api/profiles/${ids.cartera}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json<{ detail: string }>().detail).toContain('1 usuario(s)');
    expect((await call('DELETE', `/api/profiles/${profile.id}`)).statusCode).toBe(204);
    const list = (await call('GET', '/api/profiles')).json<{ items: { name: string; userCount: number }[] }>();
    expect(list.items.map((item) => item.name)).not.toContain('Consulta');
    expect(list.items.find((item) => item.name === 'Cartera')?.userCount).toBe(1);
  });

  it('answers 401 without a token and 403 without the permission on every route of the module', async () => {
    const [cartera] = await ctx.system((db) => db.select().from(users).where(eq(users.email, 'cartera@demo.mx')));
    const routes: ['GET' | 'POST' | 'PUT' | 'DELETE', string, Json?][] = [
      ['GET', '/api/users'],
      ['GET', '/api/users/export.xlsx'],
      ['GET', `/api/users/${cartera!.id}`],
      ['POST', '/api/users', newUser()],
      ['PUT', `/api/users/${cartera!.id}`, { ...newUser(), version: 1 }],
      ['POST', `/api/users/${cartera!.id}/status`, { active: false, version: 1 }],
      ['POST', `/api/users/${cartera!.id}/access-link`],
      ['GET', '/api/profiles'],
      ['GET', '/api/companies'],
      ['POST', '/api/profiles', { name: 'X', roleCode: 'XX', permissions: [] }],
      ['PUT', `/api/profiles/${ids.cartera}`, { name: 'X', roleCode: 'XX', permissions: [], version: 1 }],
      ['DELETE', `/api/profiles/${ids.cartera}`],
    ];
    const carteraToken = await ctx.as('cartera@demo.mx');
    for (const [method, url, payload] of routes) {
      expect((await ctx.app.inject({ method, url, payload })).statusCode, `${method} ${url} sin token`).toBe(401);
      expect((await call(method, url, payload, carteraToken)).statusCode, `${method} ${url} como Cartera`).toBe(403);
    }
    const registered = ctx.app.registeredRoutes.filter((route) => /^\/api\/(users|profiles|companies)/.test(route.url));
    expect(registered).toHaveLength(routes.length);
  });
});
