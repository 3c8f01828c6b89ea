import { z } from 'zod';
import { payoffQuoteSchema } from './credits';
import { dateField } from './fields';
import { letterSummarySchema } from './letter-summary';

export { letterSummarySchema, type LetterSummary } from './letter-summary';

/**
 * Créditos → Carta de Liquidación Anticipada (issue 17): the payoff quote of a credit at a validity date, the letter
 * printed as a PDF on the company's brand template (a versioned PDF background plus a layout placing each field), and
 * the templates' versions. A letter keeps every printed field, its amounts, the template version it used, the PDF's
 * bytes and their SHA-256, who and when.
 */

const isoDate = dateField('Vigencia');

/**
 * The fields the letter prints (seed specification: created date, created hour, idPestamo, cliente, convenio,
 * montoCredito, plazo, pagos, descuento, transito, saldoFinal, vigencia, fechaDescuento, referencia, montoTotal),
 * named as the specification names them; each template's layout places every one.
 */
export const LETTER_FIELDS = [
  'createdDate',
  'createdHour',
  'idPestamo',
  'cliente',
  'convenio',
  'montoCredito',
  'plazo',
  'pagos',
  'descuento',
  'transito',
  'saldoFinal',
  'vigencia',
  'fechaDescuento',
  'referencia',
  'montoTotal',
] as const;
export type LetterField = (typeof LETTER_FIELDS)[number];

export const LETTER_FIELD_LABELS: Record<LetterField, string> = {
  createdDate: 'Fecha de emisión',
  createdHour: 'Hora de emisión',
  idPestamo: 'Crédito',
  cliente: 'Cliente',
  convenio: 'Convenio',
  montoCredito: 'Monto del crédito',
  plazo: 'Plazo',
  pagos: 'Pagos realizados',
  descuento: 'Descuento',
  transito: 'En tránsito',
  saldoFinal: 'Saldo final',
  vigencia: 'Vigencia',
  fechaDescuento: 'Fecha de descuento',
  referencia: 'Referencia de pago',
  montoTotal: 'Importe total a liquidar',
};

export const LETTER_TEMPLATE_MAX_BYTES = 5 * 1024 * 1024;
export const LETTER_LAYOUT_MAX_BYTES = 64 * 1024;

/** Where one field is printed: PDF points from the page's lower-left corner, the font size, and which side `x` is. */
export const letterLayoutFieldSchema = z.object({
  x: z.number('x debe ser un número.').finite().min(0, 'x no puede ser negativa.'),
  y: z.number('y debe ser un número.').finite().min(0, 'y no puede ser negativa.'),
  size: z.number().finite().min(6, 'El tamaño de letra mínimo es 6 puntos.').max(36, 'El tamaño de letra máximo es 36 puntos.').default(10),
  /** `left`: the text starts at x; `right`: it ends at x (amounts in a column). */
  align: z.enum(['left', 'right'], 'La alineación es left o right.').default('left'),
  bold: z.boolean().default(false),
});
export type LetterLayoutField = z.infer<typeof letterLayoutFieldSchema>;

/** A template's layout: every field of LETTER_FIELDS placed on the background's first page. */
export const letterLayoutSchema = z.object({
  fields: z.object(
    Object.fromEntries(LETTER_FIELDS.map((field) => [field, letterLayoutFieldSchema])) as Record<
      LetterField,
      typeof letterLayoutFieldSchema
    >,
    'Falta el objeto fields con la posición de cada campo.',
  ),
});
export type LetterLayout = z.infer<typeof letterLayoutSchema>;

export const letterTemplateVersionSchema = z.object({
  id: z.string(),
  version: z.number().int(),
  fileName: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  pageWidth: z.number(),
  pageHeight: z.number(),
  layout: letterLayoutSchema,
  uploadedBy: z.string().nullable(),
  uploadedAt: z.string(),
  letters: z.number().int(),
});
export type LetterTemplateVersion = z.infer<typeof letterTemplateVersionSchema>;

/** A brand (company) with its template versions, newest first: new letters use the first. */
export const letterTemplateBrandSchema = z.object({
  companyId: z.string(),
  company: z.string(),
  validityBusinessDays: z.number().int(),
  versions: z.array(letterTemplateVersionSchema),
});
export type LetterTemplateBrand = z.infer<typeof letterTemplateBrandSchema>;

export const letterQuoteQuerySchema = z.object({ validUntil: isoDate.optional() });

/** The payoff components with what the letter adds: the credit's terms and the deductions still to be taken. */
export const letterPayoffSchema = payoffQuoteSchema.extend({
  creditAmount: z.string(),
  term: z.number().int(),
  paymentsMade: z.number().int(),
  installment: z.string(),
  inTransitCount: z.number().int(),
  pendingDeductions: z.array(z.object({ installment: z.number().int(), discountDate: z.string(), amount: z.string() })),
});
export type LetterPayoff = z.infer<typeof letterPayoffSchema>;

/** What a letter would say if issued now: the credit, the payoff at the validity date, the template it would use. */
export const letterQuoteSchema = z.object({
  creditId: z.string(),
  folio: z.string(),
  clientName: z.string(),
  curp: z.string(),
  agreement: z.string(),
  companyId: z.string(),
  company: z.string(),
  status: z.string(),
  /** The fecha flujo: the letter is quoted at it. */
  businessDate: z.string(),
  validityBusinessDays: z.number().int(),
  /** The company's default validity: validityBusinessDays business days after the fecha flujo. */
  defaultValidUntil: z.string(),
  payoff: letterPayoffSchema,
  template: z.object({ id: z.string(), version: z.number().int() }).nullable(),
});
export type LetterQuote = z.infer<typeof letterQuoteSchema>;

export const issueLetterSchema = z.object({ validUntil: isoDate.optional() });
export type IssueLetterInput = z.infer<typeof issueLetterSchema>;

/** The printed texts, by field, exactly as on the PDF. */
export const letterTextsSchema = z.object(
  Object.fromEntries(LETTER_FIELDS.map((field) => [field, z.string()])) as Record<LetterField, z.ZodString>,
);
export type LetterTexts = z.infer<typeof letterTextsSchema>;

/** An issued letter: its summary, every printed text and the payoff it was computed from. */
export const letterSchema = letterSummarySchema.extend({
  folio: z.string(),
  texts: letterTextsSchema,
  payoff: letterPayoffSchema,
  pdfSize: z.number().int(),
});
export type Letter = z.infer<typeof letterSchema>;
