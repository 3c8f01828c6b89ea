import { eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Principal } from './auth';

/** The role whose users see and act on every company's portfolio (DOMAIN.md, "Company"). */
export const ALL_COMPANIES_ROLE = 'SA';

/** Portfolio data belongs to one company: a user sees its own company's rows, a role-SA user every company's. */
export function companyScope(principal: Principal, column: AnyPgColumn): SQL | undefined {
  return principal.role === ALL_COMPANIES_ROLE ? undefined : eq(column, principal.companyId);
}

export function inCompanyScope(principal: Principal, companyId: string): boolean {
  return principal.role === ALL_COMPANIES_ROLE || principal.companyId === companyId;
}
