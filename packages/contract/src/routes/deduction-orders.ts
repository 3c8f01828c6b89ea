import { z } from 'zod';
import { idParams } from '../common';
import {
  deductionOrderDifferencesResponseSchema,
  deductionOrderLinesQuerySchema,
  deductionOrderLinesResponseSchema,
  deductionOrderListQuerySchema,
  deductionOrderListResponseSchema,
  deductionOrderOptionSchema,
  deductionOrderSchema,
  generateDeductionOrderBodySchema,
  sendDeductionOrderBodySchema,
} from '../deduction-orders';
import { fileAnswer, route } from '../route-table';

const tags = ['cartera'] as const;
const SCREEN = { permission: '/wallet/deduction-orders' } as const;
const ISSUE = { permission: '/actions/wallet/issue-deduction-order' } as const;

/** Cartera → Cédulas de descuento: generate a draft, emit it, download it, mark it sent, substitute it. */
export const deductionOrderRoutes = {
  options: route({
    method: 'GET',
    path: '/deduction-orders/options',
    summary: 'Por convenio: el siguiente día de pago que admite cédula (antes de su corte) y los ya cerrados',
    tags,
    access: SCREEN,
    response: { 200: z.array(deductionOrderOptionSchema) },
  }),
  list: route({
    method: 'GET',
    path: '/deduction-orders',
    summary: 'Cédulas de descuento por convenio y día de pago',
    tags,
    access: SCREEN,
    query: deductionOrderListQuerySchema,
    response: { 200: deductionOrderListResponseSchema },
  }),
  get: route({
    method: 'GET',
    path: '/deduction-orders/:id',
    summary: 'Una cédula: estado, conteos e importes por movimiento, quién la emitió y cuándo',
    tags,
    access: SCREEN,
    params: idParams,
    response: { 200: deductionOrderSchema },
  }),
  lines: route({
    method: 'GET',
    path: '/deduction-orders/:id/lines',
    summary: 'Las líneas de la cédula: crédito, empleado, movimiento, importe antes y después, motivo',
    tags,
    access: SCREEN,
    params: idParams,
    query: deductionOrderLinesQuerySchema,
    response: { 200: deductionOrderLinesResponseSchema },
  }),
  differences: route({
    method: 'GET',
    path: '/deduction-orders/:id/differences',
    summary: 'Lo que cambió respecto de la cédula que ésta sustituyó',
    tags,
    access: SCREEN,
    params: idParams,
    response: { 200: deductionOrderDifferencesResponseSchema },
  }),
  generate: route({
    method: 'POST',
    path: '/deduction-orders',
    summary: 'Generar: el borrador del siguiente día de pago antes de su corte, calculado con la cartera a la fecha flujo',
    tags,
    access: SCREEN,
    body: generateDeductionOrderBodySchema,
    response: { 201: deductionOrderSchema },
  }),
  issue: route({
    method: 'POST',
    path: '/deduction-orders/:id/issue',
    summary: 'Emitir: congela la cédula; emitir dos veces se rechaza',
    tags,
    access: ISSUE,
    params: idParams,
    response: { 200: deductionOrderSchema },
  }),
  send: route({
    method: 'POST',
    path: '/deduction-orders/:id/send',
    summary: 'Marcar enviada: fecha, canal y nota',
    tags,
    access: SCREEN,
    params: idParams,
    body: sendDeductionOrderBodySchema,
    response: { 200: deductionOrderSchema },
  }),
  substitute: route({
    method: 'POST',
    path: '/deduction-orders/:id/substitute',
    summary: 'Sustituir: una cédula nueva, emitida, con la cartera actual; la anterior queda sustituida',
    tags,
    access: ISSUE,
    params: idParams,
    response: { 201: deductionOrderSchema },
  }),
  download: route({
    method: 'GET',
    path: '/deduction-orders/:id/file',
    summary: 'Descarga la cédula en el layout del convenio (csv, xlsx o ancho fijo), con el código de movimiento de cada línea',
    tags,
    access: SCREEN,
    params: idParams,
    response: fileAnswer('application/octet-stream'),
  }),
} as const;
