import { and, eq, is, type SQL } from 'drizzle-orm';
import { PgColumn } from 'drizzle-orm/pg-core';
import type { UserDetail, UserListItem, UserListQuery } from '@portal/contract';
import type { Db } from '../../db/client';
import { fixedSelect } from '../../db/fixed-select';
import { companies, profiles, users } from '../../db/schema/users';
import { searchMatches } from '../../db/like';
import { anyOf } from '../../db/any-of';
import { matchingIds, type MatchingIds } from '../../db/company-search';
import { HttpProblem } from '../../http/errors';
import { fixedCount, listOrder, type Paged, pagedList, pageKeys, searchCount, sortOf, type SortMap } from '../../http/pagination';
import { auditHistory } from '../audit/audit';

/** The users list's selects and row mapper: the page, its count, the Excel export and the detail read the same columns. */

const SORT_COLUMNS: SortMap = {
  email: users.email,
  name: users.name,
  profile: profiles.name,
  company: companies.name,
  active: users.active,
  lastSignInAt: users.lastSignInAt,
  createdAt: users.createdAt,
};

/** The list's filters, shared by the page, its count and the Excel export. */
export function userFilters(
  query: Pick<UserListQuery, 'q' | 'profileId' | 'companyId' | 'status'>,
  /** The users the search matches, asked first (decisions 0034, 0035); absent: read in the filter. */
  userIds?: MatchingIds,
): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.q) {
    conditions.push(userIds ? anyOf(users.id, userIds) : searchMatches(users.searchText, query.q));
  }
  if (query.profileId) conditions.push(eq(users.profileId, query.profileId));
  if (query.companyId) conditions.push(eq(users.companyId, query.companyId));
  if (query.status) conditions.push(eq(users.active, query.status === 'active'));
  return and(...conditions);
}

const DEFAULT_SORT = { field: 'email' };
export const userOrder = (sort: string | undefined): SQL[] => listOrder(SORT_COLUMNS, sort, DEFAULT_SORT, users.id);

/** Whether the list's sort reads a column of users itself (not a joined profile's or company's name). */
const sortedOnUsers = (sort: string | undefined) => {
  const { column } = sortOf(SORT_COLUMNS, sort, DEFAULT_SORT);
  return is(column, PgColumn) && column.table === users;
};

const userList = fixedSelect(
  {
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
  },
  (select) =>
    select.from(users).innerJoin(profiles, eq(profiles.id, users.profileId)).innerJoin(companies, eq(companies.id, users.companyId)),
);

export const userListSelect = (db: Db) => userList.in(db);

export function toListItem(row: Awaited<ReturnType<typeof userListSelect>>[number]): UserListItem {
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

const userCount = fixedCount((select) => select.from(users));

/** The users list; `twoSteps`: a search asking the matching users first (decisions 0034, 0035). */
export async function listUsers(db: Db, query: UserListQuery, twoSteps = false): Promise<Paged<UserListItem>> {
  const userIds = twoSteps && query.q ? await matchingIds(db, 'users', query.q) : undefined;
  const where = userFilters(query, userIds);
  const order = userOrder(query.sort);
  // A search sorted by a column of users picks its page's users first and joins their profile and company for those
  // only (decision 0039): `maria` matches 1,667 of 20,000 users, whose names were joined before the sort kept 25. Every
  // user's profile and company are visible wherever the user is (the common catalogue's or its company's profile,
  // users.service.ts), so the page holds the same rows.
  const keysFirst = Boolean(query.q) && sortedOnUsers(query.sort);
  return pagedList(
    keysFirst ? { page: 1, pageSize: query.pageSize } : query,
    userListSelect(db)
      .where(keysFirst ? pageKeys(query, users.id, users, where, order) : where)
      .orderBy(...order),
    searchCount(userIds, query, () => userCount.in(db).where(where)),
    toListItem,
  );
}

export const USER_NOT_FOUND = { title: 'Usuario no encontrado', detail: 'El usuario no existe o fue eliminado.' };

export async function loadUserDetail(db: Db, id: string): Promise<UserDetail> {
  const [row] = await userListSelect(db).where(eq(users.id, id));
  if (!row) throw new HttpProblem(404, USER_NOT_FOUND.title, USER_NOT_FOUND.detail);
  return { ...toListItem(row), createdAt: row.createdAt.toISOString(), history: await auditHistory(db, 'user', id) };
}
