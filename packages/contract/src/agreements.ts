import { z } from 'zod';
import { cleanMoney, dateField, moneyField } from './fields';
import { listQuery, versionBody } from './common';

/**
 * Convenios: the agreement with an employer that fixes its pay frequency, deduction cap, products and the layout
 * of its payment file. Rates and percentages travel as decimal strings in percent ("36.5" = 36.5 %), money as
 * decimal strings in pesos ("10000.00"); nothing here is a binary float.
 */

export const SECTORS = ['federal', 'estatal', 'municipal', 'privado'] as const;
export const SECTOR_LABELS: Record<(typeof SECTORS)[number], string> = {
  federal: 'Federal',
  estatal: 'Estatal',
  municipal: 'Municipal',
  privado: 'Privado',
};
export const PAY_FREQUENCIES = ['semanal', 'catorcenal', 'quincenal', 'mensual'] as const;
/** ISO weekdays of a semanal / catorcenal payday. */
export const WEEKDAY_LABELS: Record<number, string> = {
  1: 'Lunes',
  2: 'Martes',
  3: 'Miércoles',
  4: 'Jueves',
  5: 'Viernes',
  6: 'Sábado',
  7: 'Domingo',
};
export type PayFrequency = (typeof PAY_FREQUENCIES)[number];
export const FREQUENCY_LABELS: Record<PayFrequency, string> = {
  semanal: 'Semanal',
  catorcenal: 'Catorcenal',
  quincenal: 'Quincenal',
  mensual: 'Mensual',
};

const percent = (label: string, max = 100) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,3}(\.\d{1,4})?$/, `${label}: escribe un porcentaje, por ejemplo 36 o 36.5.`)
    .refine((value) => Number(value) <= max, `${label}: no puede pasar de ${max} %.`);

const money = (label: string) => moneyField(label, '10000');

/** "36.5" (percent) → "0.365" (the fraction packages/lending takes), by moving the decimal point: exact. */
export function percentToFraction(value: string): string {
  const [whole = '0', decimals = ''] = value.split('.');
  const digits = `${whole.padStart(3, '0')}${decimals}`;
  const fraction = `${digits.slice(0, -2 - decimals.length) || '0'}.${digits.slice(-2 - decimals.length)}`;
  return fraction.replace(/^0+(?=\d)/, '');
}

const isoDate = dateField;

/** At most this many non-working days per agreement (a few years of holidays). */
export const MAX_NON_WORKING_DAYS = 60;

/**
 * The employer's non-working days (holidays): a payday that falls on one is paid on the previous working day. ISO
 * dates, each once; kept in date order.
 */
export const nonWorkingDaysSchema = z
  .array(dateField('Días inhábiles de nómina', 'Días inhábiles de nómina: cada fecha debe ser válida (dd/mm/aaaa).'))
  .max(MAX_NON_WORKING_DAYS, `Días inhábiles de nómina: máximo ${MAX_NON_WORKING_DAYS} fechas.`)
  .refine((days) => new Set(days).size === days.length, 'Días inhábiles de nómina: hay fechas repetidas.')
  .transform((days) => [...days].sort());

export const productInputSchema = z
  .object({
    id: z.uuid().optional(),
    name: z.string().trim().min(2, 'Escribe el nombre del producto.').max(80, 'El nombre del producto es demasiado largo.'),
    annualRatePct: percent('Tasa anual', 300).refine((value) => Number(value) > 0, 'Tasa anual: debe ser mayor que 0.'),
    ivaRatePct: percent('IVA', 100),
    openingFeePct: percent('Comisión por apertura', 20),
    openingFeeFinanced: z.boolean(),
    terms: z
      .array(z.number().int('Plazo: número entero de pagos.').min(1, 'Plazo: al menos 1 pago.').max(600, 'Plazo: máximo 600 pagos.'))
      .min(1, 'Indica al menos un plazo permitido.')
      .refine((terms) => new Set(terms).size === terms.length, 'Hay plazos repetidos.'),
    minAmount: money('Monto mínimo'),
    maxAmount: money('Monto máximo'),
    maxAgeAtEnd: z
      .number()
      .int('Edad máxima: número entero.')
      .min(18, 'Edad máxima: al menos 18 años.')
      .max(99, 'Edad máxima: a lo más 99 años.'),
    /** Annual moratory rate on overdue principal (by days, plus IVA); 0 = none. */
    moratoryRatePct: percent('Tasa moratoria', 300).default('0'),
    /** Late-payment commission per overdue installment, before IVA; 0 = none. */
    lateFee: money('Comisión por pago tardío').default('0'),
    /** Renewal rule (docs/domain.md, "Renewals"): installments paid at least, days past due at most, of a credit renewed into it. */
    renewalMinPaid: z
      .number()
      .int('Pagos mínimos para renovar: número entero.')
      .min(0, 'Pagos mínimos para renovar: 0 o más.')
      .max(600, 'Pagos mínimos para renovar: máximo 600.')
      .default(3),
    renewalMaxDaysPastDue: z
      .number()
      .int('Días de atraso máximos para renovar: número entero.')
      .min(0, 'Días de atraso máximos para renovar: 0 o más.')
      .max(3650, 'Días de atraso máximos para renovar: máximo 3650.')
      .default(0),
    active: z.boolean().default(true),
  })
  .refine((product) => Number(product.minAmount) <= Number(product.maxAmount), {
    message: 'El monto mínimo no puede ser mayor que el máximo.',
    path: ['maxAmount'],
  });
