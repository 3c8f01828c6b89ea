import { sql } from 'drizzle-orm';
import { AGING_BUCKETS, PENDING_REQUEST_STATUSES, type HomeSummary } from '@portal/contract';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';

type Bucket = (typeof AGING_BUCKETS)[number];
const HOME_STATUSES = ['vigente', 'vencido'] as const;
type HomeStatus = (typeof HOME_STATUSES)[number];

/**
 * The home's figures, each company at its own fecha flujo (row-level security leaves the user's company; SA sees all).
 * Each part is one aggregate, read live: a payment applied a minute ago is in the figures.
 */
export async function homeSummary(tx: Tx, today: string): Promise<HomeSummary> {
  const companies = sql`(select c.id, c.name, coalesce(b.business_date, ${today}::date) as business_date
                         from companies c left join business_dates b on b.company_id = c.id)`;
  // One after another: a transaction's queries share one connection (node-postgres refuses overlapping ones).
  const dates = await tx.execute(sql`select name as company, business_date::text as "businessDate" from ${companies} v order by name`);
  // One pass: by status, by bucket and the total (grouping sets; the total row comes back even with no credits).
  const portfolio = await tx.execute(sql`select status, aging_bucket as bucket, count(*)::int as count,
                          coalesce(sum(outstanding_balance), 0)::numeric(16,2)::text as balance,
                          coalesce(sum(overdue_balance), 0)::numeric(16,2)::text as overdue
                   from credits where status <> 'liquidado' group by grouping sets ((status), (aging_bucket), ())`);
  const collections = await tx.execute(sql`with v as ${companies}
                   select min(date_trunc('month', v.business_date)::date)::text as "from", max(v.business_date)::text as through,
                          coalesce((select sum(e.amount) from expected_deductions e join v on v.id = e.company_id
                                    where e.discount_date between date_trunc('month', v.business_date)::date and v.business_date), 0)::numeric(16,2)::text as expected,
                          coalesce((select sum(p.amount) from payments p join v on v.id = p.company_id
                                    where p.status = 'aplicado' and p.value_date between date_trunc('month', v.business_date)::date and v.business_date), 0)::numeric(16,2)::text as received
                   from v`);
  const transit = await tx.execute(sql`select count(*)::int as count, coalesce(sum(amount), 0)::numeric(16,2)::text as balance
                   from expected_deductions where state = 'en tránsito'`);
  const requests = await tx.execute(sql`select status, count(*)::int as count from requests
                   where status in (${sql.join(PENDING_REQUEST_STATUSES.map((status) => sql`${status}`), sql`, `)}) group by status`);
  const files = await tx.execute(sql`select f.id, f.file_name as "fileName", a.name as agreement, f.discount_date::text as "discountDate", f.status,
                          f.amount_applied::text as "appliedAmount", f.uploaded_at as "uploadedAt"
                   from payment_files f join agreements a on a.id = f.agreement_id order by f.uploaded_at desc limit 5`);

  type Group = { status: HomeStatus | null; bucket: Bucket | null; count: number; balance: string; overdue: string };
  const groups = rowsOf<Group>(portfolio);
  const none = { count: 0, balance: '0.00' };
  const total = groups.find((group) => group.status === null && group.bucket === null)!;
  const figure = (group: Group | undefined) => (group ? { count: group.count, balance: group.balance } : none);
  const byStatus = HOME_STATUSES.map((status) => ({ status, ...figure(groups.find((group) => group.status === status)) }));
  const byBucket = AGING_BUCKETS.map((bucket) => ({ bucket, ...figure(groups.find((group) => group.bucket === bucket)) }));
  const [window] = rowsOf<{ from: string; through: string; expected: string; received: string }>(collections);
  const pending = rowsOf<{ status: (typeof PENDING_REQUEST_STATUSES)[number]; count: number }>(requests);
  return {
    businessDates: rowsOf<{ company: string; businessDate: string }>(dates),
    portfolio: { count: total.count, outstandingBalance: total.balance, overdueBalance: total.overdue, byStatus, byBucket },
    collections: { from: window!.from, through: window!.through, expected: window!.expected, received: window!.received },
    transit: rowsOf<{ count: number; balance: string }>(transit)[0]!,
    pendingRequests: PENDING_REQUEST_STATUSES.map((status) => ({ status, count: pending.find((row) => row.status === status)?.count ?? 0 })),
    lastFiles: rowsOf<HomeSummary['lastFiles'][number] & { uploadedAt: Date | string }>(files).map((file) => ({
      ...file,
      uploadedAt: new Date(file.uploadedAt).toISOString(),
    })),
  };
}
