import { eq, sql } from 'drizzle-orm';
import { AGING_BUCKETS, type PortfolioFigures } from '@portal/contract';
import { formatCents, parseCents } from '@portal/lending';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { portfolioFigures } from '../../db/schema/portfolio';
import { inTransitBy } from './open-deductions';

type Bucket = (typeof AGING_BUCKETS)[number];
const HOME_STATUSES = ['vigente', 'vencido'] as const;
type HomeStatus = (typeof HOME_STATUSES)[number];

/** The first day of a date's month: the collections window runs from it through the fecha flujo. */
const monthStart = (date: string) => `${date.slice(0, 8)}01`;

/**
 * One company's figures at its business date, summed in the database (one pass over its credits with grouping sets;
 * the month's deductions and payments by their date indexes; the deductions en tránsito, among the open ones).
 */
export async function computePortfolioFigures(tx: Tx, companyId: string, businessDate: string): Promise<PortfolioFigures> {
  const from = monthStart(businessDate);
  const portfolio = await tx.execute(sql`
    select status, aging_bucket as bucket, count(*)::int as count,
           coalesce(sum(outstanding_balance), 0)::numeric(16,2)::text as balance,
           coalesce(sum(overdue_balance), 0)::numeric(16,2)::text as overdue
    from credits where company_id = ${companyId} and status <> 'liquidado'
    group by grouping sets ((status), (aging_bucket), ())`);
  const collections = await tx.execute(sql`
    select (select coalesce(sum(amount), 0) from expected_deductions
            where company_id = ${companyId} and discount_date between ${from}::date and ${businessDate}::date)::numeric(16,2)::text as expected,
           (select coalesce(sum(amount), 0) from payments
            where company_id = ${companyId} and status = 'aplicado' and value_date between ${from}::date and ${businessDate}::date)::numeric(16,2)::text as received`);
  const transit = await tx.execute(sql`
    select count(*)::int as count, coalesce(sum(amount), 0)::numeric(16,2)::text as balance
    from expected_deductions where company_id = ${companyId} and ${inTransitBy('expected_deductions', businessDate)}`);

  type Group = { status: HomeStatus | null; bucket: Bucket | null; count: number; balance: string; overdue: string };
  const groups = rowsOf<Group>(portfolio);
  const total = groups.find((group) => group.status === null && group.bucket === null)!;
  const figure = (group: Group | undefined) => ({ count: group?.count ?? 0, balance: group?.balance ?? '0.00' });
  const [window] = rowsOf<{ expected: string; received: string }>(collections);
  return {
    portfolio: {
      count: total.count,
      outstandingBalance: total.balance,
      overdueBalance: total.overdue,
      byStatus: HOME_STATUSES.map((status) => ({ status, ...figure(groups.find((group) => group.status === status)) })),
      byBucket: AGING_BUCKETS.map((bucket) => ({ bucket, ...figure(groups.find((group) => group.bucket === bucket)) })),
    },
    collections: { from, through: businessDate, expected: window!.expected, received: window!.received },
    transit: rowsOf<{ count: number; balance: string }>(transit)[0]!,
  };
}

/** Recomputes and keeps a company's figures; called inside the transaction that changed the portfolio in bulk. */
export async function refreshPortfolioFigures(tx: Tx, companyId: string, businessDate: string, now: Date): Promise<void> {
  const figures = await computePortfolioFigures(tx, companyId, businessDate);
  const row = { companyId, businessDate, figures, computedAt: now };
  await tx.insert(portfolioFigures).values(row).onConflictDoUpdate({ target: portfolioFigures.companyId, set: row });
}

/** A company's stored figures, if any. */
export async function storedPortfolioFigures(tx: Tx, companyId: string) {
  const [row] = await tx.select().from(portfolioFigures).where(eq(portfolioFigures.companyId, companyId));
  return row ?? null;
}

const add = (a: string, b: string) => formatCents(parseCents(a, 'importe') + parseCents(b, 'importe'));

/** Several companies' figures as one (SA sees every company): counts and amounts added, the window spanning them all. */
export function combineFigures(all: readonly PortfolioFigures[], today: string): PortfolioFigures {
  const none = { count: 0, balance: '0.00' };
  const empty: PortfolioFigures = {
    portfolio: {
      count: 0,
      outstandingBalance: '0.00',
      overdueBalance: '0.00',
      byStatus: HOME_STATUSES.map((status) => ({ status, ...none })),
      byBucket: AGING_BUCKETS.map((bucket) => ({ bucket, ...none })),
    },
    collections: { from: monthStart(today), through: today, expected: '0.00', received: '0.00' },
    transit: none,
  };
  if (all.length === 0) return empty;
  return all.reduce((sum, next) => ({
    portfolio: {
      count: sum.portfolio.count + next.portfolio.count,
      outstandingBalance: add(sum.portfolio.outstandingBalance, next.portfolio.outstandingBalance),
      overdueBalance: add(sum.portfolio.overdueBalance, next.portfolio.overdueBalance),
      byStatus: sum.portfolio.byStatus.map((row, i) => ({
        ...row,
        count: row.count + next.portfolio.byStatus[i]!.count,
        balance: add(row.balance, next.portfolio.byStatus[i]!.balance),
      })),
      byBucket: sum.portfolio.byBucket.map((row, i) => ({
        ...row,
        count: row.count + next.portfolio.byBucket[i]!.count,
        balance: add(row.balance, next.portfolio.byBucket[i]!.balance),
      })),
    },
    collections: {
      from: sum.collections.from < next.collections.from ? sum.collections.from : next.collections.from,
      through: sum.collections.through > next.collections.through ? sum.collections.through : next.collections.through,
      expected: add(sum.collections.expected, next.collections.expected),
      received: add(sum.collections.received, next.collections.received),
    },
    transit: { count: sum.transit.count + next.transit.count, balance: add(sum.transit.balance, next.transit.balance) },
  }));
}
