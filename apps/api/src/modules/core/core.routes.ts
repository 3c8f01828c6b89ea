import type { FastifyPluginAsync } from 'fastify';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { sessionRoutes, type UserLookupRecord } from '@portal/contract';
import { profiles, users } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { ALL_COMPANIES_ROLE_NAME } from '../../db/scope';
import { together, type Tx } from '../../db/client';
import type { AppDeps } from '../../deps';
import { register } from '../../http/register';

/** How precisely a user's last sign-in is kept: a lookup within this time of the one recorded writes nothing. */
const SIGN_IN_PRECISION_MS = 60_000;

/**
 * The browser calls the lookup right after the provider's sign-in: it is the user's last sign-in, kept to the minute.
 * A row this process wrote within the minute is not written again, and one written within it elsewhere (another
 * process) is left alone and not locked, so that a burst of lookups by one user (tabs, replicas, the load test's 50
 * connections) neither queues on that row's lock nor sends a statement each. The user's own row is in the request's
 * scope (their company; every company for SA).
 */
function signInRecorder(clock: AppDeps['clock']) {
  const written = new Map<string, number>();
  /** This process recorded the user's sign-in within the minute: a lookup now writes nothing. */
  const recent = (userId: string, now: Date): boolean => {
    const last = written.get(userId);
    return last !== undefined && now.getTime() - last < SIGN_IN_PRECISION_MS && now.getTime() >= last;
  };
  const record = (db: Tx, userId: string): Promise<unknown> => {
    const now = clock.now();
    if (recent(userId, now)) return Promise.resolve();
    if (written.size >= 10_000) written.clear();
    written.set(userId, now.getTime());
    return db
      .update(users)
      .set({ lastSignInAt: now })
      .where(
        and(eq(users.id, userId), or(isNull(users.lastSignInAt), lt(users.lastSignInAt, new Date(now.getTime() - SIGN_IN_PRECISION_MS)))),
      )
      .then(undefined, (error: unknown) => {
        written.delete(userId);
        throw error;
      });
  };
  return { record, recent: (userId: string) => recent(userId, clock.now()) };
}

/**
 * The core service's user lookup, kept in the seed's shape (seed section 7) so the sign-in checks stay the same:
 * `data[0]` is a JSON string whose `permissions` is a JSON string of `{ path }` items.
 */
export function coreRoutes(deps: AppDeps): FastifyPluginAsync {
  const signIns = signInRecorder(deps.clock);
  /** Whether the request looks up its own user (the token's e-mail), however the address is spelled. */
  const asksForSelf = (request: { identity: { email: string } | null; params: unknown }) =>
    request.identity?.email.toLowerCase() === (request.params as { email: string }).email.trim().toLowerCase();
  return async (app) => {
    register(
      app,
      sessionRoutes.userByEmail,
      async (request) => {
        const wanted = request.params.email.trim().toLowerCase();
        const own = asksForSelf(request);
        // Null when the request was answered without a transaction (answersWithoutDatabase below).
        const db = request.db as typeof request.db | null;
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
        const principal = request.principal;
        // Every statement below is sent before any answer is awaited (readsInOneTurn): the whole lookup is one exchange
        // with PostgreSQL, BEGIN and COMMIT included.
        const [row] =
          own && principal
            ? // One's own active row is the request's principal, loaded with the token's check (auth.ts): nothing to read,
              // and without a transaction nothing to write either (its sign-in was recorded this minute).
              await (db ? signIns.record(db, principal.userId) : Promise.resolve()).then(() => [
                {
                  id: principal.userId,
                  email: principal.email,
                  name: principal.name,
                  active: true,
                  companyId: principal.companyId,
                  role: principal.role,
                  permissions: [...principal.permissions],
                },
              ])
            : own
              ? // No active user has the token's e-mail: an inactive one is looked for across companies (the role is the
                // transaction's own and ends with it, with nothing else read in it).
                (
                  await together(request.db, request.db.execute(sql.raw(`set local role ${ALL_COMPANIES_ROLE_NAME}`)), lookup(request.db))
                )[1]
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
      },
      {
        readsInOneTurn: true,
        // One's own lookup, its sign-in recorded by this process within the minute, is the principal itself: no
        // transaction, no exchange with PostgreSQL (the token, its session and the user were checked by auth.ts).
        answersWithoutDatabase: (request) => asksForSelf(request) && request.principal !== null && signIns.recent(request.principal.userId),
      },
    );
  };
}
