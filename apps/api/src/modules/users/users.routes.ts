import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  accessLinkSchema,
  userDetailSchema,
  userInputSchema,
  userListQuerySchema,
  userListResponseSchema,
  userStatusSchema,
  userUpdateSchema,
  type UserDetail,
} from '@portal/contract';
import type { Db, Tx } from '../../db/client';
import { acrossCompanies } from '../../db/scope';
import { companies, profiles, users } from '../../db/schema';
import { HttpProblem } from '../../http/errors';
import { sendXlsx } from '../../lib/xlsx-export';
import { LIFETIME_MS, issuePasswordLink, notify, revokePasswordLinks } from '../../idp/password-links';
import type { AppDeps } from '../../deps';
import { auditHistory, recordAudit } from '../audit/audit';
import { ensureAnAdministratorRemains } from './administrators';
import { assertNoRefusal, beyondReach, userChangeRefusals } from './privileges';
import { listUsers, toListItem, userFilters, userListSelect, userOrder } from './users.service';

const idParams = z.object({ id: z.uuid('Identificador no válido.') });

const EMAIL_TAKEN = { field: 'email', message: 'Ya existe un usuario con ese correo electrónico.' };

/** What an audit event keeps of a user: the editable fields, never the password hash. */
const snapshot = (row: { email: string; name: string | null; profileId: string; companyId: string; active: boolean }) => ({
  email: row.email,
  name: row.name,
  profileId: row.profileId,
  companyId: row.companyId,
  active: row.active,
});

