import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { companySchema, profileInputSchema, profileSchema, profileUpdateSchema, type Profile } from '@portal/contract';
import type { Db, Tx } from '../../db/client';
import { companies, profiles, users } from '../../db/schema';
import { HttpProblem } from '../../http/errors';
import type { AppDeps } from '../../deps';
import { recordAudit } from '../audit/audit';
import { ensureAnAdministratorRemains } from './administrators';
import { assertNoRefusal, profileChangeRefusals, type ProfileGrant } from './privileges';
import type { Principal } from '../../http/auth';
import { acrossCompanies } from '../../db/scope';

const idParams = z.object({ id: z.uuid('Identificador no válido.') });
const NAME_TAKEN = { field: 'name', message: 'Ya existe un perfil con ese nombre.' };

async function listProfiles(db: Db, id?: string): Promise<Profile[]> {
  const userCount = db
    .select({ profileId: users.profileId, total: count().as('total') })
    .from(users)
    .groupBy(users.profileId)
    .as('user_count');
  const rows = await db
    .select({
      id: profiles.id,
      name: profiles.name,
      roleCode: profiles.roleCode,
      permissions: profiles.permissions,
      version: profiles.version,
      userCount: sql<number>`coalesce(${userCount.total}, 0)::int`,
    })
    .from(profiles)
    .leftJoin(userCount, eq(userCount.profileId, profiles.id))
    .where(id ? eq(profiles.id, id) : undefined)
    .orderBy(asc(profiles.name));
  return rows.map((row) => ({ ...row, userCount: Number(row.userCount) }));
}

/** The profile as it is now, locked for the transaction; 404 when it is gone. */
async function lockProfile(tx: Tx, id: string) {
  const [current] = await tx.select().from(profiles).where(eq(profiles.id, id)).for('update');
  if (!current) throw new HttpProblem(404, 'Perfil no encontrado', 'El perfil no existe o fue eliminado.');
  return current;
}

/** Whether users of a company other than `companyId` hold the profile: only SA may then change it. */
async function heldInOtherCompanies(tx: Tx, profileId: string, companyId: string): Promise<boolean> {
  const [row] = await acrossCompanies(tx, (all) =>
    all.select({ total: count() }).from(users).where(and(eq(users.profileId, profileId), ne(users.companyId, companyId))),
  );
  return (row?.total ?? 0) > 0;
}

/** What a profile grants: what the privilege rules weigh and what its audit events keep. */
const grantOf = (row: { name: string; roleCode: string; permissions: string[] }) => ({ name: row.name, roleCode: row.roleCode, permissions: row.permissions });

/** The profile locked for a change by `actor` into `after` (itself when deleting), refused by the privilege rules. */
async function lockForChange(tx: Tx, actor: Principal, id: string, after?: ProfileGrant) {
  const current = await lockProfile(tx, id);
  const heldElsewhere = await heldInOtherCompanies(tx, id, actor.companyId);
  assertNoRefusal(profileChangeRefusals(actor, { ...current, heldInOtherCompanies: heldElsewhere }, after ?? current));
  return current;
}

