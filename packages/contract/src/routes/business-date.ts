import { z } from 'zod';
import { idParams } from '../common';
import {
  businessDateSchema,
  dayCloseListQuerySchema,
  dayCloseListResponseSchema,
  dayCloseRequestSchema,
  dayCloseRunSchema,
} from '../credits';
import { route } from '../route-table';

const SEE = { permission: '/wallet/admin-flow-date' } as const;

/** Admin Fecha Flujo: each company's business date, the day closes so far, and "Cerrar día" as a background job. */
export const businessDateRoutes = {
  businessDates: route({
    method: 'GET',
    path: '/flow-date/business-dates',
    summary: 'Fecha flujo de cada empresa, con el cierre en curso',
    tags: ['cartera'],
    access: SEE,
    response: { 200: z.array(businessDateSchema) },
  }),
  closes: route({
    method: 'GET',
    path: '/flow-date/day-closes',
    summary: 'Historial de cierres de día',
    tags: ['cartera'],
    access: SEE,
    query: dayCloseListQuerySchema,
    response: { 200: dayCloseListResponseSchema },
  }),
  closeDay: route({
    method: 'POST',
    path: '/flow-date/day-closes',
    summary: 'Cerrar día: encola el cierre (trabajo en segundo plano)',
    tags: ['cartera'],
    access: { permission: '/actions/wallet/close-day' },
    body: dayCloseRequestSchema,
    response: { 202: dayCloseRunSchema },
  }),
  run: route({
    method: 'GET',
    path: '/flow-date/day-close-runs/:id',
    summary: 'Avance de un cierre de día',
    tags: ['cartera'],
    access: SEE,
    params: idParams,
    response: { 200: dayCloseRunSchema },
  }),
} as const;
