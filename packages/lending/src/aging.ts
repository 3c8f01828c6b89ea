import { parseDay } from './dates.ts';
import { outstandingTotal, toLedger, type InstallmentState } from './ledger.ts';

/**
 * Days past due and aging (docs/domain.md, "Day close and aging").
 *
 * Days past due on a date = that date − the due date of the oldest installment that is still owed and
 * fell due before it (0 when nothing is late; an installment due today is not late yet).
 */
export type AgingBucket = 'current' | '1-30' | '31-60' | '61-89' | '90+';

/** Spanish labels for reports and screens. */
export const AGING_BUCKET_LABELS: Readonly<Record<AgingBucket, string>> = {
  current: 'Al corriente',
  '1-30': '1 a 30 días',
  '31-60': '31 a 60 días',
  '61-89': '61 a 89 días',
  '90+': '90 días o más',
};

/** A credit becomes vencido at this many days past due (docs/domain.md, "Day close and aging"). */
export const PAST_DUE_THRESHOLD_DAYS = 90;

/**
 * `inTransit`: installments whose payroll deduction the employer took and has not remitted yet. They do not
 * age the credit: the employer holds the borrower's money (docs/domain.md, "Day close and aging").
 */
export function daysPastDue(installments: readonly InstallmentState[], asOf: string, inTransit: ReadonlySet<number> = new Set()): number {
  const day = parseDay(asOf, 'asOf');
  let oldest: number | undefined;
  for (const inst of toLedger(installments)) {
    if (inst.dueDay >= day) break;
    if (outstandingTotal(inst) > 0n && !inTransit.has(inst.number)) {
      oldest = inst.dueDay;
      break;
    }
  }
  return oldest === undefined ? 0 : day - oldest;
}

/** Buckets 1–30, 31–60, 61–89 and 90+ (90 days and more, where the credit is vencido); 0 days is "current". */
/**
 * Each bucket's last day past due, in order (90+ has none): the day close's SQL is written from these, so the rule the
 * database applies is agingBucket's.
 */
export const AGING_BUCKET_LAST_DAYS: readonly (readonly [Exclude<AgingBucket, '90+'>, number])[] = [
  ['current', 0],
  ['1-30', 30],
  ['31-60', 60],
  ['61-89', PAST_DUE_THRESHOLD_DAYS - 1],
];

export function agingBucket(days: number): AgingBucket {
  if (!(days > 0)) return 'current';
  if (days <= 30) return '1-30';
  if (days <= 60) return '31-60';
  if (days < PAST_DUE_THRESHOLD_DAYS) return '61-89';
  return '90+';
}

export function isPastDueCredit(days: number): boolean {
  return days >= PAST_DUE_THRESHOLD_DAYS;
}
