import { NAV_GROUPS, type NavGroup } from '@portal/contract';
import type { Session } from './auth/session';

/**
 * The sidebar a user sees (seed section 6): a flagged item shows only with its path in the permission list, an
 * unflagged one always; a group with no visible item is hidden. Order and labels are the seed's.
 */
export function visibleNavigation(session: Pick<Session, 'permissions'> | null): NavGroup[] {
  const granted = new Set(session?.permissions.map((permission) => permission.path));
  return NAV_GROUPS.map((group) => ({
    key: group.key,
    label: group.label,
    items: group.items.filter((entry) => !entry.requiresPermission || granted.has(entry.path)),
  })).filter((group) => group.items.length > 0);
}
