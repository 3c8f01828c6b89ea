import { z } from 'zod';
import { PAY_FREQUENCIES, productSchema } from './agreements';
import { moneyField } from './fields';
import { listQuery, versionBody } from './common';

/** Originación: the pre-request (a client's first quote and its verdict), then the request and the credit. */

const money = (label: string) => moneyField(label, '8500');

const name = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `Escribe ${label}.`)
    .max(60, `${label[0]!.toUpperCase()}${label.slice(1)}: máximo 60 caracteres.`)
    .regex(
      /^[A-Za-zÁÉÍÓÚÜÑáéíóúüñ' .-]+$/,
      `${label[0]!.toUpperCase()}${label.slice(1)}: solo letras, espacios, apóstrofo, punto o guion.`,
    );

export const PRE_REQUEST_STATUSES = ['borrador', 'enviada', 'convertida', 'vencida'] as const;
export type PreRequestStatus = (typeof PRE_REQUEST_STATUSES)[number];
/** A sent pre-request not converted into a request within this many days becomes vencida. */
export const PRE_REQUEST_VALID_DAYS = 30;

/** The client's active credits a pre-request or request renews (ids, at most 5, none twice). */
export const renewsField = z
  .array(z.uuid('Crédito a renovar no válido.'))
  .max(5, 'Máximo 5 créditos a renovar.')
  .refine((ids) => new Set(ids).size === ids.length, 'Hay créditos a renovar repetidos.');

/** What a pre-request captures; the CURP's check (birth date, state, check digit) is the API's, with lending. */
export const preRequestInputSchema = z.object({
  curp: z.string().trim().toUpperCase().length(18, 'La CURP debe tener 18 caracteres.'),
  rfc: z.union([
    z.literal(''),
    z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-ZÑ&]{4}\d{6}[A-Z0-9]{3}$/, 'RFC no válido: 13 caracteres para una persona.'),
  ]),
  firstNames: name('el nombre'),
  lastName1: name('el primer apellido'),
  lastName2: z.union([z.literal(''), name('el segundo apellido')]),
  agreementId: z.uuid('Elige el convenio.'),
  productId: z.uuid('Elige el producto.'),
  employeeNumber: z.string().trim().min(1, 'Escribe el número de empleado.').max(30, 'Número de empleado: máximo 30 caracteres.'),
  netSalary: money('Sueldo neto por periodo'),
  otherDeductions: money('Otros descuentos'),
  amount: money('Monto solicitado'),
  term: z.number('Elige el plazo.').int('Plazo: número entero de pagos.').min(1, 'Elige el plazo.').max(600, 'Plazo: máximo 600 pagos.'),
  /** The client's active credits it renews (renovación): the new credit pays each off at disbursement. */
  renews: renewsField.default([]),
});
export type PreRequestInput = z.input<typeof preRequestInputSchema>;

/** A pre-request's client and loan fields as a pre-request or a request stores them: an optional RFC or second surname may be null. */
export type StoredPreRequestFields = Omit<PreRequestInput, 'rfc' | 'lastName2'> & { rfc: string | null; lastName2: string | null };

/**
 * A stored pre-request's or request's client and loan fields as the pre-request capture takes them: the API answers
 * them so (a pre-request, a request's detail) and judges a stored record again with them; the web fills its forms
 * with them (to edit a draft, or a request that converts a pre-request). An optional field stored empty (null) comes
 * back as ''; every other field of `stored` is left out.
 */
export function preRequestInputOf(stored: StoredPreRequestFields): PreRequestInput & { renews: string[] } {
  return {
    curp: stored.curp,
    rfc: stored.rfc ?? '',
    firstNames: stored.firstNames,
    lastName1: stored.lastName1,
    lastName2: stored.lastName2 ?? '',
    agreementId: stored.agreementId,
    productId: stored.productId,
    employeeNumber: stored.employeeNumber,
    netSalary: stored.netSalary,
    otherDeductions: stored.otherDeductions,
    amount: stored.amount,
    term: stored.term,
    renews: stored.renews ?? [],
  };
}

/** An edit of a draft names the version it was made on. */
export const preRequestUpdateSchema = preRequestInputSchema.extend(versionBody.shape);

export const eligibilityReasonSchema = z.object({ code: z.string(), message: z.string() });

/** One row of a schedule as packages/lending builds it (a quote's, or a credit's with its payment state added). */
export const scheduleRowSchema = z.object({
  number: z.number().int(),
  dueDate: z.string(),
  principal: z.string(),
  interest: z.string(),
  iva: z.string(),
  payment: z.string(),
  balance: z.string(),
  /** Only on a first row charged by days: its length. */
  days: z.number().int().optional(),
});