export type ProductInput = z.input<typeof productInputSchema>;

/**
 * The fields a payment file row is read into. `movement` is where a cédula de descuentos (issue 46), written in the same
 * layout, puts each line's movement code (DEDUCTION_MOVEMENT_CODES); a payment file may leave it out.
 */
export const LAYOUT_FIELDS = ['creditId', 'employeeNumber', 'curpRfc', 'amount', 'period', 'reference', 'movement'] as const;
export type LayoutField = (typeof LAYOUT_FIELDS)[number];
export const LAYOUT_FIELD_LABELS: Record<LayoutField, string> = {
  creditId: 'Folio del crédito',
  employeeNumber: 'Número de empleado',
  curpRfc: 'CURP o RFC',
  amount: 'Importe',
  period: 'Periodo',
  reference: 'Referencia',
  movement: 'Movimiento (cédula)',
};

const columnNumber = z.number().int('Columna: número entero.').min(1, 'Las columnas se cuentan desde 1.').max(200, 'Columna: máximo 200.');
const columnsSchema = z.object({
  creditId: columnNumber.optional(),
  employeeNumber: columnNumber.optional(),
  curpRfc: columnNumber.optional(),
  amount: columnNumber,
  period: columnNumber.optional(),
  reference: columnNumber.optional(),
  movement: columnNumber.optional(),
});
const positionSchema = z.object({
  start: z.number().int().min(1, 'Las posiciones se cuentan desde 1.').max(2000),
  length: z.number().int().min(1, 'La longitud es de al menos 1.').max(200),
});

const identifies = (fields: Partial<Record<LayoutField, unknown>>) => fields.creditId !== undefined || fields.employeeNumber !== undefined;
const IDENTIFY_MESSAGE = 'El layout debe leer el folio del crédito o el número de empleado.';

/** How an employer's payment file is read: data, so one parser reads any agreement's file. */
export const layoutSchema = z.discriminatedUnion('format', [
  z.object({
    format: z.literal('csv'),
    delimiter: z.enum([',', ';', '|', '\t'], 'Separador no válido.'),
    hasHeader: z.boolean(),
    /** Amounts written without a decimal point, in centavos ("125050" = 1,250.50). */
    amountInCents: z.boolean().default(false),
    columns: columnsSchema.refine(identifies, IDENTIFY_MESSAGE),
  }),
  z.object({
    format: z.literal('xlsx'),
    sheet: z.string().trim().max(31).optional(),
    hasHeader: z.boolean(),
    amountInCents: z.boolean().default(false),
    columns: columnsSchema.refine(identifies, IDENTIFY_MESSAGE),
  }),
  z.object({
    format: z.literal('fixed'),
    amountInCents: z.boolean().default(true),
    positions: z
      .object({
        creditId: positionSchema.optional(),
        employeeNumber: positionSchema.optional(),
        curpRfc: positionSchema.optional(),
        amount: positionSchema,
        period: positionSchema.optional(),
        reference: positionSchema.optional(),
        movement: positionSchema.optional(),
      })
      .refine(identifies, IDENTIFY_MESSAGE),
  }),
]);
export type Layout = z.input<typeof layoutSchema>;

export const contactSchema = z.object({
  name: z.string().trim().min(2, 'Escribe el nombre del contacto.').max(120),
  email: z.union([z.literal(''), z.email('Correo del contacto no válido.')]),
  phone: z.union([
    z.literal(''),
    z
      .string()
      .trim()
      .regex(/^[\d\s+()-]{7,20}$/, 'Teléfono no válido.'),
  ]),
});

