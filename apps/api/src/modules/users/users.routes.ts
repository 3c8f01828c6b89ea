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
import type { Tx } from '../../db/client';
import { companies, profiles, users } from '../../db/schema';
import { HttpProblem } from '../../plugins/errors';
import { sendXlsx } from '../../lib/xlsx-export';
import { LIFETIME_MS, issuePasswordLink } from '../../idp/password-links';
import type { AppDeps } from '../../app';
import { auditHistory, recordAudit } from '../audit/audit';
import { ensureAnAdministratorRemains } from './administrators';
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
    async function loadDetail(id: string): Promise<UserDetail> {
      const [row] = await userListSelect(deps.db).where(eq(users.id, id));
      if (!row) throw new HttpProblem(404, 'Usuario no encontrado', 'El usuario no existe o fue eliminado.');
      return { ...toListItem(row), createdAt: row.createdAt.toISOString(), history: await auditHistory(deps.db, 'user', id) };
    }

    async function assertReferences(tx: Tx, input: { profileId: string; companyId: string }) {
      const [profile] = await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, input.profileId));
      const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, input.companyId));
      const errors = [
        ...(profile ? [] : [{ field: 'profileId', message: 'El perfil elegido ya no existe.' }]),
        ...(company ? [] : [{ field: 'companyId', message: 'La empresa elegida no existe.' }]),
      ];
      if (errors.length) throw new HttpProblem(400, 'Datos inválidos', 'Revisa los campos marcados.', errors);
    }

    async function assertEmailFree(tx: Tx, email: string, exceptId?: string) {
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, exceptId ? sql`${users.id} <> ${exceptId}` : undefined));
      if (taken) throw new HttpProblem(409, 'Correo ya registrado', EMAIL_TAKEN.message, [EMAIL_TAKEN]);
    }

    app.get(
      '/users',
      {
        config: { access: { permission: '/user/user-list' } },
        schema: { tags: ['usuarios'], summary: 'Lista de usuarios (paginada, ordenada y filtrada en SQL)', querystring: userListQuerySchema, response: { 200: userListResponseSchema } },
      },
      async (request) => listUsers(deps.db, request.query),
    );

    app.get(
      '/users/export.xlsx',
      {
        config: { access: { permission: '/user/user-list' } },
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
          read: (offset, limit) => userListSelect(deps.db).where(where).orderBy(...order).limit(limit).offset(offset),
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
      async (request) => loadDetail(request.params.id),
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
        const id = await deps.db.transaction(async (tx) => {
          await assertReferences(tx, input);
          await assertEmailFree(tx, input.email);
          const [created] = await tx
            .insert(users)
            .values({ ...input, createdAt: now, updatedAt: now })
            .returning();
          await recordAudit(tx, request, { action: 'user.create', entity: 'user', entityId: created!.id, after: snapshot(created!), occurredAt: now });
          if (deps.authConfig.embedded && created!.active) {
            await issuePasswordLink(tx, created!, 'invite', { issuer: deps.authConfig.issuer, now, print: deps.print ?? console.log });
          }
          return created!.id;
        });
        return reply.code(201).send(await loadDetail(id));
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
        await deps.db.transaction(async (tx) => {
          const before = await lockCurrent(tx, id, version);
          if (!input.active && id === request.principal!.userId) {
            throw new HttpProblem(409, 'No puedes desactivarte', 'No puedes desactivar tu propio usuario.', [{ field: 'active', message: 'No puedes desactivar tu propio usuario.' }]);
          }
          await assertReferences(tx, input);
          await assertEmailFree(tx, input.email, id);
          const [after] = await tx
            .update(users)
            .set({ ...input, updatedAt: now, version: sql`${users.version} + 1` })
            .where(eq(users.id, id))
            .returning();
          await ensureAnAdministratorRemains(tx);
          await recordAudit(tx, request, { action: 'user.update', entity: 'user', entityId: id, before: snapshot(before), after: snapshot(after!), occurredAt: now });
        });
        return loadDetail(id);
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
        await deps.db.transaction(async (tx) => {
          const before = await lockCurrent(tx, id, version);
          if (!active && id === request.principal!.userId) {
            throw new HttpProblem(409, 'No puedes desactivarte', 'No puedes desactivar tu propio usuario.');
          }
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
        });
        return loadDetail(id);
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
        return deps.db.transaction(async (tx) => {
          const [user] = await tx.select({ id: users.id, email: users.email, active: users.active }).from(users).where(eq(users.id, id));
          if (!user) throw new HttpProblem(404, 'Usuario no encontrado', 'El usuario no existe o fue eliminado.');
          if (!user.active) throw new HttpProblem(409, 'Usuario inactivo', 'Reactiva al usuario antes de reenviarle su acceso.');
          const link = await issuePasswordLink(tx, user, 'invite', { issuer: deps.authConfig.issuer, now, print: deps.print ?? console.log });
          // The audit records that a link was issued and until when, never the link itself (it is a credential).
          const expiresAt = new Date(now.getTime() + LIFETIME_MS.invite).toISOString();
          await recordAudit(tx, request, { action: 'user.access-link', entity: 'user', entityId: id, after: { email: user.email, expiresAt }, occurredAt: now });
          return { email: user.email, link, expiresAt };
        });
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
