import { z } from 'zod';
import { dateField } from './fields';
import { listQuery, listResponse } from './common';
import { RUN_STATUSES } from './runs';

/**
 * Cartera: the employers' payment files (upload → preview → apply all-or-nothing → revert), their rows' outcomes,
 * and the payments they made with each peso's allocation (issue 16; DOMAIN.md "The payment-file flow users expect").
 */

const isoDate = dateField();

/** cargado → validado → aplicado | rechazado, and revertido (an applied file undone as a whole). */
export const PAYMENT_FILE_STATUSES = ['cargado', 'validado', 'aplicado', 'rechazado', 'revertido'] as const;
export type PaymentFileStatus = (typeof PAYMENT_FILE_STATUSES)[number];
/** A payment stands (aplicado) or was undone with its file (revertido). */
export const PAYMENT_STATUSES = ['aplicado', 'revertido'] as const;

/**
 * A row's outcome. `válido` and `sobrepago` are applied (a sobrepago pays the credit off and keeps the rest as a
 * credit balance); every other outcome is a rejected row, kept with its reason.
 */
export const ROW_OUTCOMES = [
  'válido',
  'sobrepago',
  'crédito no encontrado',
  'duplicado en archivo',
  'monto inválido',
  'crédito liquidado',
  'crédito de otro convenio',
  'dato no válido',
  /** The payday's emitted cédula told the employer to stop this credit's deduction (issue 46). */
  'crédito en baja',
] as const;
export type RowOutcome = (typeof ROW_OUTCOMES)[number];
export const APPLIED_OUTCOMES = ['válido', 'sobrepago'] as const satisfies readonly RowOutcome[];
export const isAppliedOutcome = (outcome: RowOutcome): boolean => (APPLIED_OUTCOMES as readonly RowOutcome[]).includes(outcome);

/** The largest upload read, and the most rows in one file. */
export const PAYMENT_FILE_MAX_BYTES = 20 * 1024 * 1024;
export const PAYMENT_FILE_MAX_ROWS = 100_000;

export const PAYMENT_FILE_SORT_FIELDS = ['uploadedAt', 'discountDate', 'agreement', 'status', 'amountApplied'] as const;

export const paymentFileListQuerySchema = listQuery.extend({
  sort: z
    .string()
    .regex(new RegExp(`^-?(${PAYMENT_FILE_SORT_FIELDS.join('|')})$`), 'Orden no válido.')
    .optional(),
  agreementId: z.uuid('Convenio no válido.').optional(),
  status: z.enum(PAYMENT_FILE_STATUSES, 'Estado no válido.').optional(),
  discountFrom: isoDate.optional(),
  discountTo: isoDate.optional(),
});
export type PaymentFileListQuery = z.infer<typeof paymentFileListQuerySchema>;

export const paymentFileSchema = z.object({
  id: z.string(),
  agreementId: z.string(),
  agreement: z.string(),
  company: z.string(),
  discountDate: z.string(),
  fileName: z.string(),
  sha256: z.string(),
  size: z.number().int(),
  encoding: z.string(),
  status: z.enum(PAYMENT_FILE_STATUSES),
  rowsTotal: z.number().int(),
  rowsValid: z.number().int(),
  rowsRejected: z.number().int(),
  /** Accepted rows that pay their credit off, the rest kept as saldo a favor (sobrepago). */
  rowsOverpaying: z.number().int(),
  /** Accepted rows for a deduction of the date that another applied file of the agreement already received. */
  rowsPaidElsewhere: z.number().int(),
  amountTotal: z.string(),
  amountValid: z.string(),
  amountRejected: z.string(),
  amountApplied: z.string(),
  overpayment: z.string(),
  /** What the agreement's credits expected on the discount date, and how many of those deductions the file lacks. */
  expectedAmount: z.string(),
  expectedCount: z.number().int(),
  missingCount: z.number().int(),
  uploadedBy: z.string().nullable(),
  uploadedAt: z.string(),
  /** The background application of the file's last run (its progress survives a page reload). */
  applyState: z.enum(RUN_STATUSES).nullable(),
  applyDone: z.number().int(),
  applyError: z.string().nullable(),
  appliedBy: z.string().nullable(),
  appliedAt: z.string().nullable(),
  revertedBy: z.string().nullable(),
  revertedAt: z.string().nullable(),
  statusReason: z.string().nullable(),
});
export type PaymentFile = z.infer<typeof paymentFileSchema>;
export const paymentFileListResponseSchema = listResponse(paymentFileSchema);

export const allocationSplitSchema = z.object({
  principal: z.string(),
  interest: z.string(),
  iva: z.string(),
  moratoryInterest: z.string(),
  moratoryIva: z.string(),
  fees: z.string(),
  feesIva: z.string(),
  overpayment: z.string(),
});
export type AllocationSplit = z.infer<typeof allocationSplitSchema>;

export const allocationLineSchema = z.object({
  installment: z.number().int(),
  component: z.string(),
  amount: z.string(),
  step: z.string(),
});

/** Which rows of a file: the ones applied (or to apply), the rejected ones, or all. */
export const ROW_GROUPS = ['todos', 'aceptados', 'rechazados'] as const;
export const paymentFileRowsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  group: z.enum(ROW_GROUPS).default('todos'),
});

