import { z } from 'zod';
import { dateField } from './fields';
import { auditEntrySchema, listQuery, listResponse, versionField } from './common';
import { PAYMENT_FILE_STATUSES, PAYMENT_STATUSES } from './payment-files';
import { RUN_STATUSES } from './runs';
import { CREDIT_COLUMNS, PAYMENT_COLUMNS, PAYMENT_SPLIT_SHOWN_COLUMNS, type ColumnKind, type ListColumn } from './columns';
import { AGING_BUCKETS, CREDIT_STATUSES, REQUEST_STATUSES } from './requests';

/**
 * Admon Cartera → Reportes Operativos (issue 18): report definitions over a fixed catalogue of datasets (query builders
 * in the API, never SQL typed by users) and their runs, background jobs that write an xlsx or csv file kept a
 * configurable number of days. This file is the catalogue the form offers and the API validates against.
 */

/** How a field's cells are written: money as numbers in MXN format, dates as dates, integers, text. */
export const REPORT_FIELD_TYPES = ['money', 'date', 'text', 'integer'] as const;
export type ReportFieldType = (typeof REPORT_FIELD_TYPES)[number];

/**
 * The filters a definition may ask for at run time: an agreement, a range of a date field, a status or an aging bucket.
 * Each is declared on a field of the dataset; a date range goes on any date field.
 */
export const REPORT_FILTER_TYPES = ['agreement', 'dateRange', 'status', 'bucket'] as const;
export type ReportFilterType = (typeof REPORT_FILTER_TYPES)[number];
export const REPORT_FILTER_TYPE_LABELS: Record<ReportFilterType, string> = {
  agreement: 'Convenio',
  dateRange: 'Rango de fechas',
  status: 'Estado',
  bucket: 'Tramo de atraso',
};

