import { sql } from 'drizzle-orm';
import { boolean, index, integer, numeric, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, instant, updatedAt } from './columns';
import { SEARCH_INDEX_STORAGE, userSearchText } from '../like';

/** Companies, profiles and users. */

/** The lending company (brand). Portfolio data belongs to one; role SA users see all. */
export const companies = pgTable('companies', {
  id: uuid('id').primaryKey().defaultRandom(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  legalName: text('legal_name').notNull(),
  rfc: text('rfc').notNull(),
  /** Maker-checker on money leaving: who disburses may be neither the capturer nor the approver (on unless turned off). */
  separateDisbursement: boolean('separate_disbursement').notNull().default(true),
  /** A settlement letter's default validity: this many business days after the fecha flujo. */
  letterValidityDays: integer('letter_validity_days').notNull().default(5),
  /** The least a renewal's client may receive after the payoffs (docs/domain.md, "Renewals"); 0: only a negative net is refused. */
  renewalMinimumNet: numeric('renewal_minimum_net', { precision: 14, scale: 2 }).notNull().default('0'),
  createdAt: createdAt(),
});

/** The company a row belongs to (row-level security reads it). */
export const companyRef = () =>
  uuid('company_id')
    .notNull()
    .references(() => companies.id);

/** The staff user who did something (null when the system did it, or the user predates the column). */
export const userRef = (name: string) => uuid(name).references(() => users.id);

/** A profile grants a role code and a list of permission paths (screen paths and action paths). */
export const profiles = pgTable('profiles', {
  id: uuid('id').primaryKey().defaultRandom(),
  /**
   * The company whose profile it is: only its users may hold it, and only its administrators (or SA) see and change
   * it (row-level security). None: the portal's common catalogue, which every company sees and only SA changes.
   */
  companyId: uuid('company_id').references(() => companies.id),
  name: text('name').notNull().unique(),
  roleCode: text('role_code').notNull(),
  permissions: text('permissions')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  version: integer('version').notNull().default(1),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Staff users. The embedded identity provider signs them in with `password_hash` (scrypt); with an external
 * provider the hash stays empty and the e-mail in the access token finds the row.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name'),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id),
    companyId: companyRef(),
    active: boolean('active').notNull().default(true),
    passwordHash: text('password_hash'),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    lockedUntil: instant('locked_until'),
    lastSignInAt: instant('last_sign_in_at'),
    /**
     * Access tokens issued at or before this instant are refused (issue 44): set when the user is deactivated, moves
     * company or profile, changes e-mail or password. The database's clock, like the tokens' `iat`, not the app's.
     */
    tokensValidAfter: instant('tokens_valid_after'),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * The e-mail and the name as the users search reads them (db/like.ts, userSearchText), kept by the database: a
     * search compares this text instead of computing it per row (decision 0036).
     */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(userSearchText({ email: sql`${sql.identifier('email')}`, name: sql`${sql.identifier('name')}` })),
  },
  (table) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${table.email})`),
    index('users_profile_idx').on(table.profileId),
    index('users_company_idx').on(table.companyId),
    // The list's sort orders, each with the id tie-breaker, so a page is an index range, not a sort of the table.
    index('users_email_sort_idx').on(table.email, table.id),
    index('users_name_sort_idx').on(table.name, table.id),
    index('users_last_sign_in_sort_idx').on(table.lastSignInAt, table.id),
    index('users_profile_email_idx').on(table.profileId, table.email),
    // The capturer filter (ILIKE '%…%' on the e-mail) through trigrams (pg_trgm).
    index('users_email_trgm_idx')
      .using('gin', sql`${table.email} gin_trgm_ops`)
      .with(SEARCH_INDEX_STORAGE),
    // The users search: any part of the e-mail or the name, read without case or accents (db/like.ts, decision 0031).
    index('users_search_trgm_idx')
      .using('gin', sql`${table.searchText} gin_trgm_ops`)
      .with(SEARCH_INDEX_STORAGE),
  ],
);
