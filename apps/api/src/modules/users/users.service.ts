import { and, eq, sql } from 'drizzle-orm';
import type { AccessLink, UserDetail, UserInput, UserUpdate } from '@portal/contract';
import type { Tx } from '../../db/client';
import { acrossCompanies } from '../../db/scope';
import { companies, profiles, users } from '../../db/schema/users';
import type { AppDeps } from '../../deps';
import { HttpProblem } from '../../http/errors';
import { lockAtVersion } from '../../http/locking';
import { LIFETIME_MS, issuePasswordLink, revokePasswordLinks } from '../../idp/password-links';
import { endProviderSignIns } from '../../idp/oidc-adapter';
import { queueMail, type MailSettings } from '../shared/mail-queue';
import { recordAudit, type Actor } from '../audit/audit';
import { ensureAnAdministratorRemains } from './administrators';
import { assertNoRefusal, beyondReach, userChangeRefusals } from './privileges';
import { USER_NOT_FOUND, loadUserDetail } from './users.queries';

/** The users area's rules: who may create, edit, switch off and resend access to whom, each write with its audit. */

type UserDeps = Pick<AppDeps, 'clock' | 'authConfig' | 'print' | 'deliverMail'>;
/** The contract's parsed input (the e-mail already lower-cased). */
type UserValues = { [K in keyof UserInput]-?: Exclude<UserInput[K], undefined> };

const EMAIL_TAKEN = { field: 'email', message: 'Ya existe un usuario con ese correo electrónico.' };

/** What an audit event keeps of a user: the editable fields, never the password hash. */
const snapshot = (row: { email: string; name: string | null; profileId: string; companyId: string; active: boolean }) => ({
  email: row.email,
  name: row.name,
  profileId: row.profileId,
  companyId: row.companyId,
  active: row.active,
});

const mail = (deps: UserDeps): MailSettings => ({ deliver: deps.deliverMail ?? false, print: deps.print ?? console.log });

