import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LendingInputError } from '@portal/lending';
import {
  businessDateSchema,
  creditListQuerySchema,
  creditListResponseSchema,
  creditTotalsSchema,
  creditViewSchema,
  dayCloseListQuerySchema,
  dayCloseListResponseSchema,
  dayCloseRequestSchema,
  dayCloseRunSchema,
  payoffQuerySchema,
  payoffQuoteSchema,
} from '@portal/contract';
import type { AppDeps } from '../../app';
import { HttpProblem } from '../../plugins/errors';
import { sendXlsx } from '../../lib/xlsx-export';
import { mexicoToday } from '../origination/pre-requests.service';
import { agreementOptions, creditFilters, creditListSelect, creditOrder, creditTotals, dayCloseHistory, toCreditListItem } from './portfolio.queries';
import { businessDates, creditPayoff, creditView, dayCloseRun, requestDayClose } from './portfolio.service';

const idParams = z.object({ id: z.uuid('Identificador no válido.') });
const LIST = '/wallet/credits/credits-list';
const FLOW_DATE = '/wallet/admin-flow-date';

/** Cartera: the credits list, the full credit view with its payoff, and the fecha flujo with its day closes. HTTP only. */
export function portfolioRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const today = () => mexicoToday(deps.clock.now());
  return async (app) => {
    app.get(
      '/portfolio/credits',
      { config: { access: { permission: LIST } }, schema: { tags: ['cartera'], summary: 'Créditos: lista paginada, ordenada y filtrada', querystring: creditListQuerySchema, response: { 200: creditListResponseSchema } } },
      async (request) => {
        const { page, pageSize, sort, ...filters } = request.query;
        const where = creditFilters(filters);
        const rows = await creditListSelect(request.db).where(where).orderBy(...creditOrder(sort)).limit(pageSize).offset((page - 1) * pageSize);
        const totals = await creditTotals(request.db, where);
        return { items: rows.map(toCreditListItem), total: totals.count };
      },
    );

    app.get(
      '/portfolio/credits/totals',
      { config: { access: { permission: LIST } }, schema: { tags: ['cartera'], summary: 'Totales del filtro: créditos, saldo y saldo vencido', querystring: creditListQuerySchema.omit({ page: true, pageSize: true, sort: true }), response: { 200: creditTotalsSchema } } },
      async (request) => creditTotals(request.db, creditFilters(request.query)),
    );

    app.get(
      '/portfolio/credits/export.xlsx',
      {
        config: { streamsAnswer: true, access: { permission: LIST } },
        schema: { tags: ['cartera'], summary: 'Exporta a Excel los créditos del filtro actual', querystring: creditListQuerySchema.omit({ page: true, pageSize: true }) },
      },
      async (request, reply) => {
        const { sort, ...filters } = request.query;
        const where = creditFilters(filters);
        const order = creditOrder(sort);
        return sendXlsx(request, reply, {
          filename: `creditos-${today()}.xlsx`,
          sheet: 'Créditos',
          columns: [
            { header: 'Folio', key: 'folio', width: 14 },
            { header: 'Cliente', key: 'clientName', width: 32 },
            { header: 'CURP', key: 'curp', width: 20 },
            { header: 'Convenio', key: 'agreement', width: 24 },
            { header: 'Empresa', key: 'company', width: 22 },
            { header: 'Monto', key: 'principal', width: 14 },
            { header: 'Saldo', key: 'outstandingBalance', width: 14 },
            { header: 'Descuento', key: 'installment', width: 12 },
            { header: 'Próximo descuento', key: 'nextDiscountDate', width: 14 },
            { header: 'Días de atraso', key: 'daysPastDue', width: 10 },
            { header: 'Tramo', key: 'bucket', width: 10 },
            { header: 'Estado', key: 'status', width: 10 },
            { header: 'Etiquetas', key: 'labels', width: 20 },
            { header: 'Fecha de disposición', key: 'disbursementDate', width: 14 },
          ],
          read: (offset, limit) => request.inScope((tx) => creditListSelect(tx).where(where).orderBy(...order).limit(limit).offset(offset)),
          toCells: (row) => {
            const item = toCreditListItem(row);
            return { ...item, principal: Number(item.principal), outstandingBalance: Number(item.outstandingBalance), installment: Number(item.installment), labels: item.labels.join(', ') };
          },
        });
      },
    );

    app.get(
      '/portfolio/credits/:id',
      { config: { access: { permission: LIST } }, schema: { tags: ['cartera'], summary: 'Un crédito completo a la fecha flujo', params: idParams, response: { 200: creditViewSchema } } },
      async (request) => creditView(request.db, request.params.id, today()),
    );

    app.get(
      '/portfolio/credits/:id/payoff',
      { config: { access: { permission: LIST } }, schema: { tags: ['cartera'], summary: 'Liquidación anticipada a una fecha', params: idParams, querystring: payoffQuerySchema, response: { 200: payoffQuoteSchema } } },
      async (request) => {
        try {
          return await creditPayoff(request.db, request.params.id, today(), request.query);
        } catch (error) {
          if (error instanceof LendingInputError) throw new HttpProblem(400, 'Cotización no válida', error.message, [{ field: error.field, message: error.message }]);
          throw error;
        }
      },
    );

    app.get(
      '/portfolio/agreements',
      { config: { access: { permission: LIST } }, schema: { tags: ['cartera'], summary: 'Convenios para el filtro de Créditos', response: { 200: z.array(z.object({ id: z.string(), name: z.string() })) } } },
      async (request) => agreementOptions(request.db),
    );

    app.get(
      '/portfolio/business-dates',
      { config: { access: { permission: FLOW_DATE } }, schema: { tags: ['cartera'], summary: 'Fecha flujo de cada empresa', response: { 200: z.array(businessDateSchema) } } },
      async (request) => businessDates(request.db, today()),
    );

    app.get(
      '/portfolio/day-closes',
      { config: { access: { permission: FLOW_DATE } }, schema: { tags: ['cartera'], summary: 'Historial de cierres de día', querystring: dayCloseListQuerySchema, response: { 200: dayCloseListResponseSchema } } },
      async (request) => dayCloseHistory(request.db, request.query.companyId, request.query.page, request.query.pageSize),
    );

    app.post(
      '/portfolio/day-closes',
      { config: { access: { permission: '/actions/wallet/close-day' } }, schema: { tags: ['cartera'], summary: 'Cerrar día: encola el cierre (trabajo en segundo plano)', body: dayCloseRequestSchema, response: { 202: dayCloseRunSchema } } },
      async (request, reply) => {
        if (!deps.jobs) throw new HttpProblem(503, 'Cola de trabajos no disponible', 'El servidor no tiene cola de trabajos; intenta más tarde.');
        const companyId = request.body.companyId ?? request.principal!.companyId;
        reply.code(202);
        return requestDayClose(request.db, deps.jobs, request, { companyId, throughDate: request.body.throughDate, today: today(), now: deps.clock.now() });
      },
    );

    app.get(
      '/portfolio/day-close-runs/:id',
      { config: { access: { permission: FLOW_DATE } }, schema: { tags: ['cartera'], summary: 'Avance de un cierre de día', params: idParams, response: { 200: dayCloseRunSchema } } },
      async (request) => dayCloseRun(request.db, request.params.id),
    );
  };
}
