import { sql, type SQL } from 'drizzle-orm';
import { addDays, daysBetween, formatCents, lateChargesForDays, parseCents } from '@portal/lending';
import { percentToFraction } from '@portal/contract';
import { trimNumeric } from '../../db/numeric';
import type { installments } from '../../db/schema/credits';

/** The schedule row as the table holds it (schedule-rows.ts's InstallmentRow; named here so the two files import one way). */
type InstallmentRow = typeof installments.$inferSelect;

/**
 * Late charges run by days (docs/domain.md, "Late charges"). A row late and not held runs from `accrues_from`: each
 * closed day from it on owes one day of moratory interest on the principal the row still owes, at the credit's rate,
 * plus IVA, rounded per day as a close a day would (packages/lending `lateChargesForDays`). `moratory_interest` and
 * `moratory_iva` hold what ran before `accrues_from`. No close writes the row while it runs; a payment or a revert,
 * which change the principal owed, first write what ran (`chargedThrough`) and move `accrues_from` to the next day.
 */

export interface LateChargeTerms {
  moratoryRatePct: string;
  ivaRatePct: string;
}

/** Closed days a row's charges have run through `closedDay` (its last closed day, the day before the business date). */
function daysRun(row: Pick<InstallmentRow, 'accruesFrom'>, closedDay: string): number {
  return row.accruesFrom === null || row.accruesFrom > closedDay ? 0 : daysBetween(row.accruesFrom, closedDay) + 1;
}

/** What a row's late charges depend on: the principal it owes and when they run from (besides what ran before). */
export type RunningRow = Pick<InstallmentRow, 'principal' | 'paidPrincipal' | 'accruesFrom'>;

/**
 * The moratory interest and IVA a row's charges ran from `accrues_from` through `closedDay`, not yet written into its
 * amounts; null when they do not run (or start after that day).
 */
export function ranThrough(
  row: RunningRow,
  terms: LateChargeTerms,
  closedDay: string,
): { moratoryInterest: string; moratoryIva: string } | null {
  const days = daysRun(row, closedDay);
  if (days === 0) return null;
  return lateChargesForDays({
    principalOwed: formatCents(parseCents(row.principal, 'principal') - parseCents(row.paidPrincipal, 'paidPrincipal')),
    moratoryAnnualRate: percentToFraction(trimNumeric(terms.moratoryRatePct)),
    ivaRate: percentToFraction(trimNumeric(terms.ivaRatePct)),
    days,
  });
}

/**
 * The row with what its charges ran through `closedDay` written into its amounts, and running again from the next
 * day: the row as a close a day would have left it.
 */
export function chargedThrough(row: InstallmentRow, terms: LateChargeTerms, closedDay: string): InstallmentRow {
  const ran = ranThrough(row, terms, closedDay);
  if (ran === null) return row;
  const plus = (a: string, b: string) => formatCents(parseCents(a, 'importe') + parseCents(b, 'importe'));
  const moratoryInterest = plus(row.moratoryInterest, ran.moratoryInterest);
  const moratoryIva = plus(row.moratoryIva, ran.moratoryIva);
  const outstanding = plus(row.outstanding, plus(ran.moratoryInterest, ran.moratoryIva));
  return { ...row, moratoryInterest, moratoryIva, outstanding, accruesFrom: addDays(closedDay, 1) };
}

/**
 * The same in SQL, over installments `i` and their credits `c`, at closed day `closedDay`: one day's moratory interest
 * and IVA on what the row owes of principal, the days run, and what ran (days × one day).
 */
export function lateChargesSql(closedDay: string | SQL, i = 'i', c = 'c') {
  const row = sql.raw(i);
  const credit = sql.raw(c);
  const dailyMoratory = sql`round((${row}.principal - ${row}.paid_principal) * ${credit}.moratory_rate_pct / 36000, 2)`;
  const dailyIva = sql`round(${dailyMoratory} * ${credit}.iva_rate_pct / 100, 2)`;
  const days = sql`greatest(coalesce(${closedDay}::date - ${row}.accrues_from + 1, 0), 0)`;
  return { dailyMoratory, dailyIva, days, moratory: sql`(${days} * ${dailyMoratory})`, moratoryIva: sql`(${days} * ${dailyIva})` };
}
