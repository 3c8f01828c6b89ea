import { and, eq, inArray } from 'drizzle-orm';
import {
  DEFAULT_REPORT_RETENTION_DAYS,
  type ReportDatasetKey,
  type ReportFilter,
  type ReportFormat,
  type ReportSort,
} from '@portal/contract';
import type { Tx } from '../db/client';
import { reportDefinitions, reportRuns } from '../db/schema/reports';
import { companies, profiles, users } from '../db/schema/users';
import { auditEvents } from '../db/schema/audit';
import { produceReport } from '../modules/reports/reports.service';
import { mexicoToday } from '../modules/shared/business-date';

interface SeedDefinition {
  name: string;
  description: string;
  dataset: ReportDatasetKey;
  columns: string[];
  filters: ReportFilter[];
  sort: ReportSort | null;
  format: ReportFormat;
}

/** One definition per dataset, as a portfolio manager would set them up. */
const DEFINITIONS: SeedDefinition[] = [
  {
    name: 'Cartera al día',
    description: 'Saldos, atraso y tramo de cada crédito a la fecha flujo.',
    dataset: 'cartera-al-dia',
    columns: [
      'folio',
      'client',
      'curp',
      'agreement',
      'disbursementDate',
      'principal',
      'installment',
      'outstandingBalance',
      'overdueBalance',
      'nextDiscountDate',
      'daysPastDue',
      'bucket',
      'status',
      'businessDate',
    ],
    filters: [
      { field: 'agreement', type: 'agreement' },
      { field: 'status', type: 'status' },
      { field: 'bucket', type: 'bucket' },
    ],
    sort: { field: 'folio', direction: 'asc' },
    format: 'xlsx',
  },
  {
    name: 'Pagos aplicados del periodo',
    description: 'Pagos recibidos por fecha valor, con su reparto.',
    dataset: 'pagos-aplicados',
    columns: [
      'valueDate',
      'folio',
      'client',
      'agreement',
      'fileName',
      'amount',
      'principal',
      'interest',
      'iva',
      'moratory',
      'fees',
      'overpayment',
      'status',
    ],
    filters: [
      { field: 'agreement', type: 'agreement' },
      { field: 'valueDate', type: 'dateRange' },
      { field: 'status', type: 'status' },
    ],
    sort: { field: 'valueDate', direction: 'desc' },
    format: 'xlsx',
  },
  {
    name: 'Archivos de pago por convenio',
    description: 'Archivos de los patrones con sus totales y su estado.',
    dataset: 'archivos-pago',
    columns: [
      'agreement',
      'discountDate',
      'fileName',
      'rowsTotal',
      'rowsValid',
      'rowsRejected',
      'amountTotal',
      'amountApplied',
      'expectedAmount',
      'missingCount',
      'status',
    ],
    filters: [
      { field: 'agreement', type: 'agreement' },
      { field: 'discountDate', type: 'dateRange' },
    ],
    sort: { field: 'discountDate', direction: 'desc' },
    format: 'csv',
  },
  {
    name: 'Solicitudes por estado',
    description: 'Solicitudes capturadas con su estado y fechas.',
    dataset: 'solicitudes',
    columns: ['folio', 'client', 'agreement', 'product', 'amount', 'term', 'installment', 'status', 'createdAt', 'decidedAt'],
    filters: [
      { field: 'status', type: 'status' },
      { field: 'createdAt', type: 'dateRange' },
    ],
    sort: { field: 'createdAt', direction: 'desc' },
    format: 'xlsx',
  },
  {
    name: 'Vencimientos próximos',
    description: 'Pagos por vencer desde la fecha flujo.',
    dataset: 'vencimientos-proximos',
    columns: ['dueDate', 'folio', 'client', 'agreement', 'number', 'payment', 'outstanding'],
    filters: [
      { field: 'agreement', type: 'agreement' },
      { field: 'dueDate', type: 'dateRange' },
    ],
    sort: { field: 'dueDate', direction: 'asc' },
    format: 'xlsx',
  },
  {
    name: 'Cartera en tránsito',
    description: 'Descuentos tomados por el patrón y aún no remitidos.',
    dataset: 'cartera-en-transito',
    columns: ['folio', 'client', 'employeeNumber', 'agreement', 'period', 'discountDate', 'amount', 'daysInTransit'],
    filters: [{ field: 'agreement', type: 'agreement' }],
    sort: { field: 'daysInTransit', direction: 'desc' },
    format: 'xlsx',
  },
  {
    name: 'Cartera vencida por antigüedad',
    description: 'Créditos con atraso por tramo, del más atrasado al menos.',
    dataset: 'cartera-vencida',
    columns: [
      'folio',
      'client',
      'agreement',
      'daysPastDue',
      'bucket',
      'oldestUnpaidDueDate',
      'overdueBalance',
      'outstandingBalance',
      'status',
    ],
    filters: [
      { field: 'agreement', type: 'agreement' },
      { field: 'bucket', type: 'bucket' },
    ],
    sort: { field: 'daysPastDue', direction: 'desc' },
    format: 'xlsx',
  },
];

/**
 * Financiera Demo's report definitions, one per dataset, run by the profiles that work the portfolio (Administrador,
 * Cartera), and one finished run of Cartera's, produced by the same code as a run's job, so the lists show data.
 */
export async function seedReports(tx: Tx, now: Date): Promise<void> {
  const [company] = await tx.select().from(companies).where(eq(companies.code, 'DEMO'));
  const allowed = await tx
    .select({ id: profiles.id })
    .from(profiles)
    .where(inArray(profiles.name, ['Administrador', 'Cartera']));
  const [cartera] = await tx
    .select()
    .from(users)
    .where(and(eq(users.email, 'cartera@demo.mx'), eq(users.companyId, company!.id)));
  if (!company || allowed.length === 0 || !cartera) return;
  const created = await tx
    .insert(reportDefinitions)
    .values(
      DEFINITIONS.map((definition) => ({
        ...definition,
        companyId: company.id,
        profileIds: allowed.map((profile) => profile.id),
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning();
  await tx.insert(auditEvents).values(
    created.map((definition) => ({
      occurredAt: now,
      action: 'report-definition.create',
      entity: 'report_definition',
      entityId: definition.id,
      after: { name: definition.name, dataset: definition.dataset },
    })),
  );
  const first = created.find((definition) => definition.dataset === 'cartera-al-dia')!;
  const requestedAt = new Date(now.getTime() - 60 * 60 * 1000);
  const [run] = await tx
    .insert(reportRuns)
    .values({
      companyId: company.id,
      definitionId: first.id,
      definitionVersion: first.version,
      definition: {
        name: first.name,
        dataset: first.dataset,
        columns: first.columns,
        filters: first.filters,
        sort: first.sort,
        format: first.format,
      },
      parameters: { status: { value: 'vigente' } },
      status: 'en curso',
      requestedBy: cartera.id,
      requestedAt,
      startedAt: requestedAt,
    })
    .returning();
  let clock = requestedAt.getTime();
  await produceReport(tx, run!.id, {
    now: () => new Date((clock += 700)),
    today: mexicoToday(now),
    retentionDays: DEFAULT_REPORT_RETENTION_DAYS,
  });
}
