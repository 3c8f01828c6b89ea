import { sql, type SQL } from 'drizzle-orm';
import { AGING_BUCKET_LABELS, AGING_BUCKET_LAST_DAYS, PAST_DUE_THRESHOLD_DAYS } from '@portal/lending';

/**
 * The aging buckets in SQL, written from their one declaration in packages/lending (aging.ts): the bucket of a number
 * of days past due (the day close), and a bucket's Spanish label (report datasets).
 */

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** `case` of the bucket of `days` (an integer expression), as agingBucket decides it. */
export const agingBucketSql = (days: string): SQL =>
  sql.raw(
    `case ${AGING_BUCKET_LAST_DAYS.map(([bucket, last]) => `when ${days} <= ${last} then ${quoted(bucket)}`).join(' ')} else '90+' end`,
  );

/**
 * `case` of a credit's status: liquidado when it owes nothing (`owes`, a boolean expression), vencido from
 * PAST_DUE_THRESHOLD_DAYS days past due (`days`), vigente before.
 */
export const creditStatusSql = (owes: string, days: string): SQL =>
  sql.raw(`case when not (${owes}) then 'liquidado' when ${days} >= ${PAST_DUE_THRESHOLD_DAYS} then 'vencido' else 'vigente' end`);

/** `case` of the Spanish label of a bucket column. */
export const agingBucketLabelSql = (bucket: string): SQL =>
  sql.raw(
    `case ${bucket} ${Object.entries(AGING_BUCKET_LABELS)
      .map(([key, label]) => `when ${quoted(key)} then ${quoted(label)}`)
      .join(' ')} end`,
  );
