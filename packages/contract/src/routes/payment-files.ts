import { z } from 'zod';
import { exportQuery, idParams } from '../common';
import {
  missingDeductionsResponseSchema,
  laterPaymentsSchema,
  paymentFileListQuerySchema,
  paymentFileListResponseSchema,
  paymentFileRowsQuerySchema,
  paymentFileRowsResponseSchema,
  paymentFileSchema,
  paymentListQuerySchema,
  paymentListResponseSchema,
  paymentTotalsSchema,
  reasonBodySchema,
  uploadOptionSchema,
} from '../payment-files';
import { XLSX_CONTENT_TYPE, fileAnswer, multipart, route } from '../route-table';

const tags = ['cartera'] as const;
/** A file is seen from the upload screen (its preview) and from the files list (its detail). */
const SEE_FILES = { anyPermission: ['/wallet/upload-file-pay', '/wallet/files-pay-list'] } as const;
const REPORT = { permission: '/wallet/application-pay-list' } as const;

/** Carga archivos de pagos and Listado de archivos de pagos: upload, preview, apply, reject, revert, downloads. */
export const paymentFileRoutes = {
  uploadOptions: route({
    method: 'GET',
    path: '/payment-files/upload-options',
    summary: 'Convenios con su layout y las fechas de descuento de su calendario',
    tags,
    access: { permission: '/wallet/upload-file-pay' },
    response: { 200: z.array(uploadOptionSchema) },
  }),
  upload: route({
    method: 'POST',
    path: '/payment-files',
    summary: 'Carga un archivo de pagos: lo lee con el layout del convenio y valida cada fila (vista previa)',
    tags,
    access: { permission: '/wallet/upload-file-pay' },
    body: multipart('agreementId, discountDate (AAAA-MM-DD) y file (el archivo del convenio), en ese orden'),
    response: { 201: paymentFileSchema },
  }),
  list: route({
    method: 'GET',
    path: '/payment-files',
    summary: 'Listado de archivos de pagos',
    tags,
    access: SEE_FILES,
    query: paymentFileListQuerySchema,
    response: { 200: paymentFileListResponseSchema },
  }),
  get: route({
    method: 'GET',
    path: '/payment-files/:id',
    summary: 'Un archivo de pagos: estado, totales, avance de su aplicación',
    tags,
    access: SEE_FILES,
    params: idParams,
    response: { 200: paymentFileSchema },
  }),
  rows: route({
    method: 'GET',
    path: '/payment-files/:id/rows',
    summary: 'Las filas del archivo con su resultado y, si se aplicó, su reparto',
    tags,
    access: SEE_FILES,
    params: idParams,
    query: paymentFileRowsQuerySchema,
    response: { 200: paymentFileRowsResponseSchema },
  }),
  missing: route({
    method: 'GET',
    path: '/payment-files/:id/missing',
    summary: 'Descuentos esperados en la fecha que el archivo no trae',
    tags,
    access: SEE_FILES,
    params: idParams,
    query: paymentFileRowsQuerySchema.omit({ group: true }),
    response: { 200: missingDeductionsResponseSchema },
  }),
  apply: route({
    method: 'POST',
    path: '/payment-files/:id/apply',
    summary: 'Aplicar: encola la aplicación de todas las filas válidas, en una sola transacción',
    tags,
    access: { permission: '/actions/wallet/apply-file' },
    params: idParams,
    response: { 202: paymentFileSchema },
  }),
  reject: route({
    method: 'POST',
    path: '/payment-files/:id/reject',
    summary: 'Rechaza un archivo validado sin aplicarlo (se conserva con el motivo)',
    tags,
    access: { permission: '/wallet/upload-file-pay' },
    params: idParams,
    body: reasonBodySchema,
    response: { 200: paymentFileSchema },
  }),
  revert: route({
    method: 'POST',
    path: '/payment-files/:id/revert',
    summary: 'Revierte un archivo aplicado: cada crédito vuelve exactamente a como estaba',
    tags,
    access: { permission: '/actions/wallet/revert-file' },
    params: idParams,
    body: reasonBodySchema,
    response: { 200: paymentFileSchema },
  }),
  laterPayments: route({
    method: 'GET',
    path: '/payment-files/:id/later-payments',
    summary: 'Pagos posteriores sobre los créditos del archivo, que se revierten antes que él',
    tags,
    access: { permission: '/actions/wallet/revert-file' },
    params: idParams,
    response: { 200: laterPaymentsSchema },
  }),
  original: route({
    method: 'GET',
    path: '/payment-files/:id/original',
    summary: 'Descarga el archivo tal como se cargó',
    tags,
    access: SEE_FILES,
    params: idParams,
    response: fileAnswer('application/octet-stream'),
  }),
  result: route({
    method: 'GET',
    path: '/payment-files/:id/result.xlsx',
    summary: 'Descarga el resultado: las filas originales con su resultado y su reparto',
    tags,
    access: SEE_FILES,
    params: idParams,
    response: fileAnswer(XLSX_CONTENT_TYPE),
  }),
} as const;

/** Reporte de pagos: the payments applied, with their allocation split, totals and export. */
export const paymentRoutes = {
  list: route({
    method: 'GET',
    path: '/payments',
    summary: 'Reporte de pagos: pagos aplicados con su reparto',
    tags,
    access: REPORT,
    query: paymentListQuerySchema,
    response: { 200: paymentListResponseSchema },
  }),
  totals: route({
    method: 'GET',
    path: '/payments/totals',
    summary: 'Totales del reporte de pagos filtrado',
    tags,
    access: REPORT,
    query: paymentListQuerySchema.omit({ page: true, pageSize: true, sort: true }),
    response: { 200: paymentTotalsSchema },
  }),
  export: route({
    method: 'GET',
    path: '/payments/export.xlsx',
    summary: 'Exporta a Excel el reporte de pagos filtrado',
    tags,
    access: REPORT,
    query: exportQuery(paymentListQuerySchema),
    response: fileAnswer(XLSX_CONTENT_TYPE),
  }),
} as const;