/** Profiles (role code + permission paths) and the companies a user can belong to: the user form's catalogues. */
export function profilesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const catalogAccess = { anyPermission: ['/user/user-list', '/user/user-new', '/user/profile-list'] } as const;

    app.get(
      '/profiles',
      {
        config: { access: { anyPermission: [...catalogAccess.anyPermission] } },
        schema: { tags: ['usuarios'], summary: 'Perfiles con sus permisos y cuántos usuarios los tienen', response: { 200: z.object({ items: z.array(profileSchema) }) } },
      },
      async (request) => ({ items: await listProfiles(request.db) }),
    );

    app.get(
      '/companies',
      {
        // The user form and the agreement form both pick a company.
        config: { access: { anyPermission: [...catalogAccess.anyPermission, '/catalog/contract-list', '/catalog/contract-new'] } },
        schema: { tags: ['usuarios'], summary: 'Empresas a las que puede pertenecer un usuario', response: { 200: z.object({ items: z.array(companySchema) }) } },
      },
      async (request) => ({ items: await request.db.select({ id: companies.id, code: companies.code, name: companies.name }).from(companies).orderBy(asc(companies.name)) }),
    );

    app.post(
      '/profiles',
      {
        config: { access: { permission: '/user/profile-list' } },
        schema: { tags: ['usuarios'], summary: 'Crea un perfil', body: profileInputSchema, response: { 201: profileSchema } },
      },
      async (request, reply) => {
        const now = deps.clock.now();
        const tx = request.db;
        assertNoRefusal(profileChangeRefusals(request.principal!, null, request.body));
        const [taken] = await tx.select({ id: profiles.id }).from(profiles).where(sql`lower(${profiles.name}) = ${request.body.name.toLowerCase()}`);
        if (taken) throw new HttpProblem(409, 'Perfil duplicado', NAME_TAKEN.message, [NAME_TAKEN]);
        const [created] = await tx.insert(profiles).values({ ...request.body, createdAt: now, updatedAt: now }).returning();
        await recordAudit(tx, request, { action: 'profile.create', entity: 'profile', entityId: created!.id, after: request.body, occurredAt: now });
        const [profile] = await listProfiles(tx, created!.id);
        reply.code(201);
        return profile!;
      },
    );

    app.put(
      '/profiles/:id',
      {
        config: { access: { permission: '/user/profile-list' } },
        schema: { tags: ['usuarios'], summary: 'Edita un perfil (rechaza ediciones sobre una versión vieja)', params: idParams, body: profileUpdateSchema, response: { 200: profileSchema } },
      },
      async (request) => {
        const { version, ...input } = request.body;
        const id = request.params.id;
        const now = deps.clock.now();
        const tx = request.db;
        const current = await lockForChange(tx, request.principal!, id, input);
        if (current.version !== version) {
          throw new HttpProblem(409, 'El perfil cambió', 'Otra persona modificó este perfil mientras lo editabas. Recarga la página y vuelve a intentarlo.');
        }
        const [taken] = await tx
          .select({ id: profiles.id })
          .from(profiles)
          .where(sql`lower(${profiles.name}) = ${input.name.toLowerCase()} and ${profiles.id} <> ${id}`);
        if (taken) throw new HttpProblem(409, 'Perfil duplicado', NAME_TAKEN.message, [NAME_TAKEN]);
        await tx
          .update(profiles)
          .set({ ...input, updatedAt: now, version: sql`${profiles.version} + 1` })
          .where(eq(profiles.id, id));
        await ensureAnAdministratorRemains(tx);
        await recordAudit(tx, request, {
          action: 'profile.update',
          entity: 'profile',
          entityId: id,
          before: grantOf(current),
          after: input,
          occurredAt: now,
        });
        const [profile] = await listProfiles(tx, id);
        return profile!;
      },
    );

    app.delete(
      '/profiles/:id',
      {
        config: { access: { permission: '/user/profile-list' } },
        schema: { tags: ['usuarios'], summary: 'Elimina un perfil que ningún usuario tiene', params: idParams },
      },
      async (request, reply) => {
        const id = request.params.id;
        const now = deps.clock.now();
        const tx = request.db;
        const current = await lockForChange(tx, request.principal!, id);
        const [holders] = await acrossCompanies(tx, (all) => all.select({ total: count() }).from(users).where(eq(users.profileId, id)));
        if ((holders?.total ?? 0) > 0) {
          throw new HttpProblem(409, 'Perfil en uso', `No se puede eliminar: ${holders!.total} usuario(s) tienen este perfil. Asígnales otro primero.`);
        }
        await tx.delete(profiles).where(eq(profiles.id, id));
        await recordAudit(tx, request, {
          action: 'profile.delete',
          entity: 'profile',
          entityId: id,
          before: grantOf(current),
          occurredAt: now,
        });
        reply.code(204);
        return null;
      },
    );
  };
}
