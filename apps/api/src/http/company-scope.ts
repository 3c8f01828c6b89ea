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
 * Whether the request searches a list (`q`) in two steps: the matching ids through the company-scoped functions first
 * (db/company-search.ts, decisions 0034 and 0035), then the list. Role SA too: across companies no policy holds the
 * search back, but a common name's count through the trigram index gathered every match (35–50 ms for `maria` among
 * 1,000,000 requests), where the function's sample tells it in a few hundred rows. `bySearch` narrows it to the
 * searches that read names (a list whose `q` may also be a folio or a CURP).
 */
export function searchesInTwoSteps(
  request: Pick<FastifyRequest, 'principal' | 'query'>,
  bySearch: (q: string) => boolean = () => true,
): boolean {
  const q = (request.query as { q?: string } | undefined)?.q?.trim();
  return request.principal !== null && Boolean(q) && bySearch(q!);
}
