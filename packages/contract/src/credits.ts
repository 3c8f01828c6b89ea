import { z } from 'zod';
import { dateField } from './fields';
import { AGING_BUCKETS, CREDIT_STATUSES, LIQUIDATION_REASONS } from './requests';
import { RUN_STATUSES } from './runs';
import { listQuery, listResponse } from './common';

/** Cartera: the credits list, the full credit view, the fecha flujo and its day closes (issue 15). */

const isoDate = dateField();

export const CREDIT_SORT_FIELDS = ['folio', 'disbursementDate', 'daysPastDue', 'outstandingBalance', 'bucket'] as const;

export const creditListQuerySchema = listQuery.extend({
  sort: z
    .string()
    .regex(new RegExp(`^-?(${CREDIT_SORT_FIELDS.join('|')})$`), 'Orden no válido.')
    .optional(),
  agreementId: z.uuid('Convenio no válido.').optional(),
  status: z.enum(CREDIT_STATUSES, 'Estado no válido.').optional(),
  bucket: z.enum(AGING_BUCKETS, 'Tramo de atraso no válido.').optional(),
  label: z.string().trim().min(1).max(60).optional(),
  /** Liquidated credits by why: paid off by a renewal or by their payments. */
  liquidation: z.enum(LIQUIDATION_REASONS, 'Motivo de liquidación no válido.').optional(),
  disbursedFrom: isoDate.optional(),
  disbursedTo: isoDate.optional(),
});
export type CreditListQuery = z.infer<typeof creditListQuerySchema>;

export const creditListItemSchema = z.object({
  id: z.string(),
  folio: z.string(),
  clientName: z.string(),
  curp: z.string(),
  agreement: z.string(),
  company: z.string(),
  principal: z.string(),
  outstandingBalance: z.string(),
  installment: z.string(),
  nextDiscountDate: z.string().nullable(),
  daysPastDue: z.number().int(),
  bucket: z.enum(AGING_BUCKETS),
  status: z.enum(CREDIT_STATUSES),
  labels: z.array(z.string()),
  disbursementDate: z.string(),
});
export type CreditListItem = z.infer<typeof creditListItemSchema>;
export const creditListResponseSchema = listResponse(creditListItemSchema);

/** The totals bar of the credits list: the filtered set's count, balance and overdue balance. */
export const creditTotalsSchema = z.object({ count: z.number().int(), outstandingBalance: z.string(), overdueBalance: z.string() });
export type CreditTotals = z.infer<typeof creditTotalsSchema>;

export const payoffQuerySchema = z.object({ date: isoDate.optional(), validUntil: isoDate.optional() });
export const payoffQuoteSchema = z.object({
  quoteDate: z.string(),
  validUntil: z.string(),
  outstandingPrincipal: z.string(),
  dueInterest: z.string(),
  dueIva: z.string(),
  dueFees: z.string(),
  dueFeesIva: z.string(),
  dueMoratoryInterest: z.string(),
  dueMoratoryIva: z.string(),
  accruedInterest: z.string(),
  accruedIva: z.string(),
  grossBalance: z.string(),
  inTransit: z.string(),
  finalBalance: z.string(),
  discountDate: z.string().nullable(),
  pendingDeduction: z.string(),
  totalAmount: z.string(),
  surplus: z.string(),
});
export type PayoffQuoteView = z.infer<typeof payoffQuoteSchema>;

export const dayCloseRunSchema = z.object({
  id: z.string(),
  companyId: z.string(),
  fromDate: z.string(),
  throughDate: z.string(),
  daysTotal: z.number().int(),
  daysDone: z.number().int(),
  status: z.enum(RUN_STATUSES),
  jobId: z.string().nullable(),
  error: z.string().nullable(),
  requestedBy: z.string().nullable(),
  requestedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type DayCloseRun = z.infer<typeof dayCloseRunSchema>;

export const businessDateSchema = z.object({
  companyId: z.string(),
  company: z.string(),
  businessDate: z.string(),
  /** The day it is in Mexico City by the server's clock: a business date after it has not come, and is not closed. */
  today: z.string(),
  activeRun: dayCloseRunSchema.nullable(),
});
export type BusinessDate = z.infer<typeof businessDateSchema>;

export const dayCloseSchema = z.object({
  id: z.number().int(),
  companyId: z.string(),
  company: z.string(),
  businessDate: z.string(),
  creditsProcessed: z.number().int(),
  newVencidos: z.number().int(),
  newlyDueInstallments: z.number().int(),
  toTransit: z.number().int(),
  toNotApplied: z.number().int(),
  moratoryAccrued: z.string(),
  moratoryIvaAccrued: z.string(),
  feesAccrued: z.string(),
  durationMs: z.number().int(),
  closedBy: z.string().nullable(),
  closedAt: z.string(),
});
export type DayClose = z.infer<typeof dayCloseSchema>;
export const dayCloseListQuerySchema = listQuery.omit({ q: true }).extend({ companyId: z.uuid('Empresa no válida.').optional() });
export const dayCloseListResponseSchema = listResponse(dayCloseSchema);

/** "Cerrar día": closes the company's business date, or every day through `throughDate` (missed days replay in order). */
export const dayCloseRequestSchema = z.object({
  companyId: z.uuid('Empresa no válida.').optional(),
  throughDate: isoDate.optional(),
});

/** The agreements the Créditos filter offers (the user's company's; every company's for SA). */
export const agreementOptionSchema = z.object({ id: z.string(), name: z.string() });
