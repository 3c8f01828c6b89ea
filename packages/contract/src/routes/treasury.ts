import { idParams } from '../common';
import { fileAnswer, route } from '../route-table';
import {
  decideRefundBodySchema,
  generatePaymentBatchBodySchema,
  paymentBatchFileQuerySchema,
  paymentBatchLinesResponseSchema,
  paymentBatchListQuerySchema,
  paymentBatchListResponseSchema,
  paymentBatchSchema,
  paymentOrderListQuerySchema,
  paymentOrderListResponseSchema,
  recordPaymentResultsBodySchema,
  recordPaymentResultsResponseSchema,
  refundCandidateListQuerySchema,
  refundCandidateListResponseSchema,
  refundListQuerySchema,
  refundListResponseSchema,
  refundSchema,
  requestRefundBodySchema,
} from '../treasury';

const tags = ['tesoreria'] as const;
const ORDERS = { permission: '/treasury/payment-orders' } as const;
const GENERATE = { permission: '/actions/treasury/generate-batch' } as const;
const AUTHORIZE = { permission: '/actions/treasury/authorize-batch' } as const;
const REFUNDS = { permission: '/wallet/refunds' } as const;
const REQUEST_REFUND = { permission: '/actions/wallet/request-refund' } as const;
const APPROVE_REFUND = { permission: '/actions/wallet/approve-refund' } as const;

/** Tesorería → Órdenes de pago: pending orders, batches, the bank file and the bank's answer. */
export const paymentOrderRoutes = {
  orders: route({
    method: 'GET',
    path: '/payment-orders',
    summary: 'Órdenes de pago (dispersiones y devoluciones) con su estado',
    tags,
    access: ORDERS,
    query: paymentOrderListQuerySchema,
    response: { 200: paymentOrderListResponseSchema },
  }),
  batches: route({
    method: 'GET',
    path: '/payment-batches',
    summary: 'Lotes de órdenes de pago',
    tags,
    access: ORDERS,
    query: paymentBatchListQuerySchema,
    response: { 200: paymentBatchListResponseSchema },
  }),
  batch: route({
    method: 'GET',
    path: '/payment-batches/:id',
    summary: 'Un lote: estado, totales, quién lo generó y quién lo autorizó',
    tags,
    access: ORDERS,
    params: idParams,
    response: { 200: paymentBatchSchema },
  }),
  lines: route({
    method: 'GET',
    path: '/payment-batches/:id/lines',
    summary: 'Las líneas del lote con su clave de rastreo y resultado',
    tags,
    access: ORDERS,
    params: idParams,
    response: { 200: paymentBatchLinesResponseSchema },
  }),
  generate: route({
    method: 'POST',
    path: '/payment-batches',
    summary: 'Generar lote: toma una sola vez las órdenes por enviar',
    tags,
    access: GENERATE,
    body: generatePaymentBatchBodySchema,
    response: { 201: paymentBatchSchema },
  }),
  authorize: route({
    method: 'POST',
    path: '/payment-batches/:id/authorize',
    summary: 'Autorizar lote: otra persona que quien lo generó',
    tags,
    access: AUTHORIZE,
    params: idParams,
    response: { 200: paymentBatchSchema },
  }),
  file: route({
    method: 'GET',
    path: '/payment-batches/:id/file',
    summary: 'Descarga el lote autorizado como archivo del banco (ancho fijo o CSV)',
    tags,
    access: ORDERS,
    params: idParams,
    query: paymentBatchFileQuerySchema,
    response: fileAnswer('text/plain'),
  }),
  results: route({
    method: 'POST',
    path: '/payment-batches/:id/results',
    summary: 'Registrar resultado: líneas liquidadas o rechazadas (a mano o con la respuesta del banco)',
    tags,
    access: AUTHORIZE,
    params: idParams,
    body: recordPaymentResultsBodySchema,
    response: { 200: recordPaymentResultsResponseSchema },
  }),
} as const;

/** Cartera → Devoluciones: credits with saldo a favor, refund requests and their approval. */
export const refundRoutes = {
  candidates: route({
    method: 'GET',
    path: '/refunds/candidates',
    summary: 'Créditos con saldo a favor: importe, lo ya solicitado y desde cuándo',
    tags,
    access: REFUNDS,
    query: refundCandidateListQuerySchema,
    response: { 200: refundCandidateListResponseSchema },
  }),
  list: route({
    method: 'GET',
    path: '/refunds',
    summary: 'Devoluciones solicitadas, aprobadas, pagadas o declinadas',
    tags,
    access: REFUNDS,
    query: refundListQuerySchema,
    response: { 200: refundListResponseSchema },
  }),
  request: route({
    method: 'POST',
    path: '/refunds',
    summary: 'Solicitar devolución de un saldo a favor',
    tags,
    access: REQUEST_REFUND,
    body: requestRefundBodySchema,
    response: { 201: refundSchema },
  }),
  decide: route({
    method: 'POST',
    path: '/refunds/:id/decision',
    summary: 'Aprobar (otra persona que quien la solicitó) o declinar una devolución',
    tags,
    access: APPROVE_REFUND,
    params: idParams,
    body: decideRefundBodySchema,
    response: { 200: refundSchema },
  }),
} as const;