/** One credit a renewal pays off: its payoff at the payoff date and what the renewal rule reads of it. */
export const renewedCreditSchema = z.object({
  creditId: z.string(),
  folio: z.string(),
  status: z.string(),
  /** Its fixed deduction, freed for the capacity test. */
  installment: z.string(),
  paidInstallments: z.number().int(),
  daysPastDue: z.number().int(),
  /** The settlement letter's computation at the payoff date: gross balance less deductions en tránsito (saldo final). */
  payoff: z.string(),
  grossBalance: z.string(),
  inTransit: z.string(),
});
export type RenewedCreditView = z.infer<typeof renewedCreditSchema>;

/** A renewal's verdict (docs/domain.md, "Renewals"): the payoffs at a date and the net amount the client receives. */
export const renewalVerdictSchema = z.object({
  payoffDate: z.string(),
  credits: z.array(renewedCreditSchema),
  /** Other deductions the capacity test used: the captured ones less the renewed credits' installments. */
  otherDeductionsAfter: z.string(),
  netDisbursement: z.string(),
  payoffTotal: z.string(),
  netAmount: z.string(),
  minimumNet: z.string(),
  rule: z.object({ minPaidInstallments: z.number().int(), maxDaysPastDue: z.number().int() }),
});
export type RenewalVerdict = z.infer<typeof renewalVerdictSchema>;

export const simulationSchema = z.object({
  birthDate: z.string(),
  sex: z.enum(['H', 'M']),
  capacity: z.string(),
  installment: z.string(),
  cat: z.string(),
  openingFee: z.string(),
  /** IVA of the opening commission (16 %); optional only for verdicts stored before it existed. */
  openingFeeIva: z.string().optional(),
  netDisbursement: z.string(),
  firstDueDate: z.string(),
  /** Days from the contracting date to the first discount, and whether that irregular period is charged by days. */
  firstPeriodDays: z.number().int().optional(),
  firstPeriodByDays: z.boolean().optional(),
  lastDueDate: z.string(),
  ageAtEnd: z.number().int(),
  result: z.enum(['pre-aprobada', 'rechazada']),
  reasons: z.array(eligibilityReasonSchema),
  schedule: z.array(scheduleRowSchema),
  /** Present when the request renews credits. */
  renewal: renewalVerdictSchema.optional(),
});
export type Simulation = z.infer<typeof simulationSchema>;

export const preRequestSchema = z.object({
  id: z.string(),
  folio: z.string(),
  status: z.enum(PRE_REQUEST_STATUSES),
  curp: z.string(),
  rfc: z.string(),
  firstNames: z.string(),
  lastName1: z.string(),
  lastName2: z.string(),
  agreementId: z.string(),
  agreement: z.string(),
  productId: z.string(),
  product: z.string(),
  employeeNumber: z.string(),
  netSalary: z.string(),
  otherDeductions: z.string(),
  amount: z.string(),
  term: z.number().int(),
  /** The credits it renews (ids): converting it into a request carries them. */
  renews: z.array(z.string()),
  result: z.enum(['pre-aprobada', 'rechazada']),
  reasons: z.array(eligibilityReasonSchema),
  capacity: z.string(),
  installment: z.string(),
  cat: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  version: z.number().int(),
});
export type PreRequest = z.infer<typeof preRequestSchema>;

export const preRequestListQuerySchema = listQuery.extend({
  status: z.enum(PRE_REQUEST_STATUSES, 'Estado no válido.').optional(),
  sort: z
    .string()
    .regex(/^-?(folio|createdAt|amount|status)$/, 'Orden no válido.')
    .optional(),
});

/** What the pre-request form offers: active agreements in force and their active products. */
export const originationCatalogSchema = z.object({
  agreements: z.array(
    z.object({
      id: z.string(),
      code: z.string(),
      name: z.string(),
      frequency: z.enum(PAY_FREQUENCIES),
      maxDeductionPct: z.string(),
      payDay: z.number().int().nullable(),
      paydayWeekday: z.number().int().nullable(),
      nonWorkingDays: z.array(z.string()),
      cutOffLeadDays: z.number().int(),
      products: z.array(productSchema.omit({ active: true })),
    }),
  ),
  /** The company's business "today", from which the first discount date is placed. */
  today: z.string(),
  /** The general daily minimum wage in force (configuration): the pay left after deductions may not fall below it. */
  dailyMinimumWage: z.string(),
});
export type OriginationCatalog = z.infer<typeof originationCatalogSchema>;
