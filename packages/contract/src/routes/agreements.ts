import { exportQuery, idParams, listResponse, statusBody } from '../common';
import { XLSX_CONTENT_TYPE, fileAnswer, multipart, route } from '../route-table';
import {
  agreementDetailSchema,
  agreementInputSchema,
  agreementListItemSchema,
  agreementListQuerySchema,
  agreementUpdateSchema,
  layoutTestResultSchema,
  renewalMinimumInputSchema,
  renewalMinimumSchema,
} from '../agreements';

const tags = ['convenios'] as const;

/**
 * Convenios: the list, its export, an agreement's detail, create, edit, switch on/off, the layout test, and the
 * company's minimum net amount of a renewal (always the caller's own company).
 */
export const agreementRoutes = {
  list: route({
    method: 'GET',
    path: '/agreements',
    summary: 'Lista de convenios',
    tags,
    access: { permission: '/catalog/contract-list' },
    query: agreementListQuerySchema,
    response: { 200: listResponse(agreementListItemSchema) },
  }),
  export: route({
    method: 'GET',
    path: '/agreements/export.xlsx',
    summary: 'Exporta a Excel la lista con el filtro actual',
    tags,
    access: { permission: '/catalog/contract-list' },
    query: exportQuery(agreementListQuerySchema),
    response: fileAnswer(XLSX_CONTENT_TYPE),
  }),
  renewalMinimum: route({
    method: 'GET',
    path: '/agreements/renewal-minimum',
    summary: 'El monto neto mínimo de una renovación de la empresa del usuario',
    tags,
    access: { permission: '/catalog/contract-list' },
    response: { 200: renewalMinimumSchema },
  }),
  setRenewalMinimum: route({
    method: 'PUT',
    path: '/agreements/renewal-minimum',
    summary: 'Fija el monto neto mínimo de una renovación de la empresa del usuario (auditado)',
    tags,
    access: { permission: '/actions/agreements/renewal-minimum' },
    body: renewalMinimumInputSchema,
    response: { 200: renewalMinimumSchema },
  }),
  get: route({
    method: 'GET',
    path: '/agreements/:id',
    summary: 'Un convenio con sus productos, layout e historial',
    tags,
    access: { permission: '/catalog/contract-list' },
    params: idParams,
    response: { 200: agreementDetailSchema },
  }),
  create: route({
    method: 'POST',
    path: '/agreements',
    summary: 'Crea un convenio con sus productos y su layout',
    tags,
    access: { permission: '/catalog/contract-new' },
    body: agreementInputSchema,
    response: { 201: agreementDetailSchema },
  }),
  update: route({
    method: 'PUT',
    path: '/agreements/:id',
    summary: 'Edita un convenio (rechaza ediciones sobre una versión vieja)',
    tags,
    access: { permission: '/catalog/contract-list' },
    params: idParams,
    body: agreementUpdateSchema,
    response: { 200: agreementDetailSchema },
  }),
  setStatus: route({
    method: 'POST',
    path: '/agreements/:id/status',
    summary: 'Activa o desactiva un convenio (sus créditos siguen; solo deja de recibir solicitudes)',
    tags,
    access: { permission: '/catalog/contract-list' },
    params: idParams,
    body: statusBody,
    response: { 200: agreementDetailSchema },
  }),
  layoutTest: route({
    method: 'POST',
    path: '/agreements/layout-test',
    summary: 'Probar layout: lee un archivo de muestra (multipart: layout JSON y archivo) y devuelve sus primeras filas',
    tags,
    access: { anyPermission: ['/catalog/contract-new', '/catalog/contract-list'] },
    body: multipart('layout (JSON del layout, antes del archivo) y file (el archivo de muestra)'),
    response: { 200: layoutTestResultSchema },
  }),
} as const;
