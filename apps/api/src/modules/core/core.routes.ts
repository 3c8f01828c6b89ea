import type { FastifyPluginAsync } from 'fastify';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { sessionRoutes, type UserLookupRecord } from '@portal/contract';
import { profiles, users } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { acrossCompanies } from '../../db/scope';
import type { AppDeps } from '../../deps';
import { register } from '../../http/register';

/** How precisely a user's last sign-in is kept: a lookup within this time of the one recorded writes nothing. */
const SIGN_IN_PRECISION_MS = 60_000;

/**
 * The core service's user lookup, kept in the seed's shape (seed section 7) so the sign-in checks stay the same:
 * `data[0]` is a JSON string whose `permissions` is a JSON string of `{ path }` items.
 */
export function coreRoutes(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    register(app, sessionRoutes.userByEmail, async (request) => {
      const wanted = request.params.email.trim().toLowerCase();
      const own = request.identity!.email.toLowerCase() === wanted;
      if (!own && !request.principal?.permissions.has('/user/user-list')) {
        throw new HttpProblem(403, 'Acceso denegado', 'Solo puedes consultar tu propio usuario.');
      }
      // One's own row is found whatever one's company (an inactive user is told so); anyone else's, only within scope.
      const lookup = (db: typeof request.db) =>
        db
          .select({
            id: users.id,
            email: users.email,
            name: users.name,
            active: users.active,
            companyId: users.companyId,
            role: profiles.roleCode,
            permissions: profiles.permissions,
          })
          .from(users)
          .innerJoin(profiles, eq(profiles.id, users.profileId))
          .where(sql`lower(${users.email}) = ${wanted}`)
          .limit(1);
      const [row] = own
        ? await acrossCompanies(request.db, async (db) => {
            const found = await lookup(db);
            // The browser calls this right after the provider's sign-in: it is the user's last sign-in, kept to the
            // minute. A row already written within the minute is left alone and not locked, so that a burst of lookups
            // by one user (tabs, replicas, the load test's 50 connections) does not queue on that row's lock, each
            // waiting for the commit before it.
            if (found[0]?.active) {
              const now = deps.clock.now();
              await db
                .update(users)
                .set({ lastSignInAt: now })
                .where(
                  and(
                    eq(users.id, found[0].id),
                    or(isNull(users.lastSignInAt), lt(users.lastSignInAt, new Date(now.getTime() - SIGN_IN_PRECISION_MS))),
                  ),
                );
            }
            return found;
          })
        : await lookup(request.db);
      if (!row) throw new HttpProblem(404, 'Usuario no encontrado', 'El usuario no está registrado en el portal.');
      if (!row.active) throw new HttpProblem(403, 'Usuario inactivo', 'El usuario está desactivado en el portal.');
      const record: UserLookupRecord = {
        id: row.id,
        email: row.email,
        keyuser: row.name,
        profile: row.role,
        companyid: row.companyId,
        permissions: JSON.stringify(row.permissions.map((path) => ({ path }))),
      };
      return { data: [JSON.stringify(record)] };
    });
  };
}
