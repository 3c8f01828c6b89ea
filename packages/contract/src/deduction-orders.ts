import { z } from 'zod';
import { listQuery, listResponse } from './common';
import { dateField } from './fields';

/**
 * Cartera → Cédulas de descuento (issue 46; DOMAIN.md "The payroll loop users expect"): the instruction the lender
 * sends an employer before a payday's cut-off — which deductions to start (altas), stop (bajas), change (cambios) and
 * keep (continúan) — and its life: borrador → emitida → enviada, or sustituida by a later one for the same payday.
 */

/** borrador → emitida (frozen) → enviada; an emitted or sent one becomes sustituida when a new one replaces it. */
export const DEDUCTION_ORDER_STATUSES = ['borrador', 'emitida', 'enviada', 'sustituida'] as const;
export type DeductionOrderStatus = (typeof DEDUCTION_ORDER_STATUSES)[number];

/** What the employer does with a credit's deduction on this payroll. */
export const DEDUCTION_MOVEMENTS = ['alta', 'baja', 'cambio', 'continúa'] as const;
export type DeductionMovement = (typeof DEDUCTION_MOVEMENTS)[number];

/**
 * Why a line moves, written once here and read by the screen, the download and the tests. The amounts of a cambio and
 * the dates are in the line itself.
 */
export const DEDUCTION_REASONS = {
  'credito-nuevo': 'Crédito nuevo: primer descuento en esta nómina',
  'no-instruido': 'Descuento vigente que la cédula anterior no instruía',
  liquidado: 'Crédito liquidado',
  renovacion: 'Crédito liquidado por renovación (el crédito nuevo lo sustituye)',
  'renovacion-cambio': 'Renovación: el crédito nuevo sustituye al renovado',
  'plazo-cumplido': 'El crédito ya no tiene cuotas por descontar',
  'cuota-recalculada': 'Cuota recalculada (pago anticipado o reestructura)',
  'ultima-cuota': 'Última cuota: el importe ajusta el saldo final',
} as const;
export type DeductionReason = keyof typeof DEDUCTION_REASONS;
export const DEDUCTION_REASON_CODES = Object.keys(DEDUCTION_REASONS) as [DeductionReason, ...DeductionReason[]];

/** A line's reason as the screen says it: a renewal's cambio names both credits ("Renovación: CR-… sustituye a CR-…"). */
export function deductionReasonText(line: {
  reason: DeductionReason | null;
  creditFolio: string;
  replacesCreditFolio: string | null;
}): string | null {
  if (line.reason === null) return null;
  if (line.reason === 'renovacion-cambio' && line.replacesCreditFolio)
    return `Renovación: ${line.creditFolio} sustituye a ${line.replacesCreditFolio}`;
  return DEDUCTION_REASONS[line.reason];
}

/** The code each movement is written with in a cédula's file, in the agreement's layout (its movement column). */
export const DEDUCTION_MOVEMENT_CODES: Record<DeductionMovement, string> = { alta: 'A', baja: 'B', cambio: 'C', continúa: 'N' };

/** Channels an employer receives a cédula by (Marcar enviada). */
export const DEDUCTION_ORDER_CHANNELS = ['correo', 'portal del patrón', 'oficio entregado', 'otro'] as const;
export type DeductionOrderChannel = (typeof DEDUCTION_ORDER_CHANNELS)[number];

export const DEDUCTION_ORDER_SORT_FIELDS = ['payday', 'agreement', 'status', 'generatedAt'] as const;

export const deductionOrderListQuerySchema = listQuery.extend({
  sort: z
    .string()
    .regex(new RegExp(`^-?(${DEDUCTION_ORDER_SORT_FIELDS.join('|')})$`), 'Orden no válido.')
    .optional(),
  agreementId: z.uuid('Convenio no válido.').optional(),
  status: z.enum(DEDUCTION_ORDER_STATUSES, 'Estado no válido.').optional(),
});
export type DeductionOrderListQuery = z.infer<typeof deductionOrderListQuerySchema>;

/** Count and amount of one movement: for a baja the amount is what stops (before), for the others what is deducted (after). */
const movementFigures = z.object({ count: z.number().int(), amount: z.string() });

