import { z } from 'zod';
import { listQuery, listResponse } from './common';
import { dateField, moneyField } from './fields';
import { reasonBodySchema } from './payment-files';

/**
 * Tesorería (issue 47; docs/domain.md "Tesorería"): money that leaves the company by SPEI transfer — a credit's
 * disbursement and the refund of a saldo a favor — as payment orders, sent in batches written as a bank file under
 * maker-checker (who generates a batch does not authorize it), and settled by the bank's answer.
 */

/** What a payment order pays: a credit's disbursement (what the client receives) or a refund of a saldo a favor. */
export const PAYMENT_ORDER_KINDS = ['dispersión', 'devolución'] as const;
export type PaymentOrderKind = (typeof PAYMENT_ORDER_KINDS)[number];

/**
 * por enviar (pending, also after the bank rejected it) → en lote (in a batch not yet authorized) → enviada (the batch
 * was authorized and the file goes to the bank) → liquidada (the bank paid it). A rejected line returns its order to
 * por enviar with the reason, and the next batch picks it again.
 */
/** A refund order whose saldo a favor no longer covers it when its batch is authorized is cancelada: it never leaves. */
export const PAYMENT_ORDER_STATUSES = ['por enviar', 'en lote', 'enviada', 'liquidada', 'cancelada'] as const;
export type PaymentOrderStatus = (typeof PAYMENT_ORDER_STATUSES)[number];

/** por autorizar → autorizado (file downloadable, lines awaiting the bank) → cerrado (every line has its result). */
export const PAYMENT_BATCH_STATUSES = ['por autorizar', 'autorizado', 'cerrado'] as const;
export type PaymentBatchStatus = (typeof PAYMENT_BATCH_STATUSES)[number];

/** A batch line's result: pendiente until the bank answers, then liquidada or rechazada (with its reason). */
export const PAYMENT_LINE_RESULTS = ['pendiente', 'liquidada', 'rechazada'] as const;
export type PaymentLineResult = (typeof PAYMENT_LINE_RESULTS)[number];

