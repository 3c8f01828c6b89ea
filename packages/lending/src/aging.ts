import { parseDay } from './dates.ts';
import { outstandingTotal, toLedger, type InstallmentState } from './ledger.ts';

/**
 * Days past due and aging (DOMAIN.md, Algorithms §4).
 *
 * Days past due on a date = that date − the due date of the oldest installment that is still owed and
 * fell due before it (0 when nothing is late; an installment due today is not late yet).
 */
export type AgingBucket = 'current' | '1-30' | '31-60' | '61-90' | '90+';

/** Spanish labels for reports and screens. */
export const AGING_BUCKET_LABELS: Readonly<Record<AgingBucket, string>> = {
  current: 'Al corriente',
  '1-30': '1 a 30 días',
  '31-60': '31 a 60 días',
  '61-90': '61 a 90 días',
  '90+': 'Más de 90 días',
};

/** A credit becomes vencido at this many days past due (DOMAIN.md §4). */
export const PAST_DUE_THRESHOLD_DAYS = 90;

export function daysPastDue(installments: readonly InstallmentState[], asOf: string): number {
  const day = parseDay(asOf, 'asOf');
  let oldest: number | undefined;
  for (const inst of toLedger(installments)) {
    if (inst.dueDay >= day) break;
    if (outstandingTotal(inst) > 0n) {
      oldest = inst.dueDay;
      break;
    }
  }
  return oldest === undefined ? 0 : day - oldest;
}

/** Buckets 1–30, 31–60, 61–90 and 90+ (91 days and more); 0 days is "current". */
export function agingBucket(days: number): AgingBucket {
  if (!(days > 0)) return 'current';
  if (days <= 30) return '1-30';
  if (days <= 60) return '31-60';
  if (days <= 90) return '61-90';
  return '90+';
}

export function isPastDueCredit(days: number): boolean {
  return days >= PAST_DUE_THRESHOLD_DAYS;
}
