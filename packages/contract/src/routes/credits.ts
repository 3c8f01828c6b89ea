import { exportQuery, idParams, itemsResponse } from '../common';
import {
  agreementOptionSchema,
  creditListQuerySchema,
  creditListResponseSchema,
  creditTotalsSchema,
  payoffQuerySchema,
  payoffQuoteSchema,
} from '../credits';
import { XLSX_CONTENT_TYPE, fileAnswer, route } from '../route-table';
import { creditDeductionSchema, creditHistorySchema, creditInstallmentSchema, creditPaymentSchema, creditSchema } from '../requests';
import { z } from 'zod';

const LIST = { permission: '/wallet/credits/credits-list' } as const;
/**
 * The list and its totals also serve Actualizar Etiqueta's grid, which selects credits with the same filters, and the
 * Carta de Liquidación's search by folio, CURP or name.
 */
const LIST_OR_LABELS = {
  anyPermission: ['/wallet/credits/credits-list', '/creditos/update-labels', '/creditos/settlement-letter'],
} as const;

/** Cartera → Créditos: the portfolio list with its totals and export, one credit's full view, and its payoff quote. */
export const creditRoutes = {
  list: route({
    method: 'GET',
    path: '/credits',
    summary: 'Créditos: lista paginada, ordenada y filtrada',
    tags: ['cartera'],
    access: LIST_OR_LABELS,
    query: creditListQuerySchema,
    response: { 200: creditListResponseSchema },
  }),
  totals: route({
    method: 'GET',
    path: '/credits/totals',
    summary: 'Totales del filtro: créditos, saldo y saldo vencido',
    tags: ['cartera'],
    access: LIST_OR_LABELS,
    query: creditListQuerySchema.omit({ page: true, pageSize: true, sort: true }),
    response: { 200: creditTotalsSchema },
  }),
  export: route({
    method: 'GET',
    path: '/credits/export.xlsx',
    summary: 'Exporta a Excel los créditos del filtro actual',
    tags: ['cartera'],
    access: LIST,
    query: exportQuery(creditListQuerySchema),
    response: fileAnswer(XLSX_CONTENT_TYPE),
  }),
  agreementOptions: route({
    method: 'GET',
    path: '/credits/agreement-options',
    summary: 'Convenios para los filtros de Cartera (créditos, archivos de pagos, reporte de pagos, reportes operativos)',
    tags: ['cartera'],
    access: {
      anyPermission: [
        '/wallet/credits/credits-list',
        '/wallet/files-pay-list',
        '/wallet/application-pay-list',
        '/creditos/update-labels',
        '/wallet/operative-report',
      ],
    },
    response: { 200: z.array(agreementOptionSchema) },
  }),
  get: route({
    method: 'GET',
    path: '/credits/:id',
    summary: 'Un crédito a la fecha flujo: condiciones, saldos, estado, etiquetas, próximo descuento y renovaciones',
    tags: ['cartera'],
    access: LIST,
    params: idParams,
    response: { 200: creditSchema },
  }),
  installments: route({
    method: 'GET',
    path: '/credits/:id/installments',
    summary: 'Calendario de pagos de un crédito a la fecha flujo: lo cargado, pagado y pendiente de cada amortización',
    tags: ['cartera'],
    access: LIST,
    params: idParams,
    response: { 200: itemsResponse(creditInstallmentSchema) },
  }),
  payments: route({
    method: 'GET',
    path: '/credits/:id/payments',
    summary: 'Pagos de un crédito, el más reciente primero, con su reparto',
    tags: ['cartera'],
    access: LIST,
    params: idParams,
    response: { 200: itemsResponse(creditPaymentSchema) },
  }),
  deductions: route({
    method: 'GET',
    path: '/credits/:id/deductions',
    summary: 'Descuentos de nómina esperados de un crédito y su estado',
    tags: ['cartera'],
    access: LIST,
    params: idParams,
    response: { 200: itemsResponse(creditDeductionSchema) },
  }),
  history: route({
    method: 'GET',
    path: '/credits/:id/history',
    summary: 'Historial de un crédito: sus eventos y los cambios de etiquetas',
    tags: ['cartera'],
    access: LIST,
    params: idParams,
    response: { 200: creditHistorySchema },
  }),
  payoff: route({
    method: 'GET',
    path: '/credits/:id/payoff',
    summary: 'Liquidación anticipada a una fecha',
    tags: ['cartera'],
    access: LIST,
    params: idParams,
    query: payoffQuerySchema,
    response: { 200: payoffQuoteSchema },
  }),
} as const;
