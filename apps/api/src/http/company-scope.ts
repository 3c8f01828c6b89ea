import type { FastifyRequest } from 'fastify';
import type { DataScope } from '../db/scope';

/** The role whose users see and act on every company's portfolio (decision 0005, company scope). */
export const ALL_COMPANIES_ROLE = 'SA';

/**
 * The rows a request may touch, for row-level security (db/scope.ts): its user's company, every company for role SA,
 * and no company at all for a caller who is not a registered, active user (a signed-in stranger sees nothing).
 */
export function scopeOf(principal: { role: string; companyId: string } | null): DataScope {
  if (!principal) return { companyId: '' };
  return principal.role === ALL_COMPANIES_ROLE ? 'all-companies' : { companyId: principal.companyId };
}

/**
 * Whether the request's user searches by name through the company-scoped functions first (db/company-search.ts,
 * decision 0034): a company's user. Across companies (role SA) no policy holds the search back, and the trigram index
 * serves the one-statement search directly.
 */
export const searchesInTwoSteps = (request: Pick<FastifyRequest, 'principal'>): boolean =>
  request.principal !== null && request.principal.role !== ALL_COMPANIES_ROLE;
