import type { FieldError } from '@portal/contract';
import { HttpProblem } from '../../http/errors';
import type { Principal } from '../../http/auth';
import { ALL_COMPANIES_ROLE } from '../../http/company-scope';

/**
 * Who may change whose profile, e-mail and status, and which profiles they may grant: every rule in one place, so
 * the users and profiles routes ask the same questions and a table test covers them all.
 *
 * The principle: nobody raises their own privileges or reaches anyone more privileged than themselves. A profile is
 * "within reach" of an actor when it grants nothing the actor lacks (and role SA only to an SA).
 */
export type Actor = Pick<Principal, 'userId' | 'role' | 'permissions'>;

export interface ProfileGrant {
  roleCode: string;
  permissions: readonly string[];
}

export interface Refusal extends FieldError {
  status: 403 | 409;
}

export const CHANGE_PROFILE = '/actions/users/change-profile';
export const CHANGE_EMAIL = '/actions/users/change-email';

/** Why `actor` may not grant (or hold sway over someone holding) `profile`; null when it may. */
export function beyondReach(actor: Actor, profile: ProfileGrant): string | null {
  if (profile.roleCode === ALL_COMPANIES_ROLE && actor.role !== ALL_COMPANIES_ROLE) {
    return 'Solo un usuario con rol SA puede otorgar o administrar un perfil con rol SA.';
  }
  const missing = profile.permissions.filter((path) => !actor.permissions.has(path));
  return missing.length > 0 ? `Ese perfil tiene permisos que tú no tienes: ${missing.join(', ')}.` : null;
}

export interface UserState {
  id: string;
  email: string;
  active: boolean;
  profileId: string;
  profile: ProfileGrant;
}

/**
 * Refusals for turning `before` into `after` (a new user has no `before`). Field errors point at the form field the
 * rule is about; the first one's status is the answer's.
 */
export function userChangeRefusals(actor: Actor, before: UserState | null, after: UserState): Refusal[] {
  const refusals: Refusal[] = [];
  const self = before !== null && before.id === actor.userId;
  if (before) {
    const reach = beyondReach(actor, before.profile);
    if (reach && !self) {
      refusals.push({ status: 403, field: 'profileId', message: `No puedes modificar a este usuario. ${reach}` });
      return refusals;
    }
  }
  const profileChanges = before === null || before.profileId !== after.profileId;
  if (profileChanges) {
    if (self) refusals.push({ status: 403, field: 'profileId', message: 'No puedes cambiar tu propio perfil.' });
    else if (before && !actor.permissions.has(CHANGE_PROFILE)) {
      refusals.push({ status: 403, field: 'profileId', message: 'Tu perfil no tiene el permiso para cambiar el perfil de un usuario.' });
    } else {
      const reach = beyondReach(actor, after.profile);
      if (reach) refusals.push({ status: 403, field: 'profileId', message: reach });
    }
  }
  if (before && before.email.toLowerCase() !== after.email.toLowerCase() && !actor.permissions.has(CHANGE_EMAIL)) {
    refusals.push({ status: 403, field: 'email', message: 'Tu perfil no tiene el permiso para cambiar el correo de un usuario.' });
  }
  if (self && before.active && !after.active) {
    refusals.push({ status: 409, field: 'active', message: 'No puedes desactivar tu propio usuario.' });
  }
  return refusals;
}

/**
 * Refusals for creating (`before` null) or editing a profile: never one's own, never beyond one's own permissions
 * (before or after the edit), and, for a user who is not SA, only a profile of the user's own company (not the
 * portal's common catalogue; another company's a user never sees) that no user of another company holds.
 */
export function profileChangeRefusals(
  actor: Actor & { profileId: string; companyId: string },
  before: (ProfileGrant & { id: string; companyId: string | null; heldInOtherCompanies: boolean }) | null,
  after: ProfileGrant,
): Refusal[] {
  if (before && before.id === actor.profileId) {
    return [{ status: 403, field: 'permissions', message: 'No puedes modificar el perfil que tú tienes.' }];
  }
  if (before && before.companyId !== actor.companyId && actor.role !== ALL_COMPANIES_ROLE) {
    return [
      {
        status: 403,
        field: 'permissions',
        message: 'Este perfil es del catálogo común del portal: solo un usuario con rol SA puede modificarlo.',
      },
    ];
  }
  if (before && before.heldInOtherCompanies && actor.role !== ALL_COMPANIES_ROLE) {
    return [
      {
        status: 403,
        field: 'permissions',
        message: 'Usuarios de otras empresas tienen este perfil: solo un usuario con rol SA puede modificarlo.',
      },
    ];
  }
  const reach = (before ? beyondReach(actor, before) : null) ?? beyondReach(actor, after);
  return reach ? [{ status: 403, field: 'permissions', message: reach }] : [];
}

/** Answers the first refusal's status, every refusal as a field error; nothing when there is none. */
export function assertNoRefusal(refusals: Refusal[]): void {
  const [first] = refusals;
  if (!first) return;
  const errors = refusals.map(({ field, message }) => ({ field, message }));
  throw new HttpProblem(first.status, first.status === 403 ? 'Acceso denegado' : 'Cambio no permitido', first.message, errors);
}
