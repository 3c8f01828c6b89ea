import { eq, type SQL } from 'drizzle-orm';
import { addDays } from '@portal/lending';
import type { Tx } from '../../db/client';
import { businessDates } from '../../db/schema/portfolio';
import { businessDateOf } from '../shared/business-date';
import { refreshCredits, refreshStatements, type KnownAging } from './aging';
import { lockCompanyPortfolio } from './portfolio-lock';
import { refreshPortfolioFigures } from './portfolio-figures';

/**
 * What a change of the portfolio sees and tells the door while it runs: the company's business date under the lock,
 * the day before it (the last closed day, at which credits are aged), and which credits it touched.
 */
export interface PortfolioChange {
  readonly companyId: string;
  /** The company's business date, read under the lock (`today` for a company that never closed a day). */
  readonly businessDate: string;
  /** The last closed day: the day before the business date, at which a touched credit is aged again. */
  readonly closedDay: string;
  /** Credits the work changed: the door ages them at the closed day once the work is done. */
  touch(creditIds: readonly string[]): void;
  /**
   * The statements that age these credits at the closed day now, not at the end, for the caller to send in its
   * transaction in this order (none needs another's answer): for work that writes in batches and wants a batch's credits
   * aged before it reads the next (payment files: queued behind the batch's writes, db/pipeline.ts). Those of `known`
   * (knownAging, from the rows the work just wrote) are written as given instead of aged from their rows again.
   */
  refreshStatements(creditIds: readonly string[], known?: readonly KnownAging[]): SQL[];
  /** Moves the business date (a day close): the figures the door keeps are then at `next`. */
  moveBusinessDate(next: string): Promise<void>;
}

export interface ChangeOptions {
  /** The civil date: the business date of a company that never closed a day. */
  today: string;
  /** The clock of the change: the figures' time, the business date's update. */
  now: Date | (() => Date);
  /**
   * Whether the door recomputes the company's figures after the work (default: yes). A single new credit leaves them
   * to the next close or bulk change, as the home has always shown them.
   */
  figures?: boolean;
}

/**
 * The one door for changing credits (docs/architecture.md, "modules/portfolio"): takes the company's portfolio lock
 * (a day close, a payment file, a revert and a disbursement of the same company never interleave), reads the business
 * date under it, runs `work`, then ages the credits the work touched at the last closed day and keeps the company's
 * figures at its business date. All in the caller's transaction: a failure anywhere rolls the whole change back.
 */
export async function changePortfolio<T>(
  tx: Tx,
  companyId: string,
  options: ChangeOptions,
  work: (change: PortfolioChange) => Promise<T>,
): Promise<T> {
  const now = typeof options.now === 'function' ? options.now : () => options.now as Date;
  await lockCompanyPortfolio(tx, companyId);
  let businessDate = await businessDateOf(tx, companyId, options.today);
  const closedDay = addDays(businessDate, -1);
  const touched = new Set<string>();
  const change: PortfolioChange = {
    companyId,
    businessDate,
    closedDay,
    touch: (creditIds) => creditIds.forEach((id) => touched.add(id)),
    refreshStatements: (creditIds, known) => refreshStatements(companyId, closedDay, creditIds, known),
    async moveBusinessDate(next) {
      await tx.update(businessDates).set({ businessDate: next, updatedAt: now() }).where(eq(businessDates.companyId, companyId));
      businessDate = next;
    },
  };
  const result = await work(change);
  await refreshCredits(tx, companyId, closedDay, [...touched]);
  if (options.figures !== false) await refreshPortfolioFigures(tx, companyId, businessDate, now());
  return result;
}