export const deductionOrderSchema = z.object({
  id: z.string(),
  agreementId: z.string(),
  agreement: z.string(),
  company: z.string(),
  payday: z.string(),
  /** The last day the employer takes changes for this payday: payday − the agreement's cut-off lead days (at least one). */
  cutOffDate: z.string(),
  /** The fecha flujo whose portfolio the lines were computed from. */
  businessDate: z.string(),
  status: z.enum(DEDUCTION_ORDER_STATUSES),
  altas: movementFigures,
  bajas: movementFigures,
  cambios: movementFigures,
  continuing: movementFigures,
  /** Lines the employer deducts (altas, cambios, continúan) and their total. */
  instructedCount: z.number().int(),
  instructedAmount: z.string(),
  generatedBy: z.string().nullable(),
  generatedAt: z.string(),
  issuedBy: z.string().nullable(),
  issuedAt: z.string().nullable(),
  sentOn: z.string().nullable(),
  sentChannel: z.string().nullable(),
  sentNote: z.string().nullable(),
  sentBy: z.string().nullable(),
  /** The cédula this one replaced, and the one that replaced it. */
  supersedesId: z.string().nullable(),
  supersededById: z.string().nullable(),
});
export type DeductionOrder = z.infer<typeof deductionOrderSchema>;
export const deductionOrderListResponseSchema = listResponse(deductionOrderSchema);

export const DEDUCTION_LINE_GROUPS = ['todas', 'movimientos', ...DEDUCTION_MOVEMENTS] as const;
export const deductionOrderLinesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  /** One movement, every line that moves (altas, bajas, cambios), or all. */
  group: z.enum(DEDUCTION_LINE_GROUPS).default('todas'),
  q: z.string().trim().max(100).optional(),
});
export type DeductionOrderLinesQuery = z.infer<typeof deductionOrderLinesQuerySchema>;

export const deductionOrderLineSchema = z.object({
  line: z.number().int(),
  creditId: z.string(),
  creditFolio: z.string(),
  employeeNumber: z.string(),
  curp: z.string(),
  name: z.string(),
  movement: z.enum(DEDUCTION_MOVEMENTS),
  amountBefore: z.string(),
  amountAfter: z.string(),
  reason: z.enum(DEDUCTION_REASON_CODES).nullable(),
  /**
   * A renewal's cambio (the agreement's renewalAsChange): the renewed credit this line's new credit takes the place of;
   * amountBefore is that credit's installment. Null on every other line.
   */
  replacesCreditFolio: z.string().nullable(),
});
export type DeductionOrderLine = z.infer<typeof deductionOrderLineSchema>;
export const deductionOrderLinesResponseSchema = listResponse(deductionOrderLineSchema);

/** A substitution's difference: each credit whose instruction changed from the replaced cédula to this one. */
export const deductionOrderDifferenceSchema = z.object({
  creditFolio: z.string(),
  employeeNumber: z.string(),
  name: z.string(),
  before: z.object({ movement: z.enum(DEDUCTION_MOVEMENTS), amount: z.string() }).nullable(),
  after: z.object({ movement: z.enum(DEDUCTION_MOVEMENTS), amount: z.string() }).nullable(),
});
export type DeductionOrderDifference = z.infer<typeof deductionOrderDifferenceSchema>;
export const deductionOrderDifferencesResponseSchema = z.object({ items: z.array(deductionOrderDifferenceSchema) });

export const generateDeductionOrderBodySchema = z.object({ agreementId: z.uuid('Convenio no válido.') });

export const sendDeductionOrderBodySchema = z.object({
  sentOn: dateField('Fecha de envío'),
  channel: z.enum(DEDUCTION_ORDER_CHANNELS, 'Canal no válido.'),
  note: z.string().trim().max(500, 'La nota admite hasta 500 caracteres.').default(''),
});
export type SendDeductionOrderBody = z.infer<typeof sendDeductionOrderBodySchema>;

/** What "Generar" would do for each agreement: the payday it targets and what already exists for it. */
export const deductionOrderOptionSchema = z.object({
  agreementId: z.string(),
  agreement: z.string(),
  company: z.string(),
  businessDate: z.string(),
  /** The next payday whose cut-off has not passed and that has no emitted cédula yet. */
  nextPayday: z.string(),
  cutOffDate: z.string(),
  /** Paydays with an emitted cédula whose cut-off has passed: a change to a credit now goes to nextPayday's cédula. */
  frozenPaydays: z.array(z.string()),
});
export type DeductionOrderOption = z.infer<typeof deductionOrderOptionSchema>;

/** Lines the employer deducts: every movement but a baja. */
export const isInstructed = (movement: DeductionMovement): boolean => movement !== 'baja';
