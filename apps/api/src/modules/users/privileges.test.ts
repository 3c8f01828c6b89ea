import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSION_PATHS, groupPermissionPaths } from '@portal/contract';
import { ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { outbox } from '../../db/schema/audit';
import { companies, profiles, users } from '../../db/schema/users';
import { inspectPasswordLink } from '../../idp/password-links';
import {
  CHANGE_EMAIL,
  CHANGE_PROFILE,
  profileChangeRefusals,
  userChangeRefusals,
  type Actor,
  type ProfileGrant,
  type UserState,
} from './privileges';

const ALL: readonly string[] = ALL_PERMISSION_PATHS;

const SA_PROFILE: ProfileGrant = { roleCode: 'SA', permissions: ALL };
const ORIGINATION: ProfileGrant = { roleCode: 'ORIGINACION', permissions: groupPermissionPaths('origination') };
const WALLET: ProfileGrant = { roleCode: 'CARTERA', permissions: groupPermissionPaths('wallet') };
const NOTHING: ProfileGrant = { roleCode: 'CONSULTA', permissions: [] };

const actor = (role: string, permissions: readonly string[], userId = 'actor'): Actor => ({
  userId,
  role,
  permissions: new Set(permissions),
});

/** An SA holding every permission. */
const SA = actor('SA', ALL);
/** Not SA, yet holding every permission: only the role SA is beyond it. */
const EVERYTHING_BUT_SA = actor('OPERACION', ALL);
/** Manages users and origination, both user actions included. */
const USER_ADMIN = actor('USUARIOS', [
  '/user/user-list',
  '/user/user-new',
  CHANGE_PROFILE,
  CHANGE_EMAIL,
  ...groupPermissionPaths('origination'),
]);
/** Manages users and origination, without the two user actions. */
const USER_EDITOR = actor('USUARIOS', ['/user/user-list', '/user/user-new', ...groupPermissionPaths('origination')]);

const user = (id: string, profileId: string, profile: ProfileGrant, overrides: Partial<UserState> = {}): UserState => ({
  id,
  email: `${id}@demo.mx`,
  active: true,
  profileId,
  profile,
  ...overrides,
});

type Expected = { status: 403 | 409; field: string; message?: RegExp }[];

describe('userChangeRefusals', () => {
  const rows: [string, Actor, UserState | null, UserState, Expected][] = [
    [
      "refuses changing one's own profile, even to an SA holding everything",
      SA,
      user('actor', 'p-sa', SA_PROFILE),
      user('actor', 'p-orig', ORIGINATION),
      [{ status: 403, field: 'profileId', message: /propio perfil/ }],
    ],
    [
      'refuses deactivating oneself with 409',
      SA,
      user('actor', 'p-sa', SA_PROFILE),
      user('actor', 'p-sa', SA_PROFILE, { active: false }),
      [{ status: 409, field: 'active', message: /desactivar tu propio usuario/ }],
    ],
    [
      'refuses a profile change without /actions/users/change-profile',
      USER_EDITOR,
      user('other', 'p-none', NOTHING),
      user('other', 'p-orig', ORIGINATION),
      [{ status: 403, field: 'profileId', message: /permiso para cambiar el perfil/ }],
    ],
    [
      'refuses an e-mail change without /actions/users/change-email, whatever the case of the rest',
      USER_EDITOR,
      user('other', 'p-none', NOTHING),
      user('other', 'p-none', NOTHING, { email: 'otro.correo@demo.mx' }),
      [{ status: 403, field: 'email', message: /permiso para cambiar el correo/ }],
    ],
    [
      'takes an e-mail that differs only in case as unchanged',
      USER_EDITOR,
      user('other', 'p-none', NOTHING),
      user('other', 'p-none', NOTHING, { email: 'OTHER@Demo.MX' }),
      [],
    ],
    [
      'refuses granting a profile with a permission the actor lacks',
      USER_ADMIN,
      user('other', 'p-none', NOTHING),
      user('other', 'p-wallet', WALLET),
      [{ status: 403, field: 'profileId', message: /permisos que tú no tienes: \/wallet\/credits\/credits-list/ }],
    ],
    [
      'refuses creating a user with a profile the actor lacks',
      USER_EDITOR,
      null,
      user('', 'p-wallet', WALLET),
      [{ status: 403, field: 'profileId', message: /permisos que tú no tienes/ }],
    ],
    [
      'lets a creator without change-profile give a new user a profile within reach',
      USER_EDITOR,
      null,
      user('', 'p-orig', ORIGINATION),
      [],
    ],
    [
      'refuses granting role SA to a non-SA, even one holding every permission',
      EVERYTHING_BUT_SA,
      user('other', 'p-none', NOTHING),
      user('other', 'p-sa', SA_PROFILE),
      [{ status: 403, field: 'profileId', message: /Solo un usuario con rol SA/ }],
    ],
    [
      'refuses creating an SA user by a non-SA',
      EVERYTHING_BUT_SA,
      null,
      user('', 'p-sa', SA_PROFILE),
      [{ status: 403, field: 'profileId', message: /Solo un usuario con rol SA/ }],
    ],
    [
      "refuses editing (even only the name) a user whose profile is beyond the actor's reach",
      USER_ADMIN,
      user('other', 'p-wallet', WALLET),
      user('other', 'p-wallet', WALLET, { email: 'other@demo.mx' }),
      [{ status: 403, field: 'profileId', message: /No puedes modificar a este usuario/ }],
    ],
    [
      'refuses deactivating an SA by a non-SA holding every permission',
      EVERYTHING_BUT_SA,
      user('other', 'p-sa', SA_PROFILE),
      user('other', 'p-sa', SA_PROFILE, { active: false }),
      [{ status: 403, field: 'profileId', message: /No puedes modificar a este usuario/ }],
    ],
    [
      "lets an SA holding everything change another user's profile and e-mail",
      SA,
      user('other', 'p-none', NOTHING),
      user('other', 'p-sa', SA_PROFILE, { email: 'nuevo@demo.mx' }),
      [],
    ],
    [
      'lets a user admin change the profile and e-mail of a user within reach',
      USER_ADMIN,
      user('other', 'p-none', NOTHING),
      user('other', 'p-orig', ORIGINATION, { email: 'nuevo@demo.mx' }),
      [],
    ],
    [
      'reports each broken rule: profile and e-mail without either action',
      USER_EDITOR,
      user('other', 'p-none', NOTHING),
      user('other', 'p-orig', ORIGINATION, { email: 'nuevo@demo.mx' }),
      [
        { status: 403, field: 'profileId' },
        { status: 403, field: 'email' },
      ],
    ],
  ];

  it.each(rows)('%s', (_name, who, before, after, expected) => {
    const refusals = userChangeRefusals(who, before, after);
    expect(refusals.map(({ status, field }) => ({ status, field }))).toEqual(expected.map(({ status, field }) => ({ status, field })));
    expected.forEach((rule, index) => {
      if (rule.message) expect(refusals[index]!.message).toMatch(rule.message);
    });
  });
});

describe('profileChangeRefusals', () => {
  type ProfileActor = Actor & { profileId: string; companyId: string };
  type Before = (ProfileGrant & { id: string; companyId: string | null; heldInOtherCompanies: boolean }) | null;
  const withProfile = (who: Actor, profileId = 'p-actor'): ProfileActor => ({ ...who, profileId, companyId: 'c-actor' });
  /** A profile of the actor's company unless `overrides` says otherwise. */
  const existing = (profile: ProfileGrant, overrides: Partial<NonNullable<Before>> = {}): Before => ({
    ...profile,
    id: 'p-target',
    companyId: 'c-actor',
    heldInOtherCompanies: false,
    ...overrides,
  });

  const rows: [string, ProfileActor, Before, ProfileGrant, Expected][] = [
    [
      "refuses editing one's own profile, even to take permissions away, even for an SA",
      withProfile(SA, 'p-target'),
      existing(SA_PROFILE),
      { ...SA_PROFILE, permissions: [] },
      [{ status: 403, field: 'permissions', message: /perfil que tú tienes/ }],
    ],
    [
      'refuses a non-SA editing a profile held by users of other companies',
      withProfile(EVERYTHING_BUT_SA),
      existing(NOTHING, { heldInOtherCompanies: true }),
      NOTHING,
      [{ status: 403, field: 'permissions', message: /otras empresas/ }],
    ],
    [
      "refuses a non-SA editing a profile of the portal's common catalogue",
      withProfile(EVERYTHING_BUT_SA),
      existing(NOTHING, { companyId: null }),
      NOTHING,
      [{ status: 403, field: 'permissions', message: /catálogo común/ }],
    ],
    [
      "lets an SA edit the common catalogue and another company's profile",
      withProfile(SA),
      existing(ORIGINATION, { companyId: 'c-other' }),
      WALLET,
      [],
    ],
    [
      'lets an SA edit a profile held by users of other companies',
      withProfile(SA),
      existing(ORIGINATION, { heldInOtherCompanies: true }),
      WALLET,
      [],
    ],
    [
      'refuses a non-SA creating a profile with a permission it lacks',
      withProfile(USER_ADMIN),
      null,
      WALLET,
      [{ status: 403, field: 'permissions', message: /permisos que tú no tienes/ }],
    ],
    [
      'refuses a non-SA editing a profile beyond its reach, even to narrow it',
      withProfile(USER_ADMIN),
      existing(WALLET),
      NOTHING,
      [{ status: 403, field: 'permissions', message: /permisos que tú no tienes/ }],
    ],
    [
      'refuses a non-SA giving a profile the role SA',
      withProfile(EVERYTHING_BUT_SA),
      existing(NOTHING),
      { ...NOTHING, roleCode: 'SA' },
      [{ status: 403, field: 'permissions', message: /rol SA/ }],
    ],
    ['lets a non-SA create and edit profiles within its reach', withProfile(USER_ADMIN), existing(NOTHING), ORIGINATION, []],
  ];

  it.each(rows)('%s', (_name, who, before, after, expected) => {
    const refusals = profileChangeRefusals(who, before, after);
    expect(refusals.map(({ status, field }) => ({ status, field }))).toEqual(expected.map(({ status, field }) => ({ status, field })));
    expected.forEach((rule, index) => {
      if (rule.message) expect(refusals[index]!.message).toMatch(rule.message);
    });
  });
});

describe.each(ENGINES)('Privileges through the API (%s)', (engine) => {
  let ctx: TestContext;
  let ids: { self: string; target: string; admin: string; adminProfile: string; company: string };
  let lister: { authorization: string };

  const row = (id: string) => ctx.system(async (db) => (await db.select().from(users).where(eq(users.id, id)))[0]!);
  const detail = async (id: string) =>
    (await ctx.app.inject({ method: 'GET', url: `/api/users/${id}`, headers: await ctx.as('admin@demo.mx') })).json<{
      email: string;
      name: string;
      profileId: string;
      companyId: string;
      active: boolean;
      version: number;
    }>();
  const edit = (id: string, body: object, headers: { authorization: string }) =>
    ctx.app.inject({ method: 'PUT', url: `/api/users/${id}`, payload: body, headers });
  const asUpdate = ({ email, name, profileId, companyId, active, version }: Awaited<ReturnType<typeof detail>>) => ({
    email,
    name,
    profileId,
    companyId,
    active,
    version,
  });

  beforeAll(async () => {
    ctx = await createTestApp(engine);
    ids = await ctx.system(async (db) => {
      const [company] = await db.select().from(companies).where(eq(companies.code, 'DEMO'));
      const [listOnly] = await db
        .insert(profiles)
        .values({ name: 'Solo lista de usuarios', roleCode: 'CONSULTA_USUARIOS', permissions: ['/user/user-list'] })
        .returning();
      const [self] = await db
        .insert(users)
        .values({ email: 'lista@demo.mx', name: 'Solo Lista', profileId: listOnly!.id, companyId: company!.id })
        .returning();
      const [issues] = await db
        .insert(profiles)
        .values({ name: 'Altas de usuarios', roleCode: 'ALTAS_USUARIOS', permissions: ['/user/user-list', '/user/user-new'] })
        .returning();
      await db.insert(users).values({ email: 'altas@demo.mx', name: 'Altas', profileId: issues!.id, companyId: company!.id });
      const [target] = await db.select().from(users).where(eq(users.email, 'sinpermisos@demo.mx'));
      const [admin] = await db.select().from(users).where(eq(users.email, 'admin@demo.mx'));
      const [adminProfile] = await db.select().from(profiles).where(eq(profiles.name, 'Administrador'));
      return { self: self!.id, target: target!.id, admin: admin!.id, adminProfile: adminProfile!.id, company: company!.id };
    });
    lister = await ctx.as('lista@demo.mx');
  });
  afterAll(() => ctx?.close());

  it('refuses a user holding only /user/user-list promoting itself to Administrador, and changes nothing', async () => {
    const before = await row(ids.self);
    const response = await edit(ids.self, { ...asUpdate(await detail(ids.self)), profileId: ids.adminProfile }, lister);
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json()).toMatchObject({ errors: expect.arrayContaining([expect.objectContaining({ field: 'profileId' })]) });
    expect(await row(ids.self)).toEqual(before);
  });

  it("refuses that user changing another user's e-mail, even one whose profile is within its reach", async () => {
    const before = await row(ids.target);
    const response = await edit(ids.target, { ...asUpdate(await detail(ids.target)), email: 'robado@atacante.mx' }, lister);
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json()).toMatchObject({ errors: [{ field: 'email' }] });
    expect(await row(ids.target)).toEqual(before);
    const [message] = await ctx.system((db) => db.select().from(outbox).where(eq(outbox.toEmail, 'sinpermisos@demo.mx')));
    expect(message).toBeUndefined();
  });

  it("writes to the OLD address when an administrator changes a user's e-mail", async () => {
    const response = await edit(
      ids.target,
      { ...asUpdate(await detail(ids.target)), email: 'nuevo.correo@demo.mx' },
      await ctx.as('admin@demo.mx'),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect((await row(ids.target)).email).toBe('nuevo.correo@demo.mx');
    const messages = await ctx.system((db) => db.select().from(outbox).where(eq(outbox.toEmail, 'sinpermisos@demo.mx')));
    expect(messages).toEqual([expect.objectContaining({ companyId: ids.company, subject: 'Cambió el correo de tu acceso al portal' })]);
    expect(messages[0]!.body).toContain('nuevo.correo@demo.mx');
  });

  it("never shows a non-SA user who issues access the set-password link of an SA, also after the SA's e-mail was corrected", async () => {
    const admin = await ctx.as('admin@demo.mx');
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      payload: {
        email: 'nueva.directora@demo.mx',
        name: 'Nueva Directora',
        profileId: ids.adminProfile,
        companyId: ids.company,
        active: true,
      },
      headers: admin,
    });
    expect(created.statusCode, created.body).toBe(201);
    const director = created.json<{ id: string }>();
    const [invite] = await ctx.system((db) => db.select().from(outbox).where(eq(outbox.toEmail, 'nueva.directora@demo.mx')));
    expect(invite?.link).toMatch(/reset-password\?token=/);
    const issuer = await ctx.as('altas@demo.mx');
    const links = async () =>
      (await ctx.app.inject({ url: '/api/outbox?pageSize=100', headers: issuer }))
        .json<{ items: { link: string | null }[] }>()
        .items.map((item) => item.link);
    expect(await links()).not.toContain(invite!.link);

    // A typo in the address is corrected before the invitation is used: the invitation sent to the old address is revoked.
    const fixed = await edit(director.id, { ...asUpdate(await detail(director.id)), email: 'nueva.directora@demo.com.mx' }, admin);
    expect(fixed.statusCode, fixed.body).toBe(200);
    const token = new URL(invite!.link!).searchParams.get('token')!;
    expect(await inspectPasswordLink(ctx.db, token, ctx.clock.now())).toMatchObject({ valid: false });
    expect(await links()).not.toContain(invite!.link);
  });
});

