import { index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, instant } from './columns';
import { users } from './users';

/** The embedded identity provider's storage. */

/** One-time links: only the SHA-256 of the token is kept, so a database read does not leak a usable link. */
export const passwordTokens = pgTable('password_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id),
  tokenHash: text('token_hash').notNull().unique(),
  purpose: text('purpose', { enum: ['reset', 'invite'] }).notNull(),
  expiresAt: instant('expires_at').notNull(),
  usedAt: instant('used_at'),
  createdAt: createdAt(),
});

/** oidc-provider's models (sessions, grants, codes, refresh tokens...) so a restart signs nobody out. */
export const oidcModels = pgTable(
  'oidc_models',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: instant('expires_at'),
    consumedAt: instant('consumed_at'),
  },
  (table) => [
    primaryKey({ columns: [table.model, table.id] }),
    index('oidc_models_grant_idx').on(table.grantId),
    index('oidc_models_uid_idx').on(table.uid),
  ],
);

/** Generated secrets kept across restarts (the provider's signing keys and cookie keys). */
export const appSecrets = pgTable('app_secrets', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: createdAt(),
});

/**
 * Fixed-window request counters (sign-in and forgot-password, per account and per address), kept in the database so
 * that every API process behind a load balancer counts against the same limit. One row per key; a new window
 * restarts its count. Rows of windows long gone are pruned by the code that counts.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    windowStart: instant('window_start').notNull(),
    count: integer('count').notNull(),
  },
  (table) => [index('rate_limits_window_idx').on(table.windowStart)],
);
