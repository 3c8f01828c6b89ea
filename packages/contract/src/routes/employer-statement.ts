import {
  employerStatementLinesQuerySchema,
  employerStatementLinesResponseSchema,
  employerStatementQuerySchema,
  employerStatementResponseSchema,
} from '../employer-statement';
import { XLSX_CONTENT_TYPE, fileAnswer, route } from '../route-table';

const tags = ['cartera'] as const;
const SCREEN = { permission: '/wallet/employer-statement' } as const;

/** Cartera → Estado de cuenta por convenio: instructed vs received vs missing per agreement and payday. */
export const employerStatementRoutes = {
  month: route({
    method: 'GET',
    path: '/employer-statement',
    summary: 'Por convenio y día de pago del mes: instruido (cédula emitida), recibido (archivos aplicados) y faltante',
    tags,
    access: SCREEN,
    query: employerStatementQuerySchema,
    response: { 200: employerStatementResponseSchema },
  }),
  lines: route({
    method: 'GET',
    path: '/employer-statement/lines',
    summary: 'Las líneas detrás de una cifra: instruidas, recibidas o faltantes de un convenio y día de pago',
    tags,
    access: SCREEN,
    query: employerStatementLinesQuerySchema,
    response: { 200: employerStatementLinesResponseSchema },
  }),
  missingExport: route({
    method: 'GET',
    path: '/employer-statement/missing.xlsx',
    summary: 'Exporta a Excel los descuentos faltantes de un convenio y día de pago (seguimiento al patrón)',
    tags,
    access: SCREEN,
    query: employerStatementLinesQuerySchema.omit({ page: true, pageSize: true, group: true }),
    response: fileAnswer(XLSX_CONTENT_TYPE),
  }),
} as const;
