import { z } from 'zod';
import { idParams, listResponse } from '../common';
import { fileAnswer, multipart, route, type RouteAccess } from '../route-table';
import {
  DOCUMENT_KINDS,
  REQUEST_ACTIONS,
  disbursementResultSchema,
  requestActionBodySchemas,
  requestListQuerySchema,
  requestSchema,
  requestSummarySchema,
  requestUpdateSchema,
  renewableCreditsQuerySchema,
  renewableCreditsSchema,
  type RequestAction,
} from '../requests';

const tags = ['originación'] as const;
const capture = { permission: '/origination/request-new' } as const;
/** The request itself and its documents: whoever captures it or works the Capturas list. */
const work = { anyPermission: ['/origination/request-new', '/origination/request-list'] } as const;
const documentParams = idParams.extend({ kind: z.enum(DOCUMENT_KINDS, 'Tipo de documento no válido.') });

/** What an action of the status machine needs: its own permission when it has one, else whoever works the request. */
const actionAccess = (action: RequestAction): RouteAccess => {
  const permission = REQUEST_ACTIONS[action].permission;
  return permission ? { permission } : work;
};

const statusChange = <const A extends Exclude<RequestAction, 'disburse'>>(action: A) =>
  route({
    method: 'POST',
    path: `/requests/:id/${action}`,
    summary: `${REQUEST_ACTIONS[action].label}: ${REQUEST_ACTIONS[action].from.join(' o ')} → ${REQUEST_ACTIONS[action].to}`,
    tags,
    access: actionAccess(action),
    params: idParams,
    body: requestActionBodySchemas[action],
    response: { 200: requestSchema },
  });

/** Solicitudes and Capturas: capture with documents, the status machine, and disbursement into a credit. */
export const requestRoutes = {
  list: route({
    method: 'GET',
    path: '/requests',
    summary: 'Capturas: solicitudes paginadas, filtradas y ordenadas',
    tags,
    access: { permission: '/origination/request-list' },
    query: requestListQuerySchema,
    response: { 200: listResponse(requestSummarySchema) },
  }),
  renewable: route({
    method: 'GET',
    path: '/requests/renewable-credits',
    summary: 'Renovación: los créditos activos de una CURP en la empresa, con su finiquito a la fecha flujo',
    tags,
    // Pre-Solicitudes names the credits to renew too.
    access: { anyPermission: [...work.anyPermission, '/origination/pre-request-new'] },
    query: renewableCreditsQuerySchema,
    response: { 200: renewableCreditsSchema },
  }),
  get: route({
    method: 'GET',
    path: '/requests/:id',
    summary: 'Una solicitud: datos, documentos, simulación e historial',
    tags,
    access: work,
    params: idParams,
    response: { 200: requestSchema },
  }),
  create: route({
    method: 'POST',
    path: '/requests',
    summary: 'Captura una solicitud (multipart: campo "data" con JSON y los archivos ine, comprobante, recibo); queda capturada',
    tags,
    access: capture,
    body: multipart('data (JSON de la solicitud, antes de los archivos), ine, comprobante, recibo'),
    response: { 201: requestSchema },
  }),
  update: route({
    method: 'PUT',
    path: '/requests/:id',
    summary: 'Edita una solicitud capturada (vuelve a dictaminar)',
    tags,
    access: capture,
    params: idParams,
    body: requestUpdateSchema,
    response: { 200: requestSchema },
  }),
  putDocument: route({
    method: 'PUT',
    path: '/requests/:id/documents/:kind',
    summary: 'Sube o reemplaza un documento (multipart: campo "file")',
    tags,
    access: work,
    params: documentParams,
    body: multipart('file (el documento: PDF, JPG o PNG)'),
    response: { 200: requestSchema },
  }),
  getDocument: route({
    method: 'GET',
    path: '/requests/:id/documents/:kind',
    summary: 'El archivo de un documento',
    tags,
    access: work,
    params: documentParams,
    response: fileAnswer('application/pdf, image/jpeg o image/png (el tipo del documento guardado)'),
  }),
  submit: statusChange('submit'),
  approve: statusChange('approve'),
  reject: statusChange('reject'),
  cancel: statusChange('cancel'),
  disburse: route({
    method: 'POST',
    path: '/requests/:id/disburse',
    summary: 'Dispersa una solicitud aprobada: crea el crédito, su tabla y sus descuentos esperados en una transacción',
    tags,
    access: actionAccess('disburse'),
    params: idParams,
    body: requestActionBodySchemas.disburse,
    response: { 200: disbursementResultSchema },
  }),
} as const;
