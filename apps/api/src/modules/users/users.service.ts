import { and, asc, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { UserListItem, UserListQuery, UserSortField } from '@portal/contract';
import type { Db } from '../../db/client';
import { companies, profiles, users } from '../../db/schema';
import { containsPattern } from '../../db/like';

const SORT_COLUMNS: Record<UserSortField, AnyPgColumn> = {
  email: users.email,
  name: users.name,
  profile: profiles.name,
  company: companies.name,
  active: users.active,
  lastSignInAt: users.lastSignInAt,
  createdAt: users.createdAt,
};

/** The list's filters, shared by the page, its count and the Excel export. */
export function userFilters(query: Pick<UserListQuery, 'q' | 'profileId' | 'companyId' | 'status'>): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.q) {
    const pattern = containsPattern(query.q);
    conditions.push(or(ilike(users.email, pattern), ilike(users.name, pattern)));
  }
  if (query.profileId) conditions.push(eq(users.profileId, query.profileId));
  if (query.companyId) conditions.push(eq(users.companyId, query.companyId));
  if (query.status) conditions.push(eq(users.active, query.status === 'active'));
  return and(...conditions);
}

export function userOrder(sort: string | undefined): SQL[] {
  const descending = sort?.startsWith('-') ?? false;
  const field = (sort?.replace(/^-/, '') ?? 'email') as UserSortField;
  const column = SORT_COLUMNS[field] ?? users.email;
  // The id breaks ties so that pages never repeat or skip a row; both go the same way so one index serves each order
  // (PostgreSQL's default: empty values last going up, first going down).
  return descending ? [desc(column), desc(users.id)] : [asc(column), asc(users.id)];
}

export const userListColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  profileId: users.profileId,
  profile: profiles.name,
  companyId: users.companyId,
  company: companies.name,
  active: users.active,
  lastSignInAt: users.lastSignInAt,
  version: users.version,
  createdAt: users.createdAt,
};

export function userListSelect(db: Db) {
  return db
    .select(userListColumns)
    .from(users)
    .innerJoin(profiles, eq(profiles.id, users.profileId))
    .innerJoin(companies, eq(companies.id, users.companyId));
}

export function toListItem(row: Awaited<ReturnType<ReturnType<typeof userListSelect>['execute']>>[number]): UserListItem {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    profileId: row.profileId,
    profile: row.profile,
    companyId: row.companyId,
    company: row.company,
    active: row.active,
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    version: row.version,
  };
}

export async function listUsers(db: Db, query: UserListQuery): Promise<{ items: UserListItem[]; total: number }> {
  const where = userFilters(query);
  const [rows, [totals]] = await Promise.all([
    userListSelect(db)
      .where(where)
      .orderBy(...userOrder(query.sort))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { items: rows.map(toListItem), total: totals?.total ?? 0 };
}