export const agreementInputSchema = z
  .object({
    companyId: z.uuid('Elige la empresa (marca).'),
    code: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9-]{2,20}$/, 'La clave es de 2 a 20 letras, números o guiones, por ejemplo GOB-JAL.'),
    name: z.string().trim().min(3, 'Escribe el nombre del convenio.').max(120, 'El nombre es demasiado largo.'),
    employerName: z.string().trim().min(3, 'Escribe el nombre del patrón.').max(160, 'El nombre es demasiado largo.'),
    employerRfc: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-ZÑ&]{3,4}\d{6}[A-Z0-9]{3}$/, 'RFC del patrón no válido: 12 caracteres para una empresa, 13 para una persona.'),
    sector: z.enum(SECTORS, 'Elige el sector.'),
    frequency: z.enum(PAY_FREQUENCIES, 'Elige la periodicidad de pago.'),
    maxDeductionPct: percent('Descuento máximo').refine((value) => Number(value) > 0, 'Descuento máximo: debe ser mayor que 0.'),
    remittanceLagDays: z
      .number()
      .int('Días de tránsito: número entero.')
      .min(0, 'Días de tránsito: 0 o más.')
      .max(120, 'Días de tránsito: máximo 120.'),
    /** Payroll calendar: the mensual pay day (31 = last day of the month) … */
    payDay: z
      .number()
      .int('Día de pago: número entero.')
      .min(1, 'Día de pago: del 1 al 31.')
      .max(31, 'Día de pago: del 1 al 31.')
      .nullable()
      .default(null),
    /** … the semanal / catorcenal payday (ISO weekday, 1 = lunes … 7 = domingo) … */
    paydayWeekday: z
      .number()
      .int('Día de pago: elige un día de la semana.')
      .min(1, 'Día de pago: elige un día de la semana.')
      .max(7, 'Día de pago: elige un día de la semana.')
      .nullable()
      .default(null),
    /** … and the days the employer needs before its payroll closes to load a new deduction. */
    cutOffLeadDays: z
      .number()
      .int('Días de anticipación al corte: número entero.')
      .min(0, 'Días de anticipación al corte: 0 o más.')
      .max(60, 'Días de anticipación al corte: máximo 60.')
      .default(0),
    /** … and the days its payroll does not pay (a payday on one moves to the previous working day). */
    nonWorkingDays: nonWorkingDaysSchema.default([]),
    /**
     * The cédula's renewals (docs/domain.md "Cédulas de descuento"): false, the renewed credit is a baja and the new one
     * an alta; true, the employer gets one cambio line per employee — the new credit's folio and installment in place of
     * the renewed one's.
     */
    renewalAsChange: z.boolean('Renovación en una línea por empleado: sí o no.').default(false),
    validFrom: isoDate('Vigente desde'),
    validTo: isoDate('Vigente hasta').nullable(),
    contacts: z.array(contactSchema).max(10, 'Máximo 10 contactos.'),
    products: z.array(productInputSchema).min(1, 'Agrega al menos un producto.').max(20, 'Máximo 20 productos.'),
    layout: layoutSchema,
    active: z.boolean(),
  })
  .refine((agreement) => agreement.validTo === null || agreement.validTo >= agreement.validFrom, {
    message: 'La vigencia termina antes de empezar.',
    path: ['validTo'],
  });
export type AgreementInput = z.input<typeof agreementInputSchema>;
export type AgreementValues = z.output<typeof agreementInputSchema>;

export const agreementUpdateSchema = agreementInputSchema.and(versionBody);

export const AGREEMENT_SORT_FIELDS = ['code', 'name', 'employerName', 'sector', 'frequency', 'company', 'active'] as const;

export const agreementListQuerySchema = listQuery.extend({
  sort: z
    .string()
    .regex(new RegExp(`^-?(${AGREEMENT_SORT_FIELDS.join('|')})$`), 'Orden no válido.')
    .optional(),
  companyId: z.uuid('Empresa no válida.').optional(),
  sector: z.enum(SECTORS, 'Sector no válido.').optional(),
  frequency: z.enum(PAY_FREQUENCIES, 'Periodicidad no válida.').optional(),
  status: z.enum(['active', 'inactive'], 'Estado no válido.').optional(),
});
export type AgreementListQuery = z.infer<typeof agreementListQuerySchema>;

export const agreementListItemSchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  employerName: z.string(),
  sector: z.enum(SECTORS),
  frequency: z.enum(PAY_FREQUENCIES),
  companyId: z.string(),
  company: z.string(),
  activeProducts: z.number().int(),
  active: z.boolean(),
  version: z.number().int(),
});
export type AgreementListItem = z.infer<typeof agreementListItemSchema>;

