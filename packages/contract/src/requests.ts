import { z } from 'zod';
import { dateField, phoneField } from './fields';
import { PAY_FREQUENCIES } from './agreements';
import { preRequestInputSchema, renewedCreditSchema, renewsField, scheduleRowSchema, simulationSchema } from './origination';
import { auditEntrySchema, listQuery, versionField } from './common';
import { labelHistoryEntrySchema } from './labels';
import { PAYMENT_STATUSES, allocationLineSchema, allocationSplitSchema } from './payment-files';
import type { ActionPath } from './navigation';

/** Solicitudes: the full application, its documents and its status machine; and the credit a disbursement creates. */

export const REQUEST_STATUSES = ['capturada', 'en validación', 'aprobada', 'rechazada', 'dispersada', 'cancelada'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/**
 * The request status machine (docs/domain.md, "Origination"): capturada → en validación → aprobada | rechazada (motivo) → dispersada | cancelada.
 * `permission` is what the action needs besides screen access; the API enforces it, the web hides the button.
 */
export const REQUEST_ACTIONS = {
  submit: { from: ['capturada'], to: 'en validación', label: 'Enviar a validación', verb: 'enviar a validación', permission: null },
  approve: { from: ['en validación'], to: 'aprobada', label: 'Aprobar', verb: 'aprobar', permission: '/actions/origination/approve' },
  reject: { from: ['en validación'], to: 'rechazada', label: 'Rechazar', verb: 'rechazar', permission: '/actions/origination/approve' },
  cancel: { from: ['capturada', 'en validación', 'aprobada'], to: 'cancelada', label: 'Cancelar', verb: 'cancelar', permission: null },
  disburse: { from: ['aprobada'], to: 'dispersada', label: 'Dispersar', verb: 'dispersar', permission: '/actions/origination/disburse' },
} as const satisfies Record<
  string,
  { from: readonly RequestStatus[]; to: RequestStatus; label: string; verb: string; permission: ActionPath | null }
>;
export type RequestAction = keyof typeof REQUEST_ACTIONS;

export const DOCUMENT_KINDS = ['ine', 'comprobante', 'recibo'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export const DOCUMENT_LABELS: Record<DocumentKind, string> = {
  ine: 'INE',
  comprobante: 'Comprobante de domicilio',
  recibo: 'Recibo de nómina',
};
/** What an uploaded document may be: the API checks the file's first bytes, not only its declared type. */
export const DOCUMENT_TYPES = { 'application/pdf': 'PDF', 'image/jpeg': 'JPG', 'image/png': 'PNG' } as const;
export const DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;

export const MEXICAN_STATES = [
  'Aguascalientes',
  'Baja California',
  'Baja California Sur',
  'Campeche',
  'Chiapas',
  'Chihuahua',
  'Ciudad de México',
  'Coahuila',
  'Colima',
  'Durango',
  'Estado de México',
  'Guanajuato',
  'Guerrero',
  'Hidalgo',
  'Jalisco',
  'Michoacán',
  'Morelos',
  'Nayarit',
  'Nuevo León',
  'Oaxaca',
  'Puebla',
  'Querétaro',
  'Quintana Roo',
  'San Luis Potosí',
  'Sinaloa',
  'Sonora',
  'Tabasco',
  'Tamaulipas',
  'Tlaxcala',
  'Veracruz',
  'Yucatán',
  'Zacatecas',
] as const;

const text = (label: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `Escribe ${label}.`)
    .max(max, `${label[0]!.toUpperCase()}${label.slice(1)}: máximo ${max} caracteres.`);
const phone = phoneField;

export const referenceSchema = z.object({
  name: text('el nombre de la referencia', 120),
  relationship: text('el parentesco o relación', 40),
  phone: phone('Teléfono de la referencia'),
});

/**
 * What a request captures on top of the pre-request's data. The CLABE's format is checked here; its check digit and
 * bank code by packages/lending (in the browser as typed, and again by the API).
 */
export const requestInputSchema = preRequestInputSchema.extend({
  street: text('la calle', 120),
  exteriorNumber: text('el número exterior', 20),
  interiorNumber: z.string().trim().max(20, 'Número interior: máximo 20 caracteres.'),
  neighborhood: text('la colonia', 80),
  municipality: text('el municipio o alcaldía', 80),
  state: z.enum(MEXICAN_STATES, 'Elige el estado.'),
  postalCode: z
    .string()
    .trim()
    .regex(/^\d{5}$/, 'Código postal: 5 dígitos.'),
  phone: phone('Teléfono'),
  email: z.email('Correo electrónico no válido.').trim().toLowerCase(),
  references: z.tuple([referenceSchema, referenceSchema], 'Captura dos referencias personales.'),
  clabe: z
    .string()
    .trim()
    .regex(/^\d{18}$/, 'La CLABE tiene 18 dígitos.'),
});
export type RequestInput = z.input<typeof requestInputSchema>;

/** An edit of a captured request names the version it was made on. */
export const requestUpdateSchema = requestInputSchema.extend({ version: versionField });

/** The multipart `data` field of `POST /api/requests`: the capture, and the sent pre-request it converts, if any. */
export const requestCreateSchema = requestInputSchema.extend({
  preRequestId: z.uuid('Pre-solicitud no válida.').nullable(),
  /** Left out when converting a pre-request: the credits it renews are carried over (none otherwise). */
  renews: renewsField.optional(),
});

export const requestDocumentSchema = z.object({
  kind: z.enum(DOCUMENT_KINDS),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  uploadedAt: z.string(),
  uploadedBy: z.string().nullable(),
});
export type RequestDocument = z.infer<typeof requestDocumentSchema>;

/** One row of the Capturas grid. */
export const requestSummarySchema = z.object({
  id: z.string(),
  folio: z.string(),
  status: z.enum(REQUEST_STATUSES),
  curp: z.string(),
  clientName: z.string(),
  agreementId: z.string(),
  agreement: z.string(),
  product: z.string(),
  amount: z.string(),
  term: z.number().int(),
  installment: z.string(),
  documents: z.number().int(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RequestSummary = z.infer<typeof requestSummarySchema>;

/** The captured fields the API answers as they are stored: plain strings (the capture schema's transforms only run on the way in). */
const STORED_TEXT_FIELDS = [
  'rfc',
  'firstNames',
  'lastName1',
  'lastName2',
  'productId',
  'employeeNumber',
  'netSalary',
  'otherDeductions',
  'street',
  'exteriorNumber',
  'interiorNumber',
  'neighborhood',
  'municipality',
  'state',
  'postalCode',
  'phone',
  'email',
  'clabe',
] as const;
const storedText = Object.fromEntries(STORED_TEXT_FIELDS.map((key) => [key, z.string()])) as {
  [K in (typeof STORED_TEXT_FIELDS)[number]]: z.ZodString;
};

export const requestSchema = requestSummarySchema.extend({
  ...storedText,
  references: z.array(z.object({ name: z.string(), relationship: z.string(), phone: z.string() })),
  preRequestId: z.string().nullable(),
  preRequestFolio: z.string().nullable(),
  companyId: z.string(),
  /** The bank the CLABE belongs to. */
  bank: z.string(),
  simulation: simulationSchema,
  documentList: z.array(requestDocumentSchema),
  rejectionReason: z.string().nullable(),
  cancellationReason: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  creditId: z.string().nullable(),
  creditFolio: z.string().nullable(),
  /** The credits it renews (ids; their folios and payoffs are in the simulation's renewal). */
  renews: z.array(z.string()),
  /** Who captured the request or changed its capture (data or documents): none of them may approve or reject it. */
  capturedByIds: z.array(z.string()),
  history: z.array(auditEntrySchema),
  version: z.number().int(),
});
export type Request = z.infer<typeof requestSchema>;

export const requestListQuerySchema = listQuery.extend({
  q: z.string().trim().max(100).optional(),
  status: z.enum(REQUEST_STATUSES, 'Estado no válido.').optional(),
  agreementId: z.uuid('Convenio no válido.').optional(),
  from: dateField('Fecha inicial').optional(),
  to: dateField('Fecha final').optional(),
  capturer: z.string().trim().max(100).optional(),
  sort: z
    .string()
    .regex(/^-?(folio|createdAt|updatedAt|amount|status|clientName)$/, 'Orden no válido.')
    .optional(),
});
export type RequestListQuery = z.input<typeof requestListQuerySchema>;

const reasonField = (label: string) =>
  z.string().trim().min(5, `Escribe el motivo ${label} (al menos 5 caracteres).`).max(500, 'Motivo: máximo 500 caracteres.');

export const requestActionBodySchemas = {
  submit: z.object({ version: versionField }),
  approve: z.object({ version: versionField }),
  reject: z.object({ version: versionField, reason: reasonField('del rechazo') }),
  cancel: z.object({ version: versionField, reason: reasonField('de la cancelación') }),
  disburse: z.object({
    version: versionField,
    disbursementDate: dateField('Fecha de dispersión'),
    /**
     * A renewal whose payoffs changed since approval (a later disbursement date): the net amount the person disbursing
     * saw and accepts; without it, or when it is not the amount recomputed now, the disbursement is refused with the change.
     */
    expectedNetAmount: z
      .string()
      .regex(/^-?\d+\.\d{2}$/, 'Monto neto no válido.')
      .optional(),
  }),
} as const satisfies Record<RequestAction, z.ZodType>;

/** A client's credits a request may renew, with their payoffs at the company's business date (the expected disbursement). */
export const renewableCreditsQuerySchema = z.object({
  curp: z.string().trim().toUpperCase().length(18, 'La CURP debe tener 18 caracteres.'),
});
export const renewableCreditsSchema = z.object({
  payoffDate: z.string(),
  /** The company's minimum net amount of a renewal. */
  minimumNet: z.string(),
  credits: z.array(renewedCreditSchema.extend({ agreementId: z.string(), agreement: z.string(), outstandingBalance: z.string() })),
});
export type RenewableCredits = z.infer<typeof renewableCreditsSchema>;

/**
 * Why a credit was liquidated (the credits list's `liquidation` filter): `renovacion`, paid off by a renewal; `pago`,
 * by its payments (payroll files, a payoff paid in).
 */
export const LIQUIDATION_REASONS = ['renovacion', 'pago'] as const;
export type LiquidationReason = (typeof LIQUIDATION_REASONS)[number];
export const LIQUIDATION_REASON_LABELS: Record<LiquidationReason, string> = { renovacion: 'Renovación', pago: 'Pago' };

export const CREDIT_STATUSES = ['vigente', 'vencido', 'liquidado'] as const;
export const INSTALLMENT_STATUSES = ['pendiente', 'vencida', 'pagada'] as const;
export const DEDUCTION_STATES = ['esperado', 'en tránsito', 'recibido', 'no aplicado', 'cancelado'] as const;

/** A money figure by component: what a credit owes, what a row charged, what was paid of it. */
export const creditComponentsSchema = z.object({
  principal: z.string(),
  interest: z.string(),
  iva: z.string(),
  moratoryInterest: z.string(),
  moratoryIva: z.string(),
  fees: z.string(),
  feesIva: z.string(),
  total: z.string(),
});
export type CreditComponents = z.infer<typeof creditComponentsSchema>;

export const AGING_BUCKETS = ['current', '1-30', '31-60', '61-89', '90+'] as const;

/** A payroll deduction the credit expects on a payday, and what became of it. */
export const creditDeductionSchema = z.object({
  period: z.number().int(),
  discountDate: z.string(),
  amount: z.string(),
  state: z.enum(DEDUCTION_STATES),
});
export type CreditDeduction = z.infer<typeof creditDeductionSchema>;

/**
 * The credit view (Cartera → Créditos → a credit): its terms as disbursed, its state at the company's business date
 * (fecha flujo), balances by component, labels, the next deduction, renewals and how many payments and letters its tabs
 * list. Each tab reads its own part (creditRoutes: installments, payments, deductions, history; letterRoutes.list).
 */
export const creditSchema = z.object({
  id: z.string(),
  folio: z.string(),
  status: z.enum(CREDIT_STATUSES),
  daysPastDue: z.number().int(),
  bucket: z.enum(AGING_BUCKETS),
  /** The fecha flujo the figures are at. */
  businessDate: z.string(),
  requestId: z.string(),
  requestFolio: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  curp: z.string(),
  rfc: z.string().nullable(),
  agreementId: z.string(),
  agreement: z.string(),
  company: z.string(),
  employeeNumber: z.string(),
  /** The product's terms when the credit was disbursed; editing the product never changes them. */
  product: z.object({
    name: z.string(),
    annualRatePct: z.string(),
    ivaRatePct: z.string(),
    openingFeePct: z.string(),
    openingFeeFinanced: z.boolean(),
  }),
  frequency: z.enum(PAY_FREQUENCIES),
  term: z.number().int(),
  amount: z.string(),
  openingFee: z.string(),
  openingFeeIva: z.string(),
  principal: z.string(),
  netDisbursed: z.string(),
  installment: z.string(),
  cat: z.string(),
  clabe: z.string(),
  disbursementDate: z.string(),
  firstDueDate: z.string(),
  lastDueDate: z.string(),
  disbursedBy: z.string().nullable(),
  createdAt: z.string(),
  labels: z.array(z.string()),
  /** What is still owed, by component. */
  balances: creditComponentsSchema,
  /** The first installment's interest and IVA: what the first period, however long, charges. */
  firstInstallment: scheduleRowSchema.pick({ interest: true, iva: true }).nullable(),
  /** The next payroll deduction still to come: on or after the fecha flujo, not yet received. */
  nextDeduction: creditDeductionSchema.omit({ state: true }).nullable(),
  /** Sobrepago kept as a credit balance (saldo a favor): money received beyond what paid the credit off. */
  creditBalance: z.string(),
  /** How many payments and settlement letters the credit has: the counts on their tabs. */
  paymentCount: z.number().int(),
  letterCount: z.number().int(),
  /** Why it was liquidated, once it is (null while it is not, or for a credit renewed whose en tránsito is still to come: see renewedBy). */
  liquidationReason: z.enum(LIQUIDATION_REASONS).nullable(),
  /** The credit that renewed (paid off) this one: "renovado por". */
  renewedBy: z.object({ id: z.string(), folio: z.string() }).nullable(),
  /** The credits this one renewed: "renueva a". */
  renews: z.array(z.object({ id: z.string(), folio: z.string() })),
});
export type Credit = z.infer<typeof creditSchema>;

/** A row of the credit's schedule (Calendario de pagos) with its late charges, what was paid of it and what it still owes. */
export const creditInstallmentSchema = scheduleRowSchema.omit({ days: true }).extend({
  status: z.enum(INSTALLMENT_STATUSES),
  deductionState: z.enum(DEDUCTION_STATES),
  charged: creditComponentsSchema,
  paid: creditComponentsSchema,
  outstanding: z.string(),
});
export type CreditInstallment = z.infer<typeof creditInstallmentSchema>;

/** A payment the credit received, with where every peso went (installment and component). */
export const creditPaymentSchema = z.object({
  id: z.string(),
  valueDate: z.string(),
  amount: z.string(),
  /** e.g. "Archivo nomina-0115.csv, línea 12". */
  source: z.string(),
  fileId: z.string().nullable(),
  status: z.enum(PAYMENT_STATUSES),
  appliedAt: z.string(),
  split: allocationSplitSchema,
  allocation: z.array(allocationLineSchema),
});
export type CreditPayment = z.infer<typeof creditPaymentSchema>;

/** The credit's audit events and its label changes (who, when and the update, job, each came from), newest first. */
export const creditHistorySchema = z.object({
  history: z.array(auditEntrySchema),
  labelHistory: z.array(labelHistoryEntrySchema),
});
export type CreditHistory = z.infer<typeof creditHistorySchema>;

export const disbursementResultSchema = z.object({
  request: requestSchema,
  creditId: z.string(),
  creditFolio: z.string(),
  /**
   * What leaves the company's bank to the client: the new credit's net disbursement less the payoffs paid to the
   * renewed credits (the whole net disbursement when it renews nothing). The payment order is for this amount.
   */
  amountToTransfer: z.string(),
});