export function usersRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    async function loadDetail(db: Db, id: string): Promise<UserDetail> {
      const [row] = await userListSelect(db).where(eq(users.id, id));
      if (!row) throw new HttpProblem(404, 'Usuario no encontrado', 'El usuario no existe o fue eliminado.');
      return { ...toListItem(row), createdAt: row.createdAt.toISOString(), history: await auditHistory(db, 'user', id) };
    }

    /** The profile being granted (which the privilege rules weigh) and the company, both as the actor may see them. */
    async function loadReferences(tx: Tx, input: { profileId: string; companyId: string }) {
      const [profile] = await tx.select().from(profiles).where(eq(profiles.id, input.profileId));
      const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, input.companyId));
      const errors = [
        ...(profile ? [] : [{ field: 'profileId', message: 'El perfil elegido ya no existe.' }]),
        ...(company ? [] : [{ field: 'companyId', message: 'La empresa elegida no existe o no es la tuya.' }]),
      ];
      if (errors.length) throw new HttpProblem(400, 'Datos inválidos', 'Revisa los campos marcados.', errors);
      return profile!;
    }

    /** E-mails are unique across companies (they identify a person at the identity provider). */
    async function assertEmailFree(tx: Tx, email: string, exceptId?: string) {
      const [taken] = await acrossCompanies(tx, (all) =>
        all
          .select({ id: users.id })
          .from(users)
          .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, exceptId ? sql`${users.id} <> ${exceptId}` : undefined)),
      );
      if (taken) throw new HttpProblem(409, 'Correo ya registrado', EMAIL_TAKEN.message, [EMAIL_TAKEN]);
    }

    /** The user as it is now, locked, with its profile: what the privilege rules compare against. */
    async function lockState(tx: Tx, id: string, version: number) {
      const before = await lockCurrent(tx, id, version);
      const [profile] = await tx.select().from(profiles).where(eq(profiles.id, before.profileId));
      return { row: before, state: { id, email: before.email, active: before.active, profileId: before.profileId, profile: profile! } };
    }

    app.get(
      '/users',
      {
        config: { access: { permission: '/user/user-list' } },
        schema: { tags: ['usuarios'], summary: 'Lista de usuarios (paginada, ordenada y filtrada en SQL)', querystring: userListQuerySchema, response: { 200: userListResponseSchema } },
      },
      async (request) => listUsers(request.db, request.query),
    );

    app.get(
      '/users/export.xlsx',
      {
        config: { streamsAnswer: true, access: { permission: '/user/user-list' } },
        schema: { tags: ['usuarios'], summary: 'Exporta a Excel la lista con el filtro actual', querystring: userListQuerySchema.omit({ page: true, pageSize: true }) },
      },
      async (request, reply) => {
        const where = userFilters(request.query);
        const order = userOrder(request.query.sort);
        return sendXlsx(request, reply, {
          filename: `usuarios-${deps.clock.now().toISOString().slice(0, 10)}.xlsx`,
          sheet: 'Usuarios',
          columns: [
            { header: 'Correo electrónico', key: 'email', width: 34 },
            { header: 'Nombre', key: 'name', width: 30 },
            { header: 'Perfil', key: 'profile', width: 20 },
            { header: 'Empresa', key: 'company', width: 24 },
            { header: 'Estado', key: 'status', width: 10 },
            { header: 'Último acceso', key: 'lastSignInAt', width: 20, style: { numFmt: 'dd/mm/yyyy hh:mm' } },
          ],
          read: (offset, limit) => request.inScope((tx) => userListSelect(tx).where(where).orderBy(...order).limit(limit).offset(offset)),
          toCells: (row) => ({ ...row, status: row.active ? 'Activo' : 'Inactivo', lastSignInAt: row.lastSignInAt ?? undefined }),
        });
      },
    );

    app.get(
      '/users/:id',
      {
        config: { access: { permission: '/user/user-list' } },
        schema: { tags: ['usuarios'], summary: 'Un usuario con su historial de cambios', params: idParams, response: { 200: userDetailSchema } },
      },
      async (request) => loadDetail(request.db, request.params.id),
    );

    app.post(
      '/users',
      {
        config: { access: { permission: '/user/user-new' } },
        schema: { tags: ['usuarios'], summary: 'Crea un usuario (y, con el proveedor embebido, le envía su enlace de acceso)', body: userInputSchema, response: { 201: userDetailSchema } },
      },
      async (request, reply) => {
        const input = request.body;
        const now = deps.clock.now();
        const tx = request.db;
        const profile = await loadReferences(tx, input);
        assertNoRefusal(userChangeRefusals(request.principal!, null, { id: '', email: input.email, active: input.active, profileId: input.profileId, profile }));
        await assertEmailFree(tx, input.email);
        const [created] = await tx
          .insert(users)
          .values({ ...input, createdAt: now, updatedAt: now })
          .returning();
        await recordAudit(tx, request, { action: 'user.create', entity: 'user', entityId: created!.id, after: snapshot(created!), occurredAt: now });
        if (deps.authConfig.embedded && created!.active) {
          await issuePasswordLink(tx, created!, 'invite', { issuer: deps.authConfig.issuer, now, print: deps.print ?? console.log });
        }
        reply.code(201);
        return await loadDetail(tx, created!.id);
      },
    );

    app.put(
      '/users/:id',
      {
        config: { access: { permission: '/user/user-list' } },
        schema: { tags: ['usuarios'], summary: 'Edita un usuario (rechaza ediciones sobre una versión vieja)', params: idParams, body: userUpdateSchema, response: { 200: userDetailSchema } },
      },
      async (request) => {
        const { version, ...input } = request.body;
        const id = request.params.id;
        const now = deps.clock.now();
        const tx = request.db;
        const { row: before, state } = await lockState(tx, id, version);
        const profile = await loadReferences(tx, input);
        assertNoRefusal(userChangeRefusals(request.principal!, state, { id, email: input.email, active: input.active, profileId: input.profileId, profile }));
        await assertEmailFree(tx, input.email, id);
        const [after] = await tx
          .update(users)
          .set({ ...input, updatedAt: now, version: sql`${users.version} + 1` })
          .where(eq(users.id, id))
          .returning();
        await ensureAnAdministratorRemains(tx);
        await recordAudit(tx, request, { action: 'user.update', entity: 'user', entityId: id, before: snapshot(before), after: snapshot(after!), occurredAt: now });
        if (before.email.toLowerCase() !== after!.email.toLowerCase()) {
          // Links sent to the old address stop working: they would open the account behind the new one.
          await revokePasswordLinks(tx, id, now);
          // The old address hears of it: if the change was not wanted, its owner can tell someone.
          await notify(tx, { companyId: after!.companyId, toEmail: before.email, subject: 'Cambió el correo de tu acceso al portal', body: `El correo de tu usuario del portal cambió de ${before.email} a ${after!.email}. Si no lo pediste, avisa de inmediato al administrador del portal.`, print: deps.print ?? console.log });
        }
        return loadDetail(tx, id);
      },
    );

    app.post(
      '/users/:id/status',
      {
        config: { access: { permission: '/user/user-list' } },
        schema: { tags: ['usuarios'], summary: 'Desactiva o reactiva un usuario', params: idParams, body: userStatusSchema, response: { 200: userDetailSchema } },
      },
      async (request) => {
        const id = request.params.id;
        const { active, version } = request.body;
        const now = deps.clock.now();
        const tx = request.db;
        const { row: before, state } = await lockState(tx, id, version);
        assertNoRefusal(userChangeRefusals(request.principal!, state, { ...state, active }));
        const [after] = await tx
          .update(users)
          .set({ active, updatedAt: now, version: sql`${users.version} + 1` })
          .where(eq(users.id, id))
          .returning();
        await ensureAnAdministratorRemains(tx);
        await recordAudit(tx, request, {
          action: active ? 'user.reactivate' : 'user.deactivate',
          entity: 'user',
          entityId: id,
          before: snapshot(before),
          after: snapshot(after!),
          occurredAt: now,
        });
        return loadDetail(tx, id);
      },
    );

    app.post(
      '/users/:id/access-link',
      {
        // Whoever may create users may give them their access again.
        config: { access: { permission: '/user/user-new' } },
        schema: {
          tags: ['usuarios'],
          summary: 'Reenviar acceso: con el proveedor embebido, un enlace nuevo para crear la contraseña, mostrado una vez a quien lo pide',
          params: idParams,
          response: { 200: accessLinkSchema },
        },
      },
      async (request) => {
        if (!deps.authConfig.embedded) {
          throw new HttpProblem(409, 'Acceso en el proveedor de identidad', 'El acceso de este usuario se administra en el proveedor de identidad de la empresa, no en el portal.');
        }
        const id = request.params.id;
        const now = deps.clock.now();
        const tx = request.db;
        const [user] = await tx
          .select({ id: users.id, email: users.email, companyId: users.companyId, active: users.active, roleCode: profiles.roleCode, permissions: profiles.permissions })
          .from(users)
          .innerJoin(profiles, eq(profiles.id, users.profileId))
          .where(eq(users.id, id));
        if (!user) throw new HttpProblem(404, 'Usuario no encontrado', 'El usuario no existe o fue eliminado.');
        // The link opens the account: only for someone the requester could manage anyway (privileges.ts), never oneself.
        if (user.id === request.principal!.userId) {
          throw new HttpProblem(403, 'Acceso denegado', 'Para tu propio acceso usa «¿Olvidaste tu contraseña?» en la página de inicio de sesión.');
        }
        const reach = beyondReach(request.principal!, user);
        if (reach) throw new HttpProblem(403, 'Acceso denegado', `No puedes reenviar el acceso de este usuario. ${reach}`);
        if (!user.active) throw new HttpProblem(409, 'Usuario inactivo', 'Reactiva al usuario antes de reenviarle su acceso.');
        const link = await issuePasswordLink(tx, user, 'invite', { issuer: deps.authConfig.issuer, now, print: deps.print ?? console.log });
        // The audit records that a link was issued and until when, never the link itself (it is a credential).
        const expiresAt = new Date(now.getTime() + LIFETIME_MS.invite).toISOString();
        await recordAudit(tx, request, { action: 'user.access-link', entity: 'user', entityId: id, after: { email: user.email, expiresAt }, occurredAt: now });
        return { email: user.email, link, expiresAt };
      },
    );

    /** The row as it is now, locked for this transaction; 404 when gone, 409 when edited since `version`. */
    async function lockCurrent(tx: Tx, id: string, version: number) {
      const [current] = await tx.select().from(users).where(eq(users.id, id)).for('update');
      if (!current) throw new HttpProblem(404, 'Usuario no encontrado', 'El usuario no existe o fue eliminado.');
      if (current.version !== version) {
        throw new HttpProblem(409, 'El usuario cambió', 'Otra persona modificó este usuario mientras lo editabas. Recarga la página para ver sus cambios y vuelve a intentarlo.');
      }
      return current;
    }
  };
}