export const productSchema = z.object({
  id: z.string(),
  name: z.string(),
  annualRatePct: z.string(),
  ivaRatePct: z.string(),
  openingFeePct: z.string(),
  openingFeeFinanced: z.boolean(),
  terms: z.array(z.number().int()),
  minAmount: z.string(),
  maxAmount: z.string(),
  maxAgeAtEnd: z.number().int(),
  moratoryRatePct: z.string(),
  lateFee: z.string(),
  renewalMinPaid: z.number().int(),
  renewalMaxDaysPastDue: z.number().int(),
  active: z.boolean(),
});

export const agreementDetailSchema = z.object({
  id: z.string(),
  companyId: z.string(),
  company: z.string(),
  code: z.string(),
  name: z.string(),
  employerName: z.string(),
  employerRfc: z.string(),
  sector: z.enum(SECTORS),
  frequency: z.enum(PAY_FREQUENCIES),
  maxDeductionPct: z.string(),
  remittanceLagDays: z.number().int(),
  payDay: z.number().int().nullable(),
  paydayWeekday: z.number().int().nullable(),
  cutOffLeadDays: z.number().int(),
  nonWorkingDays: z.array(z.string()),
  renewalAsChange: z.boolean(),
  validFrom: z.string(),
  validTo: z.string().nullable(),
  contacts: z.array(contactSchema),
  products: z.array(productSchema),
  /**
   * Null when the stored layout cannot be read (written by hand or by an older version): the detail says so in its
   * warnings and the edit form starts from a blank layout, which must be defined again before saving.
   */
  layout: layoutSchema.nullable(),
  active: z.boolean(),
  version: z.number().int(),
  /** A RFC whose check digit fails is accepted (≈1.5 % of real ones do) but flagged; an unreadable layout too. */
  warnings: z.array(z.object({ field: z.string(), message: z.string() })),
  history: z.array(
    z.object({
      id: z.number().int(),
      occurredAt: z.string(),
      actorEmail: z.string().nullable(),
      action: z.string(),
      before: z.unknown(),
      after: z.unknown(),
    }),
  ),
});
export type AgreementDetail = z.infer<typeof agreementDetailSchema>;

/** One row of a sample file as the layout reads it ("probar layout"). */
export const layoutTestRowSchema = z.object({
  line: z.number().int(),
  raw: z.string(),
  fields: z.record(z.string(), z.string()),
  errors: z.array(z.string()),
});
export const layoutTestResultSchema = z.object({
  rows: z.array(layoutTestRowSchema),
  totalRows: z.number().int(),
  errorRows: z.number().int(),
});
export type LayoutTestResult = z.infer<typeof layoutTestResultSchema>;

/**
 * The company's minimum net amount of a renewal (issue 48, docs/domain.md "Renewals"): a renewal whose net amount is
 * below it is refused. Pesos as typed, like every amount; each way it can be wrong says so, and it fits the column's
 * numeric(14,2): twelve digits of pesos at most.
 */
const MINIMUM_NET = 'Monto neto mínimo';
export const renewalMinimumNetField = z.string().transform((typed, ctx) => {
  const clean = cleanMoney(typed);
  const negative = clean.startsWith('-');
  const unsigned = negative ? cleanMoney(clean.slice(1)) : clean;
  const refuse = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  if (!/^\d+(\.\d+)?$/.test(unsigned)) return refuse(`${MINIMUM_NET}: escribe un importe en pesos, por ejemplo 5000 o 5000.50.`);
  if (negative) return refuse(`${MINIMUM_NET}: no puede ser negativo; escribe 0 para no pedir mínimo.`);
  const [whole = '', decimals = ''] = unsigned.split('.');
  if (decimals.length > 2) return refuse(`${MINIMUM_NET}: a lo más dos decimales (centavos).`);
  const pesos = whole.replace(/^0+(?=\d)/, '');
  if (pesos.length > 12) return refuse(`${MINIMUM_NET}: no puede pasar de $999,999,999,999.99.`);
  return `${pesos}.${decimals.padEnd(2, '0')}`;
});

export const renewalMinimumInputSchema = z.object({ renewalMinimumNet: renewalMinimumNetField });
export type RenewalMinimumInput = z.input<typeof renewalMinimumInputSchema>;
export const renewalMinimumSchema = z.object({ renewalMinimumNet: z.string() });
export type RenewalMinimum = z.infer<typeof renewalMinimumSchema>;
