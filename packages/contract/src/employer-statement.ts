import { z } from 'zod';
import { dateField } from './fields';
import { pageQuery, listResponse } from './common';

/**
 * Cartera → Estado de cuenta por convenio (issue 46; docs/domain.md "Estado de cuenta por convenio"): per agreement and
 * payday, what the emitted cédula instructed, what the applied payment files of that payday received, and what is
 * missing (instructed, not received: no aplicado), with the missing lines as a follow-up list.
 */

const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Mes no válido (AAAA-MM).');

export const employerStatementQuerySchema = z.object({
  month,
  agreementId: z.uuid('Convenio no válido.').optional(),
});
export type EmployerStatementQuery = z.infer<typeof employerStatementQuerySchema>;

const figures = z.object({ count: z.number().int(), amount: z.string() });

/** One agreement's payday: its standing cédula against the payday's applied files. */
export const employerStatementPaydaySchema = z.object({
  agreementId: z.string(),
  agreement: z.string(),
  payday: z.string(),
  /** The standing cédula (emitida or enviada) of the payday. */
  orderId: z.string(),
  orderStatus: z.string(),
  /** Lines the employer was told to deduct (altas, cambios, continúan), and their amount. */
  instructed: figures,
  /** Accepted rows of the payday's applied payment files (any credit of the agreement), and their amount. */
  received: figures,
  /** Instructed lines no applied file paid: no aplicado. Their amount is what the cédula instructed. */
  missing: figures,
});
export type EmployerStatementPayday = z.infer<typeof employerStatementPaydaySchema>;

export const employerStatementResponseSchema = z.object({
  month: z.string(),
  paydays: z.array(employerStatementPaydaySchema),
  totals: z.object({ instructed: figures, received: figures, missing: figures }),
});
export type EmployerStatement = z.infer<typeof employerStatementResponseSchema>;

/** The lines behind a figure: the instructed ones, the received ones, or the missing ones. */
export const STATEMENT_LINE_GROUPS = ['instruidos', 'recibidos', 'faltantes'] as const;
export type StatementLineGroup = (typeof STATEMENT_LINE_GROUPS)[number];

export const employerStatementLinesQuerySchema = pageQuery.extend({
  agreementId: z.uuid('Convenio no válido.'),
  payday: dateField('Día de pago'),
  group: z.enum(STATEMENT_LINE_GROUPS, 'Grupo no válido.').default('faltantes'),
});
export type EmployerStatementLinesQuery = z.infer<typeof employerStatementLinesQuerySchema>;

export const employerStatementLineSchema = z.object({
  creditId: z.string(),
  creditFolio: z.string(),
  employeeNumber: z.string(),
  name: z.string(),
  payday: z.string(),
  /** What the cédula instructed (null: a received row of a credit it did not instruct). */
  instructedAmount: z.string().nullable(),
  /** What the applied files received (null: nothing). */
  receivedAmount: z.string().nullable(),
  /** Days from the payday to the fecha flujo. */
  daysSince: z.number().int(),
});
export type EmployerStatementLine = z.infer<typeof employerStatementLineSchema>;
export const employerStatementLinesResponseSchema = listResponse(employerStatementLineSchema);
