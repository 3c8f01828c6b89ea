import { and, count, eq, sql } from 'drizzle-orm';
import { ALL_PERMISSION_PATHS } from '@portal/contract';
import type { Tx } from '../../db/client';
import { acrossCompanies } from '../../db/scope';
import { profiles, users } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';

/** The advisory-lock class of the last-administrator rule (first key of pg_advisory_xact_lock(int, int)). */
const ADMINISTRATORS_LOCK_CLASS = 15_002;

/**
 * The last-administrator rule: after any change to users or profiles, at least one active user must still hold
 * every permission. Checked inside the change's transaction, after the write, so throwing rolls the change back.
 * The checks take turns (a lock held to the end of the transaction): two changes that each take away a different
 * administrator would otherwise each count the other's still uncommitted, both pass, and leave none. Each count then
 * starts after the change before it has committed, and sees it.
 */
export async function ensureAnAdministratorRemains(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ADMINISTRATORS_LOCK_CLASS}::int, 0)`);
  const every = sql`array[${sql.join(
    ALL_PERMISSION_PATHS.map((path) => sql`${path}`),
    sql`, `,
  )}]::text[]`;
  // A rule of the whole portal: counted across companies, whoever's change it checks.
  const [row] = await acrossCompanies(tx, (all) =>
    all
      .select({ total: count() })
      .from(users)
      .innerJoin(profiles, eq(profiles.id, users.profileId))
      .where(and(eq(users.active, true), sql`${profiles.permissions} @> ${every}`)),
  );
  if ((row?.total ?? 0) === 0) {
    throw new HttpProblem(
      409,
      'Debe quedar un administrador',
      'Este cambio dejaría al portal sin ningún usuario activo con todos los permisos. Asigna primero ese perfil a otro usuario activo.',
    );
  }
}
