import { idParams, itemsResponse, statusBody } from '../common';
import { fileAnswer, route } from '../route-table';
import {
  reportDefinitionDetailSchema,
  reportDefinitionInputSchema,
  reportDefinitionListQuerySchema,
  reportDefinitionListResponseSchema,
  reportDefinitionUpdateSchema,
  reportProfileOptionSchema,
  reportRunListQuerySchema,
  reportRunListResponseSchema,
  reportRunRequestSchema,
  reportRunSchema,
  runnableReportSchema,
} from '../reports';

const tags = ['reportes'] as const;
const DEFINITIONS = { permission: '/admon-wallet/reports-list' } as const;
const EDIT_DEFINITIONS = { anyPermission: ['/admon-wallet/reports-list', '/admon-wallet/reports-new'] } as const;
const RUNS = { permission: '/wallet/operative-report' } as const;

/** Admon Cartera: report definitions (list, detail with history, create, edit, switch on/off). */
export const reportDefinitionRoutes = {
  list: route({
    method: 'GET',
    path: '/report-definitions',
    summary: 'Lista de reportes operativos definidos',
    tags,
    access: DEFINITIONS,
    query: reportDefinitionListQuerySchema,
    response: { 200: reportDefinitionListResponseSchema },
  }),
  profiles: route({
    method: 'GET',
    path: '/report-definitions/profiles',
    summary: 'Perfiles a los que se puede permitir ejecutar un reporte',
    tags,
    access: EDIT_DEFINITIONS,
    response: { 200: itemsResponse(reportProfileOptionSchema) },
  }),
  get: route({
    method: 'GET',
    path: '/report-definitions/:id',
    summary: 'Un reporte definido con su historial',
    tags,
    access: DEFINITIONS,
    params: idParams,
    response: { 200: reportDefinitionDetailSchema },
  }),
  create: route({
    method: 'POST',
    path: '/report-definitions',
    summary: 'Define un reporte operativo sobre un conjunto de datos del catálogo',
    tags,
    access: { permission: '/admon-wallet/reports-new' },
    body: reportDefinitionInputSchema,
    response: { 201: reportDefinitionDetailSchema },
  }),
  update: route({
    method: 'PUT',
    path: '/report-definitions/:id',
    summary: 'Edita un reporte definido (rechaza ediciones sobre una versión vieja)',
    tags,
    access: DEFINITIONS,
    params: idParams,
    body: reportDefinitionUpdateSchema,
    response: { 200: reportDefinitionDetailSchema },
  }),
  setStatus: route({
    method: 'POST',
    path: '/report-definitions/:id/status',
    summary: 'Activa o desactiva un reporte (uno inactivo no se ejecuta; sus ejecuciones se conservan)',
    tags,
    access: DEFINITIONS,
    params: idParams,
    body: statusBody,
    response: { 200: reportDefinitionDetailSchema },
  }),
} as const;

/** Cartera → Reportes Operativos: what the user's profile may run, starting a run, its progress, history and file. */
export const reportRunRoutes = {
  runnable: route({
    method: 'GET',
    path: '/report-runs/runnable',
    summary: 'Los reportes que el perfil del usuario puede ejecutar',
    tags,
    access: RUNS,
    response: { 200: itemsResponse(runnableReportSchema) },
  }),
  list: route({
    method: 'GET',
    path: '/report-runs',
    summary: 'Historial de ejecuciones del usuario',
    tags,
    access: RUNS,
    query: reportRunListQuerySchema,
    response: { 200: reportRunListResponseSchema },
  }),
  start: route({
    method: 'POST',
    path: '/report-runs',
    summary: 'Ejecuta un reporte con sus parámetros (en segundo plano)',
    tags,
    access: RUNS,
    body: reportRunRequestSchema,
    response: { 202: reportRunSchema },
  }),
  get: route({
    method: 'GET',
    path: '/report-runs/:id',
    summary: 'Una ejecución: estado y avance',
    tags,
    access: RUNS,
    params: idParams,
    response: { 200: reportRunSchema },
  }),
  download: route({
    method: 'GET',
    path: '/report-runs/:id/file',
    summary: 'Descarga el archivo de una ejecución terminada (mientras se conserva)',
    tags,
    access: RUNS,
    params: idParams,
    response: fileAnswer('application/octet-stream'),
  }),
} as const;
