import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema/idp';

export interface RateLimit {
  /** How many requests one key may make per window. */
  limit: number;
  windowMinutes: number;
}

/**
 * The provider's limits; sign-in's are per 15 minutes (the lockout's span) and count attempts that did not sign in
 * (a success gives its hit back), forgot-password's are per hour.
 */
export interface IdpRateLimits {
  signInPerAccount: RateLimit;
  signInPerAddress: RateLimit;
  /** Past it the page answers as always but sends no mail, so the limit does not tell who has an account. */
  resetMailsPerAccount: RateLimit;
  forgotPasswordPerAddress: RateLimit;
}

export const DEFAULT_RATE_LIMITS: IdpRateLimits = {
  signInPerAccount: { limit: 10, windowMinutes: 15 },
  signInPerAddress: { limit: 50, windowMinutes: 15 },
  resetMailsPerAccount: { limit: 3, windowMinutes: 60 },
  forgotPasswordPerAddress: { limit: 10, windowMinutes: 60 },
};

/** Rows older than this are of no use to any window above. */
const PRUNE_AFTER_MS = 24 * 60 * 60 * 1000;

const windowOf = (now: Date, { windowMinutes }: RateLimit) => {
  const windowMs = windowMinutes * 60_000;
  return { windowMs, windowStart: new Date(Math.floor(now.getTime() / windowMs) * windowMs) };
};

export interface RateLimitOutcome {
  allowed: boolean;
  /** Whole minutes until the window ends, for the "try again in" message and Retry-After. */
  retryAfterMinutes: number;
}

/**
 * Counts one request against `key` and says whether it is within the limit. One INSERT … ON CONFLICT … RETURNING,
 * so concurrent requests (in one process or several on one PostgreSQL) each get a distinct count and never all pass.
 */
export async function hitRateLimit(db: Db, key: string, rule: RateLimit, now: Date): Promise<RateLimitOutcome> {
  const { windowMs, windowStart } = windowOf(now, rule);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} = excluded.window_start then ${rateLimits.count} + 1 else 1 end`,
        windowStart: sql`excluded.window_start`,
      },
    })
    .returning({ count: rateLimits.count });
  const count = row?.count ?? 1;
  // The first request of a key's window prunes what no window needs any more: a bounded, occasional delete.
  if (count === 1) await db.delete(rateLimits).where(lt(rateLimits.windowStart, new Date(now.getTime() - PRUNE_AFTER_MS)));
  return {
    allowed: count <= rule.limit,
    retryAfterMinutes: Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 60_000)),
  };
}

/**
 * Gives back a hit that turned out legitimate (a successful sign-in), so the limits count failures, not an office
 * of people signing in from one address every morning. Only ever after the hit, so it cannot open a race.
 */
export async function releaseRateLimit(db: Db, key: string, rule: RateLimit, now: Date): Promise<void> {
  const { windowStart } = windowOf(now, rule);
  await db
    .update(rateLimits)
    .set({ count: sql`${rateLimits.count} - 1` })
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowStart), gt(rateLimits.count, 0)));
}
