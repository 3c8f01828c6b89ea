import { itemsResponse } from '../common';
import { labelFileSchema, labelSchema, labelUpdatePreviewSchema, labelUpdateRequestSchema, labelUpdateResultSchema } from '../labels';
import { multipart, route } from '../route-table';

const tags = ['creditos'] as const;
const UPDATE_LABELS = { permission: '/creditos/update-labels' } as const;

/** Créditos → Actualizar Etiqueta: the catalogue, reading a file, the preview (dry run) and the application. */
export const labelRoutes = {
  catalogue: route({
    method: 'GET',
    path: '/labels',
    summary: 'Catálogo de etiquetas con su color (las de tu empresa; las de todas para SA)',
    tags,
    access: { anyPermission: ['/creditos/update-labels', '/wallet/credits/credits-list'] },
    response: { 200: itemsResponse(labelSchema) },
  }),
  readFile: route({
    method: 'POST',
    path: '/label-updates/file',
    summary: 'Lee un archivo CSV o Excel con las columnas folio, etiqueta y acción (agregar/quitar)',
    tags,
    access: UPDATE_LABELS,
    body: multipart('file: el archivo (.csv o .xlsx) con las columnas folio, etiqueta y acción'),
    response: { 200: labelFileSchema },
  }),
  preview: route({
    method: 'POST',
    path: '/label-updates/preview',
    summary: 'Vista previa: el resultado de cada fila sin cambiar nada',
    tags,
    access: UPDATE_LABELS,
    body: labelUpdateRequestSchema,
    response: { 200: labelUpdatePreviewSchema },
  }),
  apply: route({
    method: 'POST',
    path: '/label-updates',
    summary: 'Aplica las filas aplicables en una sola transacción y guarda cada cambio en el historial del crédito',
    tags,
    access: UPDATE_LABELS,
    body: labelUpdateRequestSchema,
    response: { 201: labelUpdateResultSchema },
  }),
} as const;