/** The profile being granted (which the privilege rules weigh) and the company, both as the actor may see them. */
async function loadReferences(tx: Tx, input: { profileId: string; companyId: string }) {
  const [profile] = await tx.select().from(profiles).where(eq(profiles.id, input.profileId));
  const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, input.companyId));
  const errors = [
    ...(profile ? [] : [{ field: 'profileId', message: 'El perfil elegido ya no existe.' }]),
    ...(company ? [] : [{ field: 'companyId', message: 'La empresa elegida no existe o no es la tuya.' }]),
    // A company's own profile is for its users only; the common catalogue's, for anyone's.
    ...(profile?.companyId && profile.companyId !== input.companyId
      ? [{ field: 'profileId', message: 'Ese perfil es de otra empresa: elige uno de la empresa del usuario o del catálogo común.' }]
      : []),
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

/** The user as it is now, locked at the edit's version, with its profile: what the privilege rules compare against. */
async function lockState(tx: Tx, id: string, version: number) {
  const before = await lockAtVersion(tx.select().from(users).where(eq(users.id, id)), version, {
    notFound: USER_NOT_FOUND,
    stale: {
      title: 'El usuario cambió',
      detail: 'Otra persona modificó este usuario mientras lo editabas. Recarga la página para ver sus cambios y vuelve a intentarlo.',
    },
  });
  const [profile] = await tx.select().from(profiles).where(eq(profiles.id, before.profileId));
  return { row: before, state: { id, email: before.email, active: before.active, profileId: before.profileId, profile: profile! } };
}

export async function createUser(tx: Tx, actor: Actor, deps: UserDeps, input: UserValues): Promise<UserDetail> {
  const now = deps.clock.now();
  const profile = await loadReferences(tx, input);
  assertNoRefusal(
    userChangeRefusals(actor.principal, null, { id: '', email: input.email, active: input.active, profileId: input.profileId, profile }),
  );
  await assertEmailFree(tx, input.email);
  const [created] = await tx
    .insert(users)
    .values({ ...input, createdAt: now, updatedAt: now })
    .returning();
  await recordAudit(tx, actor, {
    action: 'user.create',
    entity: 'user',
    entityId: created!.id,
    after: snapshot(created!),
    occurredAt: now,
  });
  if (deps.authConfig.embedded && created!.active) {
    await issuePasswordLink(tx, created!, 'invite', { issuer: deps.authConfig.issuer, now, mail: mail(deps) });
  }
  return loadUserDetail(tx, created!.id);
}

export async function updateUser(
  tx: Tx,
  actor: Actor,
  deps: UserDeps,
  id: string,
  { version, ...input }: UserValues & Pick<UserUpdate, 'version'>,
): Promise<UserDetail> {
  const now = deps.clock.now();
  const { row: before, state } = await lockState(tx, id, version);
  const profile = await loadReferences(tx, input);
  assertNoRefusal(
    userChangeRefusals(actor.principal, state, { id, email: input.email, active: input.active, profileId: input.profileId, profile }),
  );
  await assertEmailFree(tx, input.email, id);
  // Who the token names has changed (deactivated, another profile or company, another e-mail): its tokens end here.
  const endsTokens =
    !input.active ||
    input.profileId !== before.profileId ||
    input.companyId !== before.companyId ||
    input.email.toLowerCase() !== before.email.toLowerCase();
  const [after] = await tx
    .update(users)
    .set({
      ...input,
      updatedAt: now,
      version: sql`${users.version} + 1`,
      ...(endsTokens ? { tokensValidAfter: sql`clock_timestamp()` } : {}),
    })
    .where(eq(users.id, id))
    .returning();
  await ensureAnAdministratorRemains(tx);
  if (endsTokens) await endProviderSignIns(tx, id);
  await recordAudit(tx, actor, {
    action: 'user.update',
    entity: 'user',
    entityId: id,
    before: snapshot(before),
    after: snapshot(after!),
    occurredAt: now,
  });
  if (before.email.toLowerCase() !== after!.email.toLowerCase()) {
    // Links sent to the old address stop working: they would open the account behind the new one.
    await revokePasswordLinks(tx, id, now);
    // The old address hears of it: if the change was not wanted, its owner can tell someone.
    await queueMail(
      tx,
      mail(deps),
      {
        companyId: after!.companyId,
        toEmail: before.email,
        content: { kind: 'email-change', oldEmail: before.email, newEmail: after!.email },
      },
      now,
    );
  }
  return loadUserDetail(tx, id);
}

export async function setUserStatus(
  tx: Tx,
  actor: Actor,
  deps: UserDeps,
  id: string,
  { active, version }: { active: boolean; version: number },
): Promise<UserDetail> {
  const now = deps.clock.now();
  const { row: before, state } = await lockState(tx, id, version);
  assertNoRefusal(userChangeRefusals(actor.principal, state, { ...state, active }));
  const [after] = await tx
    .update(users)
    .set({ active, updatedAt: now, version: sql`${users.version} + 1`, ...(active ? {} : { tokensValidAfter: sql`clock_timestamp()` }) })
    .where(eq(users.id, id))
    .returning();
  await ensureAnAdministratorRemains(tx);
  if (!active) await endProviderSignIns(tx, id);
  await recordAudit(tx, actor, {
    action: active ? 'user.reactivate' : 'user.deactivate',
    entity: 'user',
    entityId: id,
    before: snapshot(before),
    after: snapshot(after!),
    occurredAt: now,
  });
  return loadUserDetail(tx, id);
}

/** "Reenviar acceso": a new set-password link, shown once to whoever asked, for a user they could manage anyway. */
export async function issueAccessLink(tx: Tx, actor: Actor, deps: UserDeps, id: string): Promise<AccessLink> {
  if (!deps.authConfig.embedded) {
    throw new HttpProblem(
      409,
      'Acceso en el proveedor de identidad',
      'El acceso de este usuario se administra en el proveedor de identidad de la empresa, no en el portal.',
    );
  }
  const now = deps.clock.now();
  const [user] = await tx
    .select({
      id: users.id,
      email: users.email,
      companyId: users.companyId,
      active: users.active,
      roleCode: profiles.roleCode,
      permissions: profiles.permissions,
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.id, users.profileId))
    .where(eq(users.id, id));
  if (!user) throw new HttpProblem(404, USER_NOT_FOUND.title, USER_NOT_FOUND.detail);
  // The link opens the account: only for someone the requester could manage anyway (privileges.ts), never oneself.
  if (user.id === actor.principal.userId) {
    throw new HttpProblem(
      403,
      'Acceso denegado',
      'Para tu propio acceso usa «¿Olvidaste tu contraseña?» en la página de inicio de sesión.',
    );
  }
  const reach = beyondReach(actor.principal, user);
  if (reach) throw new HttpProblem(403, 'Acceso denegado', `No puedes reenviar el acceso de este usuario. ${reach}`);
  if (!user.active) throw new HttpProblem(409, 'Usuario inactivo', 'Reactiva al usuario antes de reenviarle su acceso.');
  const link = await issuePasswordLink(tx, user, 'invite', { issuer: deps.authConfig.issuer, now, mail: mail(deps) });
  // The audit records that a link was issued and until when, never the link itself (it is a credential).
  const expiresAt = new Date(now.getTime() + LIFETIME_MS.invite).toISOString();
  await recordAudit(tx, actor, {
    action: 'user.access-link',
    entity: 'user',
    entityId: id,
    after: { email: user.email, expiresAt },
    occurredAt: now,
  });
  return { email: user.email, link, expiresAt };
}
