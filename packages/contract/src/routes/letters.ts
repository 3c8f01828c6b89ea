import { idParams, itemsResponse } from '../common';
import {
  issueLetterSchema,
  letterQuoteQuerySchema,
  letterQuoteSchema,
  letterSchema,
  letterSummarySchema,
  letterTemplateBrandSchema,
} from '../letters';
import { fileAnswer, multipart, route } from '../route-table';

const tags = ['creditos'] as const;
const SCREEN = { permission: '/creditos/settlement-letter' } as const;
/** The credit view lists and downloads a credit's letters too. */
const SCREEN_OR_CREDITS = { anyPermission: ['/creditos/settlement-letter', '/wallet/credits/credits-list'] } as const;

/** Créditos → Carta de Liquidación Anticipada: the quote, issuing a letter, its PDF, and the brands' templates. */
export const letterRoutes = {
  quote: route({
    method: 'GET',
    path: '/credits/:id/settlement-quote',
    summary: 'Cotización de la carta: liquidación a la fecha de vigencia (por omisión, los días hábiles de la empresa)',
    tags,
    access: SCREEN,
    params: idParams,
    query: letterQuoteQuerySchema,
    response: { 200: letterQuoteSchema },
  }),
  issue: route({
    method: 'POST',
    path: '/credits/:id/settlement-letters',
    summary: 'Genera la carta de liquidación en PDF con la plantilla vigente de la empresa y la guarda',
    tags,
    access: { permission: '/actions/credit-tools/issue-letter' },
    params: idParams,
    body: issueLetterSchema,
    response: { 201: letterSchema },
  }),
  list: route({
    method: 'GET',
    path: '/credits/:id/settlement-letters',
    summary: 'Cartas de liquidación emitidas de un crédito, la más reciente primero',
    tags,
    access: SCREEN_OR_CREDITS,
    params: idParams,
    response: { 200: itemsResponse(letterSummarySchema) },
  }),
  pdf: route({
    method: 'GET',
    path: '/settlement-letters/:id/pdf',
    summary: 'Descarga el PDF de una carta tal como se emitió (byte por byte)',
    tags,
    access: SCREEN_OR_CREDITS,
    params: idParams,
    response: fileAnswer('application/pdf'),
  }),
  templates: route({
    method: 'GET',
    path: '/letter-templates',
    summary: 'Plantillas de carta por marca, con sus versiones (la más reciente primero)',
    tags,
    access: { anyPermission: ['/creditos/settlement-letter', '/actions/credit-tools/upload-letter-template'] },
    response: { 200: itemsResponse(letterTemplateBrandSchema) },
  }),
  uploadTemplate: route({
    method: 'POST',
    path: '/letter-templates',
    summary: 'Sube una nueva versión de la plantilla de una marca: el fondo en PDF y el layout JSON que coloca cada campo',
    tags,
    access: { permission: '/actions/credit-tools/upload-letter-template' },
    body: multipart('companyId: la marca (empresa); background: el PDF de fondo; layout: el archivo JSON con la posición de cada campo'),
    response: { 201: letterTemplateBrandSchema },
  }),
} as const;