/** solicitada → aprobada (a payment order is created) → pagada (the bank paid it); or declinada by the approver. */
export const REFUND_STATUSES = ['solicitada', 'aprobada', 'pagada', 'declinada'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Where a refund's CLABE comes from: the credit's record (where it was disbursed) or a new one with its evidence. */
export const REFUND_CLABE_SOURCES = ['expediente', 'nueva'] as const;
export type RefundClabeSource = (typeof REFUND_CLABE_SOURCES)[number];

/** The bank file formats a batch downloads as. */
export const PAYMENT_FILE_FORMATS = ['fixed', 'csv'] as const;
export type PaymentFileFormat = (typeof PAYMENT_FILE_FORMATS)[number];

const clabeField = z
  .string()
  .trim()
  .regex(/^\d{18}$/, 'La CLABE debe tener exactamente 18 dígitos.');

export const paymentOrderListQuerySchema = listQuery.extend({
  kind: z.enum(PAYMENT_ORDER_KINDS, 'Tipo no válido.').optional(),
  status: z.enum(PAYMENT_ORDER_STATUSES, 'Estado no válido.').optional(),
});
export type PaymentOrderListQuery = z.infer<typeof paymentOrderListQuerySchema>;

export const paymentOrderSchema = z.object({
  id: z.string(),
  folio: z.string(),
  kind: z.enum(PAYMENT_ORDER_KINDS),
  status: z.enum(PAYMENT_ORDER_STATUSES),
  creditId: z.string(),
  creditFolio: z.string(),
  refundId: z.string().nullable(),
  beneficiary: z.string(),
  clabe: z.string(),
  bank: z.string(),
  amount: z.string(),
  concept: z.string(),
  reference: z.string(),
  batchId: z.string().nullable(),
  lastRejectionReason: z.string().nullable(),
  rejections: z.number().int(),
  settledOn: z.string().nullable(),
  createdAt: z.string(),
});
export type PaymentOrder = z.infer<typeof paymentOrderSchema>;
export const paymentOrderListResponseSchema = listResponse(paymentOrderSchema);

export const paymentBatchListQuerySchema = listQuery.extend({
  status: z.enum(PAYMENT_BATCH_STATUSES, 'Estado no válido.').optional(),
});
export type PaymentBatchListQuery = z.infer<typeof paymentBatchListQuerySchema>;

export const paymentBatchSchema = z.object({
  id: z.string(),
  folio: z.string(),
  status: z.enum(PAYMENT_BATCH_STATUSES),
  sourceAccount: z.string(),
  orderCount: z.number().int(),
  total: z.string(),
  settledCount: z.number().int(),
  rejectedCount: z.number().int(),
  generatedBy: z.string().nullable(),
  generatedAt: z.string(),
  authorizedBy: z.string().nullable(),
  authorizedAt: z.string().nullable(),
});
export type PaymentBatch = z.infer<typeof paymentBatchSchema>;
export const paymentBatchListResponseSchema = listResponse(paymentBatchSchema);

export const paymentBatchLineSchema = z.object({
  line: z.number().int(),
  orderId: z.string(),
  orderFolio: z.string(),
  kind: z.enum(PAYMENT_ORDER_KINDS),
  creditFolio: z.string(),
  beneficiary: z.string(),
  clabe: z.string(),
  amount: z.string(),
  concept: z.string(),
  reference: z.string(),
  trackingKey: z.string(),
  result: z.enum(PAYMENT_LINE_RESULTS),
  reason: z.string().nullable(),
  settledOn: z.string().nullable(),
});
export type PaymentBatchLine = z.infer<typeof paymentBatchLineSchema>;
export const paymentBatchLinesResponseSchema = z.object({ items: z.array(paymentBatchLineSchema) });

export const generatePaymentBatchBodySchema = z.object({
  /** The company's account the transfers leave from (its CLABE). */
  sourceAccount: clabeField,
});
export type GeneratePaymentBatchBody = z.infer<typeof generatePaymentBatchBodySchema>;

export const paymentBatchFileQuerySchema = z.object({ format: z.enum(PAYMENT_FILE_FORMATS, 'Formato no válido.').default('fixed') });

/** One line's answer from the bank, marked by hand or read from the bank's answer file. */
export const paymentLineResultSchema = z
  .object({
    trackingKey: z.string().trim().min(1, 'Falta la clave de rastreo.').max(30),
    result: z.enum(['liquidada', 'rechazada'], 'Resultado no válido: liquidada o rechazada.'),
    reason: z.string().trim().max(200, 'El motivo admite hasta 200 caracteres.').optional(),
    settledOn: dateField('Fecha de liquidación').optional(),
  })
  .refine((line) => line.result !== 'rechazada' || (line.reason ?? '').length > 0, {
    message: 'Un rechazo lleva su motivo (por ejemplo, cuenta inexistente o cancelada).',
    path: ['reason'],
  });
export type PaymentLineResultInput = z.infer<typeof paymentLineResultSchema>;

/**
 * Registrar resultado: the lines marked by hand, or the bank's answer file as text (CSV: clave de rastreo, resultado
 * LIQUIDADA/RECHAZADA, motivo, fecha — the answer layout of docs/domain.md).
 */
export const recordPaymentResultsBodySchema = z
  .object({
    lines: z.array(paymentLineResultSchema).max(10_000).optional(),
    answer: z.string().max(5_000_000, 'El archivo de respuesta es demasiado grande.').optional(),
  })
  .refine((body) => (body.lines?.length ?? 0) > 0 || (body.answer ?? '').trim().length > 0, {
    message: 'Marca al menos una línea o sube el archivo de respuesta del banco.',
  });
export type RecordPaymentResultsBody = z.infer<typeof recordPaymentResultsBodySchema>;

export const recordPaymentResultsResponseSchema = z.object({
  batch: paymentBatchSchema,
  settled: z.number().int(),
  rejected: z.number().int(),
});

// --------------------------------------------------------------------------------------------------------- refunds

/** Credits with a saldo a favor, and what of it is already asked for or on its way. */
export const refundCandidateListQuerySchema = listQuery;
export const refundCandidateSchema = z.object({
  creditId: z.string(),
  creditFolio: z.string(),
  client: z.string(),
  clabe: z.string(),
  creditBalance: z.string(),
  /** Solicitada or aprobada and not yet paid: what can still be asked for is creditBalance − committed. */
  committed: z.string(),
  available: z.string(),
  /** When the saldo a favor arose: the first sobrepago applied to the credit. */
  since: z.string().nullable(),
});
export type RefundCandidate = z.infer<typeof refundCandidateSchema>;
export const refundCandidateListResponseSchema = listResponse(refundCandidateSchema);

export const refundListQuerySchema = listQuery.extend({ status: z.enum(REFUND_STATUSES, 'Estado no válido.').optional() });
export type RefundListQuery = z.infer<typeof refundListQuerySchema>;

export const refundSchema = z.object({
  id: z.string(),
  folio: z.string(),
  creditId: z.string(),
  creditFolio: z.string(),
  client: z.string(),
  amount: z.string(),
  clabe: z.string(),
  clabeSource: z.enum(REFUND_CLABE_SOURCES),
  evidence: z.string().nullable(),
  status: z.enum(REFUND_STATUSES),
  orderStatus: z.enum(PAYMENT_ORDER_STATUSES).nullable(),
  lastRejectionReason: z.string().nullable(),
  declineReason: z.string().nullable(),
  requestedBy: z.string().nullable(),
  requestedAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
});
export type Refund = z.infer<typeof refundSchema>;
export const refundListResponseSchema = listResponse(refundSchema);

export const requestRefundBodySchema = z
  .object({
    creditId: z.uuid('Crédito no válido.'),
    amount: moneyField('Importe', '1500'),
    clabeSource: z.enum(REFUND_CLABE_SOURCES, 'Origen de la CLABE no válido.'),
    clabe: clabeField.optional(),
    evidence: z.string().trim().max(500, 'La evidencia admite hasta 500 caracteres.').optional(),
  })
  .refine((body) => body.clabeSource === 'expediente' || (body.clabe ?? '').length > 0, {
    message: 'Captura la CLABE nueva.',
    path: ['clabe'],
  })
  .refine((body) => body.clabeSource === 'expediente' || (body.evidence ?? '').length >= 5, {
    message: 'Una CLABE nueva lleva su evidencia (por ejemplo, el estado de cuenta que la muestra).',
    path: ['evidence'],
  });
export type RequestRefundBody = z.infer<typeof requestRefundBodySchema>;

export const decideRefundBodySchema = z
  .object({
    decision: z.enum(['aprobar', 'declinar'], 'Decisión no válida.'),
    reason: reasonBodySchema.shape.reason.optional(),
  })
  .refine((body) => body.decision === 'aprobar' || body.reason !== undefined, {
    message: 'Escribe el motivo por el que se declina.',
    path: ['reason'],
  });
export type DecideRefundBody = z.infer<typeof decideRefundBodySchema>;
