import { asc, sql } from 'drizzle-orm';
import { PENDING_REQUEST_STATUSES, type HomeSummary } from '@portal/contract';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { businessDates, portfolioFigures } from '../../db/schema/portfolio';
import { companies } from '../../db/schema/users';
import { combineFigures, computePortfolioFigures } from '../portfolio/portfolio-figures';

/**
 * The home's figures (row-level security leaves the user's company; SA sees all). The portfolio part is each company's
 * stored figures when they are at its current fecha flujo, otherwise computed now (a company that has not closed a day
 * or applied a file since it started); the pending requests and the last files are read live.
 */
export async function homeSummary(tx: Tx, today: string): Promise<HomeSummary> {
  const visible = await tx
    .select({ id: companies.id, name: companies.name, businessDate: businessDates.businessDate })
    .from(companies)
    .leftJoin(businessDates, sql`${businessDates.companyId} = ${companies.id}`)
    .orderBy(asc(companies.name));
  const stored = await tx.select().from(portfolioFigures);
  const perCompany = [];
  let figuresAt: Date | null = null;
  for (const company of visible) {
    const businessDate = company.businessDate ?? today;
    const kept = stored.find((row) => row.companyId === company.id && row.businessDate === businessDate);
    if (kept && (figuresAt === null || kept.computedAt < figuresAt)) figuresAt = kept.computedAt;
    perCompany.push(kept?.figures ?? (await computePortfolioFigures(tx, company.id, businessDate)));
  }

  const requests = await tx.execute(sql`select status, count(*)::int as count from requests
    where status in (${sql.join(
      PENDING_REQUEST_STATUSES.map((status) => sql`${status}`),
      sql`, `,
    )}) group by status`);
  const files = await tx.execute(sql`
    select f.id, f.file_name as "fileName", a.name as agreement, f.discount_date::text as "discountDate", f.status,
           f.amount_applied::text as "appliedAmount", f.uploaded_at as "uploadedAt"
    from payment_files f join agreements a on a.id = f.agreement_id order by f.uploaded_at desc limit 5`);
  const pending = rowsOf<{ status: (typeof PENDING_REQUEST_STATUSES)[number]; count: number }>(requests);
  return {
    ...combineFigures(perCompany, today),
    businessDates: visible.map((company) => ({ company: company.name, businessDate: company.businessDate ?? today })),
    figuresAt: figuresAt?.toISOString() ?? null,
    pendingRequests: PENDING_REQUEST_STATUSES.map((status) => ({
      status,
      count: pending.find((row) => row.status === status)?.count ?? 0,
    })),
    lastFiles: rowsOf<HomeSummary['lastFiles'][number] & { uploadedAt: Date | string }>(files).map((file) => ({
      ...file,
      uploadedAt: new Date(file.uploadedAt).toISOString(),
    })),
  };
}
