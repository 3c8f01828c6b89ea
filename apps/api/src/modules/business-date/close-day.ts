import { eq } from 'drizzle-orm';
import { addDays } from '@portal/lending';
import type { Db, Tx } from '../../db/client';
import { asSystem } from '../../db/scope';
import { auditEvents } from '../../db/schema/audit';
import { businessDates, dayCloseRuns, dayCloses } from '../../db/schema/portfolio';
import { HttpProblem } from '../../http/errors';
import { closePortfolioDay, type DayCloseFigures } from '../portfolio/aging';
import { changePortfolio } from '../portfolio/change-portfolio';
import { shortDate } from '../shared/es-mx';

/**
 * The day close, cierre de día: one transaction per closed day, through the portfolio's door (its lock, its aging of
 * the day, its figures at the next business date). A failure leaves the business date and every credit as they were
 * before that day, and a payment application of the same company waits (or is waited for).
 */

export interface CloseDayOptions {
  runId?: string;
  closedBy?: string | null;
  /** A hook between the statements and the commit; tests use it to fail a close midway. */
  beforeCommit?: (tx: Tx) => Promise<void>;
  now?: () => Date;
}

/** Closes the company's current business date `day`, in one transaction. Refuses a day that is not the current one. */
export async function closeDay(db: Db, companyId: string, day: string, options: CloseDayOptions = {}): Promise<DayCloseFigures> {
  const now = options.now ?? (() => new Date());
  return asSystem(db, async (tx) => {
    const started = Date.now();
    const figures = await changePortfolio(tx, companyId, { today: day, now }, async (change) => {
      const [current] = await tx.select().from(businessDates).where(eq(businessDates.companyId, companyId)).for('update');
      if (!current || current.businessDate !== day) {
        throw new HttpProblem(
          409,
          'Día ya cerrado',
          current && day < current.businessDate
            ? `El día ${shortDate(day)} ya está cerrado: la fecha flujo es ${shortDate(current.businessDate)}.`
            : `Solo se puede cerrar la fecha flujo actual${current ? ` (${shortDate(current.businessDate)})` : ''}, no el ${shortDate(day)}.`,
        );
      }
      const closed = await closePortfolioDay(tx, companyId, day);
      const next = addDays(day, 1);
      await change.moveBusinessDate(next);
      const figures: DayCloseFigures = { businessDate: day, ...closed, durationMs: Date.now() - started };
      await tx
        .insert(dayCloses)
        .values({ ...figures, companyId, runId: options.runId ?? null, closedBy: options.closedBy ?? null, closedAt: now() });
      await tx.insert(auditEvents).values({
        occurredAt: now(),
        actorId: options.closedBy ?? null,
        action: 'day.close',
        entity: 'business_date',
        entityId: companyId,
        before: { businessDate: day },
        after: { ...figures, businessDate: next },
      });
      return figures;
    });
    if (options.beforeCommit) await options.beforeCommit(tx);
    return figures;
  });
}

/**
 * Closes every day from the company's business date through `throughDate`, in order, one transaction each (missed
 * days replay); `onDay` reports progress after each committed day. A failure stops at the failed day, whose
 * transaction rolled back: the days before it stay closed.
 */
export async function closeDays(
  db: Db,
  companyId: string,
  throughDate: string,
  options: CloseDayOptions & { onDay?: (figures: DayCloseFigures, done: number) => Promise<void> } = {},
): Promise<DayCloseFigures[]> {
  const closed: DayCloseFigures[] = [];
  for (;;) {
    const [current] = await asSystem(db, (tx) => tx.select().from(businessDates).where(eq(businessDates.companyId, companyId)));
    if (!current || current.businessDate > throughDate) break;
    const figures = await closeDay(db, companyId, current.businessDate, options);
    closed.push(figures);
    if (options.onDay) await options.onDay(figures, closed.length);
  }
  return closed;
}

/** The run's row, read by the screen's progress bar. */
export async function markRun(db: Db, runId: string, values: Partial<typeof dayCloseRuns.$inferInsert>): Promise<void> {
  await asSystem(db, (tx) => tx.update(dayCloseRuns).set(values).where(eq(dayCloseRuns.id, runId)));
}
