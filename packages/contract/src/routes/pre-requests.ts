import { idParams, listResponse, versionBody } from '../common';
import { route } from '../route-table';
import {
  originationCatalogSchema,
  preRequestInputSchema,
  preRequestListQuerySchema,
  preRequestSchema,
  preRequestUpdateSchema,
  simulationSchema,
} from '../origination';

const tags = ['originación'] as const;
const capture = { permission: '/origination/pre-request-new' } as const;
/** The request form reads the same catalog and the clerk's sent pre-requests, to convert one. */
const read = { anyPermission: ['/origination/pre-request-new', '/origination/request-new'] } as const;

/** Pre-solicitudes: simulate, save as draft, edit a draft, send. */
export const preRequestRoutes = {
  catalog: route({
    method: 'GET',
    path: '/pre-requests/catalog',
    summary: 'Convenios vigentes de la empresa y sus productos activos, para capturar',
    tags,
    // Capturas filters by the same agreements and dates disbursements from the same business "today".
    access: { anyPermission: [...read.anyPermission, '/origination/request-list'] },
    response: { 200: originationCatalogSchema },
  }),
  simulate: route({
    method: 'POST',
    path: '/pre-requests/simulate',
    summary: 'Capacidad, tabla, CAT y dictamen de una pre-solicitud, sin guardarla',
    tags,
    access: capture,
    body: preRequestInputSchema,
    response: { 200: simulationSchema },
  }),
  list: route({
    method: 'GET',
    path: '/pre-requests',
    summary: 'Mis pre-solicitudes',
    tags,
    access: read,
    query: preRequestListQuerySchema,
    response: { 200: listResponse(preRequestSchema) },
  }),
  get: route({
    method: 'GET',
    path: '/pre-requests/:id',
    summary: 'Una pre-solicitud',
    tags,
    access: read,
    params: idParams,
    response: { 200: preRequestSchema },
  }),
  create: route({
    method: 'POST',
    path: '/pre-requests',
    summary: 'Guarda una pre-solicitud como borrador, con su dictamen',
    tags,
    access: capture,
    body: preRequestInputSchema,
    response: { 201: preRequestSchema },
  }),
  update: route({
    method: 'PUT',
    path: '/pre-requests/:id',
    summary: 'Edita un borrador (vuelve a dictaminar)',
    tags,
    access: capture,
    params: idParams,
    body: preRequestUpdateSchema,
    response: { 200: preRequestSchema },
  }),
  send: route({
    method: 'POST',
    path: '/pre-requests/:id/send',
    summary: 'Envía una pre-solicitud pre-aprobada',
    tags,
    access: capture,
    params: idParams,
    body: versionBody,
    response: { 200: preRequestSchema },
  }),
} as const;