export const REPORT_FORMATS = ['xlsx', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReportField {
  key: string;
  label: string;
  type: ReportFieldType;
  /** The filter (other than a date range) this field takes, and its values for status and bucket. */
  filter?: Exclude<ReportFilterType, 'dateRange'>;
  options?: readonly string[];
}

export interface ReportDataset {
  key: string;
  label: string;
  description: string;
  fields: readonly ReportField[];
}

const text = (key: string, label: string): ReportField => ({ key, label, type: 'text' });
const money = (key: string, label: string): ReportField => ({ key, label, type: 'money' });
const date = (key: string, label: string): ReportField => ({ key, label, type: 'date' });
const integer = (key: string, label: string): ReportField => ({ key, label, type: 'integer' });
const FIELD_TYPES: Record<ColumnKind, ReportFieldType> = { text: 'text', money: 'money', date: 'date', datetime: 'date', count: 'integer' };
/** A field meaning what a list's column means: its label and kind are the list's (columns.ts), its key the dataset's. */
const listed = <Key extends string>(columns: readonly ListColumn<Key>[], listKey: Key, key: string = listKey): ReportField => {
  const found = columns.find((candidate) => candidate.key === listKey)!;
  return { key, label: found.label, type: FIELD_TYPES[found.kind] };
};
const credit = (listKey: (typeof CREDIT_COLUMNS)[number]['key'], key?: string) => listed(CREDIT_COLUMNS, listKey, key);
const agreement: ReportField = { ...credit('agreement'), filter: 'agreement' };
const bucket: ReportField = { ...credit('bucket'), filter: 'bucket', options: AGING_BUCKETS };
const status = (label: string, options: readonly string[]): ReportField => ({
  key: 'status',
  label,
  type: 'text',
  filter: 'status',
  options,
});

/** The catalogue. Portfolio figures are at each company's business date (fecha flujo), never at the server's clock. */
export const REPORT_DATASETS = [
  {
    key: 'cartera-al-dia',
    label: 'Cartera al día',
    description: 'Cada crédito con sus saldos, días de atraso y tramo a la fecha flujo de su empresa.',
    fields: [
      credit('folio'),
      credit('clientName', 'client'),
      credit('curp'),
      text('employeeNumber', 'Número de empleado'),
      agreement,
      text('product', 'Producto'),
      credit('disbursementDate'),
      credit('principal'),
      integer('term', 'Plazo'),
      credit('installment'),
      credit('outstandingBalance'),
      money('overdueBalance', 'Saldo vencido'),
      credit('nextDiscountDate'),
      credit('daysPastDue'),
      bucket,
      status('Estado', CREDIT_STATUSES),
      date('businessDate', 'Fecha flujo'),
    ],
  },
  {
    key: 'pagos-aplicados',
    label: 'Pagos aplicados',
    description: 'Los pagos recibidos con su reparto por concepto.',
    fields: [
      listed(PAYMENT_COLUMNS, 'creditFolio', 'folio'),
      listed(PAYMENT_COLUMNS, 'clientName', 'client'),
      agreement,
      listed(PAYMENT_COLUMNS, 'fileName'),
      listed(PAYMENT_COLUMNS, 'valueDate'),
      listed(PAYMENT_COLUMNS, 'amount'),
      ...PAYMENT_SPLIT_SHOWN_COLUMNS.map((column) => listed(PAYMENT_SPLIT_SHOWN_COLUMNS, column.key)),
      status('Estado', PAYMENT_STATUSES),
      date('appliedAt', 'Fecha de aplicación'),
    ],
  },
  {
    key: 'archivos-pago',
    label: 'Archivos de pago',
    description: 'Los archivos de pagos de los convenios con sus totales y su estado.',
    fields: [
      agreement,
      date('discountDate', 'Fecha de descuento'),
      text('fileName', 'Archivo'),
      integer('rowsTotal', 'Filas'),
      integer('rowsValid', 'Filas válidas'),
      integer('rowsRejected', 'Filas rechazadas'),
      money('amountTotal', 'Importe del archivo'),
      money('amountApplied', 'Importe aplicado'),
      money('amountRejected', 'Importe rechazado'),
      money('expectedAmount', 'Importe esperado'),
      integer('missingCount', 'Descuentos faltantes'),
      status('Estado', PAYMENT_FILE_STATUSES),
      date('uploadedAt', 'Fecha de carga'),
    ],
  },
  {
    key: 'solicitudes',
    label: 'Solicitudes',
    description: 'Las solicitudes de crédito con su estado.',
    fields: [
      text('folio', 'Folio'),
      text('client', 'Solicitante'),
      text('employeeNumber', 'Número de empleado'),
      agreement,
      text('product', 'Producto'),
      money('amount', 'Monto solicitado'),
      integer('term', 'Plazo'),
      money('installment', 'Descuento'),
      status('Estado', REQUEST_STATUSES),
      date('createdAt', 'Fecha de captura'),
      date('decidedAt', 'Fecha de decisión'),
    ],
  },
  {
    key: 'vencimientos-proximos',
    label: 'Vencimientos próximos',
    description: 'Los pagos con saldo que vencen a partir de la fecha flujo.',
    fields: [
      text('folio', 'Folio'),
      text('client', 'Acreditado'),
      agreement,
      integer('number', 'Número de pago'),
      date('dueDate', 'Fecha de vencimiento'),
      money('payment', 'Pago'),
      money('outstanding', 'Saldo del pago'),
      status('Estado del crédito', CREDIT_STATUSES),
    ],
  },
  {
    key: 'cartera-en-transito',
    label: 'Cartera en tránsito',
    description: 'Descuentos que el patrón ya tomó de la nómina y todavía no remite.',
    fields: [
      text('folio', 'Folio'),
      text('client', 'Acreditado'),
      text('employeeNumber', 'Número de empleado'),
      agreement,
      integer('period', 'Periodo'),
      date('discountDate', 'Fecha de descuento'),
      money('amount', 'Importe'),
      integer('daysInTransit', 'Días en tránsito'),
      status('Estado del crédito', CREDIT_STATUSES),
    ],
  },
  {
    key: 'cartera-vencida',
    label: 'Cartera vencida por antigüedad',
    description: 'Los créditos con atraso, por tramo, con su saldo vencido y su pago más antiguo sin cubrir.',
    fields: [
      text('folio', 'Folio'),
      text('client', 'Acreditado'),
      text('employeeNumber', 'Número de empleado'),
      agreement,
      credit('daysPastDue'),
      bucket,
      date('oldestUnpaidDueDate', 'Vencimiento más antiguo sin pagar'),
      money('overdueBalance', 'Saldo vencido'),
      credit('outstandingBalance'),
      status('Estado', CREDIT_STATUSES),
    ],
  },
] as const satisfies readonly ReportDataset[];

export type ReportDatasetKey = (typeof REPORT_DATASETS)[number]['key'];
export const REPORT_DATASET_KEYS = REPORT_DATASETS.map((dataset) => dataset.key) as [ReportDatasetKey, ...ReportDatasetKey[]];

export const reportDataset = (key: string): ReportDataset | undefined =>
  (REPORT_DATASETS as readonly ReportDataset[]).find((dataset) => dataset.key === key);

/** Which filter types a field admits: its own (agreement, status, bucket), or a date range on a date field. */
export const fieldFilterTypes = (field: ReportField): ReportFilterType[] =>
  field.type === 'date' ? ['dateRange'] : field.filter ? [field.filter] : [];

export const REPORT_MAX_COLUMNS = 40;

const reportFilterSchema = z.object({
  field: z.string().min(1, 'Elige el campo del filtro.').max(60),
  type: z.enum(REPORT_FILTER_TYPES, 'Tipo de filtro no válido.'),
});
export type ReportFilter = z.infer<typeof reportFilterSchema>;

export const reportSortSchema = z.object({
  field: z.string().min(1).max(60),
  direction: z.enum(['asc', 'desc']),
});
export type ReportSort = z.infer<typeof reportSortSchema>;

/**
 * A definition as written: the dataset's field keys it shows in order, the filters asked at run time, the sort, the
 * format and the profiles that may run it. Checked against the dataset (superRefine) with a message per field.
 */
const definitionShape = z.object({
  name: z.string().trim().min(3, 'El nombre necesita al menos 3 caracteres.').max(120, 'El nombre admite hasta 120 caracteres.'),
  description: z.string().trim().max(500, 'La descripción admite hasta 500 caracteres.').default(''),
  dataset: z.enum(REPORT_DATASET_KEYS, 'Elige un conjunto de datos del catálogo.'),
  columns: z.array(z.string().max(60)).max(REPORT_MAX_COLUMNS, `Elige hasta ${REPORT_MAX_COLUMNS} columnas.`),
  filters: z.array(reportFilterSchema).max(10, 'Hasta 10 filtros.').default([]),
  sort: reportSortSchema.nullable().default(null),
  format: z.enum(REPORT_FORMATS, 'El formato es xlsx o csv.'),
  profileIds: z.array(z.uuid('Perfil no válido.')).min(1, 'Elige al menos un perfil que pueda ejecutarlo.').max(50),
});

/** The problems of a definition against its dataset, as field errors (path → Spanish message). */
export function reportDefinitionIssues(
  value: Pick<z.output<typeof definitionShape>, 'dataset' | 'columns' | 'filters' | 'sort'>,
): { path: (string | number)[]; message: string }[] {
  const dataset = reportDataset(value.dataset);
  if (!dataset) return [];
  const issues: { path: (string | number)[]; message: string }[] = [];
  const fieldOf = (key: string) => dataset.fields.find((field) => field.key === key);
  if (value.columns.length === 0) issues.push({ path: ['columns'], message: 'Elige al menos una columna.' });
  const seen = new Set<string>();
  value.columns.forEach((key, index) => {
    if (!fieldOf(key)) issues.push({ path: ['columns', index], message: `El campo «${key}» no existe en ${dataset.label}.` });
    else if (seen.has(key)) issues.push({ path: ['columns', index], message: `La columna «${fieldOf(key)!.label}» está repetida.` });
    seen.add(key);
  });
  const filtered = new Set<string>();
  value.filters.forEach((filter, index) => {
    const field = fieldOf(filter.field);
    if (!field) {
      issues.push({ path: ['filters', index, 'field'], message: `El campo «${filter.field}» no existe en ${dataset.label}.` });
      return;
    }
    if (!fieldFilterTypes(field).includes(filter.type)) {
      const admitted = fieldFilterTypes(field);
      issues.push({
        path: ['filters', index, 'type'],
        message: admitted.length
          ? `El campo «${field.label}» se filtra por ${REPORT_FILTER_TYPE_LABELS[admitted[0]!].toLowerCase()}, no por ${REPORT_FILTER_TYPE_LABELS[filter.type].toLowerCase()}.`
          : `El campo «${field.label}» no admite filtros.`,
      });
    }
    if (filtered.has(filter.field))
      issues.push({ path: ['filters', index, 'field'], message: `El campo «${field.label}» ya tiene un filtro.` });
    filtered.add(filter.field);
  });
  if (value.sort && !fieldOf(value.sort.field))
    issues.push({ path: ['sort', 'field'], message: `El campo «${value.sort.field}» no existe en ${dataset.label}.` });
  return issues;
}

const againstDataset = (value: z.output<typeof definitionShape>, context: z.RefinementCtx) => {
  for (const issue of reportDefinitionIssues(value)) context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
};

export const reportDefinitionInputSchema = definitionShape.superRefine(againstDataset);
export type ReportDefinitionInput = z.input<typeof reportDefinitionInputSchema>;
export type ReportDefinitionValues = z.output<typeof reportDefinitionInputSchema>;
export const reportDefinitionUpdateSchema = definitionShape.extend({ version: versionField }).superRefine(againstDataset);

export const reportDefinitionSchema = z.object({
  id: z.string(),
  companyId: z.string(),
  company: z.string(),
  name: z.string(),
  description: z.string(),
  dataset: z.enum(REPORT_DATASET_KEYS),
  columns: z.array(z.string()),
  filters: z.array(reportFilterSchema),
  sort: reportSortSchema.nullable(),
  format: z.enum(REPORT_FORMATS),
  profileIds: z.array(z.string()),
  profiles: z.array(z.string()),
  active: z.boolean(),
  version: z.number().int(),
  updatedAt: z.string(),
});
export type ReportDefinition = z.infer<typeof reportDefinitionSchema>;
export const reportDefinitionDetailSchema = reportDefinitionSchema.extend({ history: z.array(auditEntrySchema) });
export type ReportDefinitionDetail = z.infer<typeof reportDefinitionDetailSchema>;

export const REPORT_DEFINITION_SORT_FIELDS = ['name', 'dataset', 'updatedAt'] as const;
export const reportDefinitionListQuerySchema = listQuery.extend({
  sort: z
    .string()
    .regex(new RegExp(`^-?(${REPORT_DEFINITION_SORT_FIELDS.join('|')})$`), 'Orden no válido.')
    .optional(),
  dataset: z.enum(REPORT_DATASET_KEYS, 'Conjunto de datos no válido.').optional(),
  format: z.enum(REPORT_FORMATS, 'Formato no válido.').optional(),
});
export const reportDefinitionListResponseSchema = listResponse(reportDefinitionSchema);

/** The profiles a definition may be granted to (the form's choices). */
export const reportProfileOptionSchema = z.object({ id: z.string(), name: z.string() });

/**
 * A run's parameters: one per filter of the definition, keyed by the filter's field. An agreement or a status or
 * bucket is `value`; a date range is `from` and/or `to`. An empty parameter leaves that filter out.
 */
const optionalDate = z.union([z.literal(''), dateField()]).optional();
export const reportParameterSchema = z.object({
  value: z.string().trim().max(60).optional(),
  from: optionalDate,
  to: optionalDate,
});
export type ReportParameter = z.infer<typeof reportParameterSchema>;
export const reportRunRequestSchema = z.object({
  definitionId: z.uuid('Reporte no válido.'),
  parameters: z.record(z.string().max(60), reportParameterSchema).default({}),
});
export type ReportRunRequest = z.input<typeof reportRunRequestSchema>;

/** A report run's states: a tracked run's, and vencido once its file passed retention. */
export const REPORT_RUN_STATUSES = [...RUN_STATUSES, 'vencido'] as const;
export type ReportRunStatus = (typeof REPORT_RUN_STATUSES)[number];

export const reportRunSchema = z.object({
  id: z.string(),
  definitionId: z.string(),
  definitionName: z.string(),
  dataset: z.enum(REPORT_DATASET_KEYS),
  format: z.enum(REPORT_FORMATS),
  parameters: z.record(z.string(), reportParameterSchema),
  status: z.enum(REPORT_RUN_STATUSES),
  rowsTotal: z.number().int().nullable(),
  rowsDone: z.number().int(),
  size: z.number().int().nullable(),
  fileName: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  error: z.string().nullable(),
  requestedBy: z.string().nullable(),
  requestedAt: z.string(),
  finishedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type ReportRun = z.infer<typeof reportRunSchema>;
export const reportRunListQuerySchema = listQuery.omit({ q: true }).extend({ definitionId: z.uuid('Reporte no válido.').optional() });
export const reportRunListResponseSchema = listResponse(reportRunSchema);

/** A definition the user may run: what the run form needs (its filters, with the fields' labels and options). */
export const runnableReportSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  dataset: z.enum(REPORT_DATASET_KEYS),
  format: z.enum(REPORT_FORMATS),
  filters: z.array(reportFilterSchema),
});
export type RunnableReport = z.infer<typeof runnableReportSchema>;

/** How long a run's file is kept unless REPORT_RETENTION_DAYS says otherwise. */
export const DEFAULT_REPORT_RETENTION_DAYS = 7;
