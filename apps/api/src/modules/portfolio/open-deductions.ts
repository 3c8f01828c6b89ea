import { sql, type SQL } from 'drizzle-orm';

/**
 * How a statement finds expected deductions by their state, which is in no index (decision 0016): among the open ones
 * (esperado or en tránsito, their partial index by company and date), dated by `day`. A deduction goes en tránsito
 * only when a close (or an aging) of its discount date or a later one moves it, so every one en tránsito at `day` is
 * dated by it; `alias` names the table in the statement.
 */
export const openBy = (alias: string, day: string): SQL => {
  const d = sql.raw(alias);
  return sql`${d}.open and ${d}.discount_date <= ${day}::date`;
};

/** The deductions en tránsito at `day`: the employer holds their money. */
export const inTransitBy = (alias: string, day: string): SQL => sql`${openBy(alias, day)} and ${sql.raw(alias)}.state = 'en tránsito'`;