export const paymentFileRowSchema = z.object({
  line: z.number().int(),
  raw: z.string(),
  creditRef: z.string().nullable(),
  employeeNumber: z.string().nullable(),
  curpRfc: z.string().nullable(),
  amount: z.string().nullable(),
  period: z.string().nullable(),
  reference: z.string().nullable(),
  outcome: z.enum(ROW_OUTCOMES),
  message: z.string().nullable(),
  creditId: z.string().nullable(),
  creditFolio: z.string().nullable(),
  /**
   * Against the payday's emitted cédula (issue 46): what it instructed for the row's credit (0.00 for a credit it did
   * not name or put in baja), null when no cédula was emitted for the discount date or the row names no credit; and
   * whether the row's amount differs from it — a warning, the row is still accepted.
   */
  instructedAmount: z.string().nullable(),
  amountDiffers: z.boolean(),
  paymentId: z.string().nullable(),
  /** Its payment's status once applied: a reverted file's rows keep their split, marked revertido. */
  paymentStatus: z.enum(PAYMENT_STATUSES).nullable(),
  /** Once applied: how the row's money was split, and each line of the waterfall. */
  split: allocationSplitSchema.nullable(),
  allocation: z.array(allocationLineSchema),
});
export type PaymentFileRow = z.infer<typeof paymentFileRowSchema>;
export const paymentFileRowsResponseSchema = listResponse(paymentFileRowSchema);

/** An expected deduction of the agreement on the discount date that no row of the file pays. */
export const missingDeductionSchema = z.object({
  creditId: z.string(),
  creditFolio: z.string(),
  clientName: z.string(),
  employeeNumber: z.string(),
  period: z.number().int(),
  amount: z.string(),
  state: z.string(),
});
export const missingDeductionsResponseSchema = listResponse(missingDeductionSchema);

/** The upload form's choices: agreements with their layout's format, and the discount dates of each calendar. */
export const uploadOptionSchema = z.object({
  agreementId: z.string(),
  agreement: z.string(),
  company: z.string(),
  format: z.enum(['csv', 'xlsx', 'fixed']),
  discountDates: z.array(z.string()),
  /** The latest discount date on or before the company's business date: the one usually loaded. */
  suggestedDate: z.string().nullable(),
});
export type UploadOption = z.infer<typeof uploadOptionSchema>;

/**
 * Later payments standing on an applied file's credits, made by one file (or one payment without a file): they were
 * allocated on top of the file's, so that file is reverted first. `credits`: how many of the file's credits it paid
 * again; `creditId`/`creditFolio`: the first of them by folio; `valueDate`: its date.
 */
export const laterPaymentSchema = z.object({
  fileId: z.string().nullable(),
  fileName: z.string().nullable(),
  valueDate: z.string(),
  credits: z.number().int(),
  creditId: z.string(),
  creditFolio: z.string(),
});
/**
 * A later file that refused rows as crédito liquidado for credits this file paid off: a revert leaves that money
 * unapplied. `amount`: those rows' amounts; `creditFolio`: the first of their credits by folio.
 */
export const refusedAsPaidOffSchema = z.object({
  fileId: z.string(),
  fileName: z.string(),
  rows: z.number().int(),
  amount: z.string(),
  creditFolio: z.string(),
});
/**
 * What a revert waits for and what it leaves behind: the first later files on its credits, newest first, in the order
 * they are reverted (none: it can be reverted), how many there are in all, and the later files whose rows for the
 * credits it paid off were refused as crédito liquidado.
 */
export const laterPaymentsSchema = z.object({
  payments: z.array(laterPaymentSchema),
  total: z.number().int(),
  refusedAsPaidOff: z.array(refusedAsPaidOffSchema),
});
export type LaterPayments = z.infer<typeof laterPaymentsSchema>;

export const reasonBodySchema = z.object({
  reason: z.string().trim().min(5, 'Escribe el motivo (al menos 5 caracteres).').max(500, 'El motivo admite hasta 500 caracteres.'),
});

export const PAYMENT_SORT_FIELDS = ['valueDate', 'appliedAt', 'amount', 'folio'] as const;

export const paymentListQuerySchema = listQuery.extend({
  sort: z
    .string()
    .regex(new RegExp(`^-?(${PAYMENT_SORT_FIELDS.join('|')})$`), 'Orden no válido.')
    .optional(),
  agreementId: z.uuid('Convenio no válido.').optional(),
  fileId: z.uuid('Archivo no válido.').optional(),
  creditId: z.uuid('Crédito no válido.').optional(),
  status: z.enum(PAYMENT_STATUSES, 'Estado no válido.').optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
});
export type PaymentListQuery = z.infer<typeof paymentListQuerySchema>;

export const paymentSchema = z.object({
  id: z.string(),
  creditId: z.string(),
  creditFolio: z.string(),
  clientName: z.string(),
  agreementId: z.string(),
  agreement: z.string(),
  fileId: z.string().nullable(),
  fileName: z.string().nullable(),
  fileLine: z.number().int().nullable(),
  valueDate: z.string(),
  amount: z.string(),
  split: allocationSplitSchema,
  status: z.enum(PAYMENT_STATUSES),
  appliedAt: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;
export const paymentListResponseSchema = listResponse(paymentSchema);

export const paymentTotalsSchema = z.object({ count: z.number().int(), amount: z.string(), split: allocationSplitSchema });
export type PaymentTotals = z.infer<typeof paymentTotalsSchema>;
