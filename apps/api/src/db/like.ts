import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/** An ILIKE pattern that finds `text` anywhere, its own %, _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/** An ILIKE pattern for values that start with `text` (an index range), its own %, _ and \ taken literally. */
export function prefixPattern(text: string): string {
  return `${escapeLike(text)}%`;
}

/** The accented letters of Spanish names and e-mails, and the plain letters a search reads them as. */
const ACCENTED = 'áéíóúüñÁÉÍÓÚÜÑ';
const PLAIN = 'aeiouunaeiouun';

/**
 * Text as a search compares it: lower case and without accents (`María` and `MARIA` read `maria`). An immutable
 * expression, so a trigram index can be built on it (decision 0031); a search writes its pattern the same way
 * (searchPattern) and compares with LIKE, which reads each candidate row far faster than ILIKE.
 */
export function searchable(text: SQL): SQL {
  return sql`translate(lower(${text}), ${sql.raw(`'${ACCENTED}'`)}, ${sql.raw(`'${PLAIN}'`)})`;
}

/**
 * `searchText` (a column that keeps a searchable expression: users', clients' and requests' search_text) contains
 * `text` anywhere, read the same way. The pattern is read once, in a subquery: a prepared statement's generic plan
 * (db/statement-cache.ts) otherwise computes its translate(lower(…)) again for every row it compares (decision 0036);
 * the trigram indexes take the subquery's value as they take a constant.
 */
export function searchMatches(searchText: SQL | AnyColumn, text: string): SQL {
  return sql`${searchText} like (select ${searchable(sql`${containsPattern(text)}`)})`;
}

/** A person's full name (a client's, a request's) as its search reads it: the expression their search_text keeps. */
export const personSearchText = (person: { firstNames: AnyColumn | SQL; lastName1: AnyColumn | SQL; lastName2: AnyColumn | SQL }): SQL =>
  searchable(sql`${person.firstNames} || ' ' || ${person.lastName1} || ' ' || coalesce(${person.lastName2}, '')`);

/** A user's e-mail and name as the users search reads them: the expression the users' search_text column keeps. */
export const userSearchText = (user: { email: AnyColumn | SQL; name: AnyColumn | SQL }): SQL =>
  searchable(sql`${user.email} || ' ' || coalesce(${user.name}, '')`);

/**
 * The storage of the searches' trigram (GIN) indexes: no pending list (decision 0038). With it (PostgreSQL's default,
 * `fastupdate`) rows written since the last VACUUM wait in an unsorted list that every search reads whole, and the
 * planner, charging for that list, read all 20,000 users instead of the index (8–16 ms a page under load, 2 with it).
 * A row written costs its trigrams in the index at once instead: a fraction of a millisecond per user, client or request.
 */
export const SEARCH_INDEX_STORAGE = { fastupdate: false } as const;
