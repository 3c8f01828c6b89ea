import { asc, count, eq, sql } from 'drizzle-orm';
import type { Company, Profile } from '@portal/contract';
import type { Db } from '../../db/client';
import { companies, profiles, users } from '../../db/schema/users';

/** Profiles with how many users hold each (one profile when `id` is given), by name. */
export async function listProfiles(db: Db, id?: string): Promise<Profile[]> {
  const userCount = db
    .select({ profileId: users.profileId, total: count().as('total') })
    .from(users)
    .groupBy(users.profileId)
    .as('user_count');
  const rows = await db
    .select({
      id: profiles.id,
      companyId: profiles.companyId,
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

/** The companies a user (or an agreement) can belong to, as the reader may see them. */
export const listCompanies = (db: Db): Promise<Company[]> =>
  db.select({ id: companies.id, code: companies.code, name: companies.name }).from(companies).orderBy(asc(companies.name));
