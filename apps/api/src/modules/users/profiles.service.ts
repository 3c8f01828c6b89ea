import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { Profile, ProfileInput } from '@portal/contract';
import type { Tx } from '../../db/client';
import { acrossCompanies } from '../../db/scope';
import { profiles, users } from '../../db/schema/users';
import type { Principal } from '../../http/auth';
import { ALL_COMPANIES_ROLE } from '../../http/company-scope';
import { HttpProblem } from '../../http/errors';
import { assertVersion, lockForUpdate } from '../../http/locking';
import { recordAudit, type Actor } from '../audit/audit';
import { ensureAnAdministratorRemains } from './administrators';
import { assertNoRefusal, profileChangeRefusals, type ProfileGrant } from './privileges';
import { listProfiles } from './profiles.queries';

/** Profiles' rules: create, edit and delete under the privilege rules and the last-administrator rule, audited. */

type ProfileValues = Required<ProfileInput>;

const NAME_TAKEN = { field: 'name', message: 'Ya existe un perfil con ese nombre.' };

/** Whether users of a company other than `companyId` hold the profile: only SA may then change it. */
async function heldInOtherCompanies(tx: Tx, profileId: string, companyId: string): Promise<boolean> {
  const [row] = await acrossCompanies(tx, (all) =>
    all
      .select({ total: count() })
      .from(users)
      .where(and(eq(users.profileId, profileId), ne(users.companyId, companyId))),
  );
  return (row?.total ?? 0) > 0;
}

/** What a profile grants: what the privilege rules weigh and what its audit events keep. */
const grantOf = (row: { name: string; roleCode: string; permissions: string[] }) => ({
  name: row.name,
  roleCode: row.roleCode,
  permissions: row.permissions,
});

/** The profile locked for a change by `actor` into `after` (itself when deleting), refused by the privilege rules. */
async function lockForChange(tx: Tx, actor: Principal, id: string, after?: ProfileGrant) {
  const notFound = { title: 'Perfil no encontrado', detail: 'El perfil no existe o fue eliminado.' };
  // Read before it is locked: a company's user cannot lock (row-level security) the common catalogue's profile it
  // sees, and is told why instead of "not found".
  const [seen] = await tx.select().from(profiles).where(eq(profiles.id, id));
  if (!seen) throw new HttpProblem(404, notFound.title, notFound.detail);
  assertNoRefusal(profileChangeRefusals(actor, { ...seen, heldInOtherCompanies: false }, after ?? seen));
  const current = await lockForUpdate(tx.select().from(profiles).where(eq(profiles.id, id)), notFound);
  const heldElsewhere = await heldInOtherCompanies(tx, id, actor.companyId);
  assertNoRefusal(profileChangeRefusals(actor, { ...current, heldInOtherCompanies: heldElsewhere }, after ?? current));
  return current;
}

/** A profile's name is unique in the whole portal (another company's profiles included, which the actor does not see). */
async function assertNameFree(tx: Tx, name: string, exceptId?: string) {
  const [taken] = await acrossCompanies(tx, (all) =>
    all
      .select({ id: profiles.id })
      .from(profiles)
      .where(
        exceptId
          ? sql`lower(${profiles.name}) = ${name.toLowerCase()} and ${profiles.id} <> ${exceptId}`
          : sql`lower(${profiles.name}) = ${name.toLowerCase()}`,
      ),
  );
  if (taken) throw new HttpProblem(409, 'Perfil duplicado', NAME_TAKEN.message, [NAME_TAKEN]);
}

export async function createProfile(tx: Tx, actor: Actor, now: Date, input: ProfileValues): Promise<Profile> {
  assertNoRefusal(profileChangeRefusals(actor.principal, null, input));
  await assertNameFree(tx, input.name);
  // SA adds to the common catalogue; a company's administrator, to the company's own profiles.
  const companyId = actor.principal.role === ALL_COMPANIES_ROLE ? null : actor.principal.companyId;
  const [created] = await tx
    .insert(profiles)
    .values({ ...input, companyId, createdAt: now, updatedAt: now })
    .returning();
  await recordAudit(tx, actor, {
    action: 'profile.create',
    entity: 'profile',
    entityId: created!.id,
    after: { ...input, companyId },
    occurredAt: now,
  });
  const [profile] = await listProfiles(tx, created!.id);
  return profile!;
}

export async function updateProfile(
  tx: Tx,
  actor: Actor,
  now: Date,
  id: string,
  { version, ...input }: ProfileValues & { version: number },
): Promise<Profile> {
  const current = await lockForChange(tx, actor.principal, id, input);
  assertVersion(current, version, {
    title: 'El perfil cambió',
    detail: 'Otra persona modificó este perfil mientras lo editabas. Recarga la página y vuelve a intentarlo.',
  });
  await assertNameFree(tx, input.name, id);
  await tx
    .update(profiles)
    .set({ ...input, updatedAt: now, version: sql`${profiles.version} + 1` })
    .where(eq(profiles.id, id));
  await ensureAnAdministratorRemains(tx);
  await recordAudit(tx, actor, {
    action: 'profile.update',
    entity: 'profile',
    entityId: id,
    before: grantOf(current),
    after: input,
    occurredAt: now,
  });
  const [profile] = await listProfiles(tx, id);
  return profile!;
}

export async function deleteProfile(tx: Tx, actor: Actor, now: Date, id: string): Promise<void> {
  const current = await lockForChange(tx, actor.principal, id);
  const [holders] = await acrossCompanies(tx, (all) => all.select({ total: count() }).from(users).where(eq(users.profileId, id)));
  if ((holders?.total ?? 0) > 0) {
    throw new HttpProblem(
      409,
      'Perfil en uso',
      `No se puede eliminar: ${holders!.total} usuario(s) tienen este perfil. Asígnales otro primero.`,
    );
  }
  await tx.delete(profiles).where(eq(profiles.id, id));
  await recordAudit(tx, actor, {
    action: 'profile.delete',
    entity: 'profile',
    entityId: id,
    before: grantOf(current),
    occurredAt: now,
  });
}