describe.each(ENGINES)("A company's profiles are its own (%s)", (engine) => {
  let ctx: TestContext;
  let ids: { demo: string; plus: string; cartera: string };
  beforeAll(async () => {
    ctx = await createTestApp(engine);
    ids = await ctx.system(async (db) => {
      const [demo] = await db.select().from(companies).where(eq(companies.code, 'DEMO'));
      const [plus] = await db.select().from(companies).where(eq(companies.code, 'PLUS'));
      const [cartera] = await db.select().from(profiles).where(eq(profiles.name, 'Cartera'));
      // Each company's own administrator, not SA: every permission but the role.
      for (const [email, company] of [
        ['todo@demo.mx', demo!],
        ['todo@plus.mx', plus!],
      ] as const) {
        const [own] = await db
          .insert(profiles)
          .values({
            name: `Todo ${company.code}`,
            roleCode: `TODO_${company.code}`,
            companyId: company.id,
            permissions: [...ALL_PERMISSION_PATHS],
          })
          .returning();
        await db.insert(users).values({ email, name: email, profileId: own!.id, companyId: company.id });
      }
      return { demo: demo!.id, plus: plus!.id, cartera: cartera!.id };
    });
  });
  afterAll(() => ctx.close());

  it("keeps them out of another company's sight and reach, and the common catalogue out of a company's reach", async () => {
    const demo = await ctx.as('todo@demo.mx');
    const plus = await ctx.as('todo@plus.mx');
    const admin = await ctx.as('admin@demo.mx');
    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: { authorization: string }, payload?: object) =>
      ctx.app.inject({ method, url, headers, payload });

    const created = await call('POST', '/api/profiles', demo, {
      name: 'Cobranza Demo',
      roleCode: 'COBRANZA_DEMO',
      permissions: ['/wallet/credits/credits-list'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const cobranza = created.json<{ id: string; companyId: string | null; version: number }>();
    expect(cobranza.companyId).toBe(ids.demo);
    const spare = (await call('POST', '/api/profiles', demo, { name: 'Sin usar Demo', roleCode: 'SIN_USO', permissions: [] })).json<{
      id: string;
    }>();

    // Another company's administrator neither sees, rewrites, deletes nor assigns them.
    const seen = (await call('GET', '/api/profiles', plus)).json<{ items: { name: string }[] }>().items.map((profile) => profile.name);
    expect(seen).toEqual(expect.arrayContaining(['Cartera', 'Todo PLUS']));
    expect(seen).not.toContain('Cobranza Demo');
    expect(seen).not.toContain('Todo DEMO');
    const rewrite = await call('PUT', `/api/profiles/${cobranza.id}`, plus, {
      name: 'Cobranza Demo',
      roleCode: 'COBRANZA_DEMO',
      permissions: ['/wallet/credits/credits-list', '/user/user-new'],
      version: cobranza.version,
    });
    expect(rewrite.statusCode).toBe(404);
    expect((await call('DELETE', `/api/profiles/${spare.id}`, plus)).statusCode).toBe(404);
    const hostage = await call('POST', '/api/users', plus, {
      email: 'rehen@plus.mx',
      name: 'Rehén',
      profileId: cobranza.id,
      companyId: ids.plus,
      active: false,
    });
    expect(hostage.statusCode).toBe(400);
    expect(hostage.json()).toMatchObject({ errors: [{ field: 'profileId' }] });
    // Not even SA gives one company's profile to another company's user.
    const crossed = await call('POST', '/api/users', admin, {
      email: 'cruzado@plus.mx',
      name: 'Cruzado',
      profileId: cobranza.id,
      companyId: ids.plus,
      active: true,
    });
    expect(crossed.statusCode).toBe(400);
    expect(crossed.json()).toMatchObject({ errors: [{ field: 'profileId', message: expect.stringContaining('es de otra empresa') }] });
    // A name is unique across companies, whoever's profile holds it.
    expect(
      (await call('POST', '/api/profiles', plus, { name: 'cobranza demo', roleCode: 'COBRANZA_PLUS', permissions: [] })).statusCode,
    ).toBe(409);

    // The common catalogue is every company's to use and SA's alone to change.
    const catalogue = (await call('GET', '/api/profiles', demo))
      .json<{ items: { id: string; name: string; roleCode: string; permissions: string[]; version: number }[] }>()
      .items.find((profile) => profile.id === ids.cartera)!;
    const shared = await call('PUT', `/api/profiles/${ids.cartera}`, demo, {
      name: catalogue.name,
      roleCode: catalogue.roleCode,
      permissions: catalogue.permissions,
      version: catalogue.version,
    });
    expect(shared.statusCode).toBe(403);
    expect(shared.json()).toMatchObject({ detail: expect.stringContaining('catálogo común') });
    const assigned = await call('POST', '/api/users', plus, {
      email: 'cartera.nueva@plus.mx',
      name: 'Cartera Nueva',
      profileId: ids.cartera,
      companyId: ids.plus,
      active: true,
    });
    expect(assigned.statusCode, assigned.body).toBe(201);

    const [stored] = await ctx.system((db) => db.select().from(profiles).where(eq(profiles.id, cobranza.id)));
    expect(stored).toMatchObject({ permissions: ['/wallet/credits/credits-list'], companyId: ids.demo, version: 1 });
  });
});
