import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { and } from 'drizzle-orm';
import { AGING_BUCKET_LABELS } from '@portal/lending';
import { CREDIT_COLUMNS, creditRoutes } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { matchingIds } from '../../db/company-search';
import { searchesInTwoSteps } from '../../http/company-scope';
import { pagedList, searchCount } from '../../http/pagination';
import { register } from '../../http/register';
import { sendXlsx, sheetColumns } from '../../lib/xlsx-export';
import { businessDateOf, mexicoToday } from '../shared/business-date';
import {
  agreementOptions,
  creditCount,
  creditFilters,
  creditListSelect,
  creditOrder,
  creditsAfter,
  creditTotals,
  type CreditFilters,
  creditDeductions,
  creditHistory,
  creditInstallments,
  creditPayments,
  loadCredit,
  searchesByName,
  toCreditListItem,
} from './credits.queries';
import { creditPayoff } from '../portfolio/payoff';

/** A search by name: the matching clients first, then their credits (two statements, decisions 0034 and 0035). */
const twoStepSearch = (request: FastifyRequest) => searchesInTwoSteps(request, searchesByName);

/** Cartera → Créditos over HTTP: the list, its totals and export, a credit's view with its tabs' parts, and its payoff. */
export function creditsRoutes(deps: AppDeps): FastifyPluginAsync {
  const today = () => mexicoToday(deps.clock.now());
  return async (app) => {
    register(
      app,
      creditRoutes.list,
      async (request) => {
        const { page, pageSize, sort, ...asked } = request.query;
        const clientIds = twoStepSearch(request) && asked.q ? await matchingIds(request.db, 'clients', asked.q.trim()) : undefined;
        const filters: CreditFilters = { ...asked, clientIds };
        return pagedList(
          { page, pageSize },
          creditListSelect(request.db)
            .where(creditFilters(filters))
            .orderBy(...creditOrder(sort)),
          searchCount(clientIds, asked, () => creditCount(request.db, filters)),
          toCreditListItem,
        );
      },
      { readsInOneTurn: (request) => !twoStepSearch(request) },
    );

    register(app, creditRoutes.totals, async (request) => creditTotals(request.db, request.query));

    register(
      app,
      creditRoutes.export,
      async (request, reply) => {
        const { sort, ...filters } = request.query;
        const where = creditFilters(filters);
        const order = creditOrder(sort);
        return sendXlsx(request, reply, {
          filename: `creditos-${today()}.xlsx`,
          sheet: 'Créditos',
          columns: sheetColumns(CREDIT_COLUMNS),
          read: ({ last }, limit) =>
            request.inScope((tx) =>
              creditListSelect(tx)
                .where(and(where, last && creditsAfter(sort, last)))
                .orderBy(...order)
                .limit(limit),
            ),
          toCells: (row) => {
            const item = toCreditListItem(row);
            return {
              ...item,
              principal: Number(item.principal),
              outstandingBalance: Number(item.outstandingBalance),
              installment: Number(item.installment),
              bucket: AGING_BUCKET_LABELS[item.bucket],
              labels: item.labels.join(', '),
            };
          },
        });
      },
      { streamsAnswer: true },
    );

    register(app, creditRoutes.agreementOptions, async (request) => agreementOptions(request.db), { readsInOneTurn: true });

    // The credit view and its tabs' parts: one read each, their answers written by compiled writers (decision 0042).
    const aPart = { readsInOneTurn: true, compiledAnswer: true } as const;
    register(app, creditRoutes.get, async (request) => loadCredit(request.db, request.params.id, today()), aPart);
    register(
      app,
      creditRoutes.installments,
      async (request) => ({ items: await creditInstallments(request.db, request.params.id, today()) }),
      aPart,
    );
    register(app, creditRoutes.payments, async (request) => ({ items: await creditPayments(request.db, request.params.id) }), aPart);
    register(app, creditRoutes.deductions, async (request) => ({ items: await creditDeductions(request.db, request.params.id) }), aPart);
    register(app, creditRoutes.history, async (request) => creditHistory(request.db, request.params.id), aPart);

    register(app, creditRoutes.payoff, async (request) =>
      creditPayoff(request.db, request.params.id, (companyId) => businessDateOf(request.db, companyId, today()), request.query),
    );
  };
}
