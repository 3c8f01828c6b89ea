/**
 * Each list's columns, declared once: the key of the value, the Spanish label a user reads, its kind (how it is shown
 * and exported) and its width in a spreadsheet (characters). The web grid, the xlsx export and the report datasets
 * read these, so a label cannot drift between the screen and the file a clerk downloads from it.
 */
export const COLUMN_KINDS = ['text', 'money', 'date', 'datetime', 'count'] as const;
export type ColumnKind = (typeof COLUMN_KINDS)[number];

export interface ListColumn<Key extends string = string> {
  key: Key;
  label: string;
  kind: ColumnKind;
  /** Width of the spreadsheet's column, in characters. */
  width: number;
}

const column = <Key extends string>(key: Key, label: string, kind: ColumnKind, width: number): ListColumn<Key> => ({
  key,
  label,
  kind,
  width,
});

/** The label of a list's column by its key (a grid's column, a report field meaning the same). */
export function columnLabel<Key extends string>(columns: readonly ListColumn<Key>[], key: Key): string {
  const found = columns.find((candidate) => candidate.key === key);
  if (!found) throw new Error(`No hay columna ${key}`);
  return found.label;
}

/** Cartera → Créditos (grid and export). */
export const CREDIT_COLUMNS = [
  column('folio', 'Folio', 'text', 14),
  column('clientName', 'Acreditado', 'text', 32),
  column('curp', 'CURP', 'text', 20),
  column('agreement', 'Convenio', 'text', 24),
  column('company', 'Empresa', 'text', 22),
  column('principal', 'Capital dispersado', 'money', 14),
  column('outstandingBalance', 'Saldo total', 'money', 14),
  column('installment', 'Descuento', 'money', 12),
  column('nextDiscountDate', 'Próximo descuento', 'date', 14),
  column('daysPastDue', 'Días de atraso', 'count', 10),
  column('bucket', 'Tramo de atraso', 'text', 14),
  column('status', 'Estado', 'text', 10),
  column('labels', 'Etiquetas', 'text', 20),
  column('disbursementDate', 'Fecha de dispersión', 'date', 14),
] as const;

/**
 * A payment's split by concept, as a payment file's result and the payments export write it (each charge and its IVA
 * apart); screens show moratorios and comisiones with their IVA (PAYMENT_SPLIT_SHOWN_COLUMNS).
 */
export const PAYMENT_SPLIT_COLUMNS = [
  column('principal', 'Capital', 'money', 12),
  column('interest', 'Interés', 'money', 12),
  column('iva', 'IVA', 'money', 10),
  column('moratoryInterest', 'Moratorios', 'money', 12),
  column('moratoryIva', 'IVA moratorios', 'money', 12),
  column('fees', 'Comisiones', 'money', 12),
  column('feesIva', 'IVA comisiones', 'money', 12),
  column('overpayment', 'Sobrepago', 'money', 12),
] as const;

/** The split as screens and the report of applied payments show it: six figures, each charge with its IVA. */
export const PAYMENT_SPLIT_SHOWN_COLUMNS = [
  column('principal', 'Capital', 'money', 12),
  column('interest', 'Interés', 'money', 12),
  column('iva', 'IVA', 'money', 10),
  column('moratory', 'Moratorios con IVA', 'money', 14),
  column('fees', 'Comisiones con IVA', 'money', 14),
  column('overpayment', 'Sobrepago', 'money', 12),
] as const;

/** Cartera → Reporte de pagos (the export; the grid shows the file and line together, the split as shown). */
export const PAYMENT_COLUMNS = [
  column('creditFolio', 'Folio', 'text', 14),
  column('clientName', 'Acreditado', 'text', 32),
  column('agreement', 'Convenio', 'text', 24),
  column('fileName', 'Archivo', 'text', 24),
  column('fileLine', 'Línea', 'count', 8),
  column('valueDate', 'Fecha valor', 'date', 12),
  column('amount', 'Importe', 'money', 12),
  ...PAYMENT_SPLIT_COLUMNS,
  column('status', 'Estado', 'text', 12),
] as const;

/** A payment file's rows and their outcome (the result's export). */
export const PAYMENT_FILE_RESULT_COLUMNS = [
  column('line', 'Línea', 'count', 8),
  column('raw', 'Contenido original', 'text', 50),
  column('creditRef', 'Folio leído', 'text', 14),
  column('employeeNumber', 'Número de empleado', 'text', 14),
  column('curpRfc', 'CURP o RFC', 'text', 20),
  column('amount', 'Importe', 'money', 12),
  column('period', 'Periodo', 'text', 10),
  column('reference', 'Referencia', 'text', 14),
  column('outcome', 'Resultado', 'text', 22),
  column('message', 'Motivo', 'text', 50),
  column('credit', 'Crédito', 'text', 14),
  ...PAYMENT_SPLIT_COLUMNS,
] as const;

/** Estado de cuenta por convenio: the lines behind a figure (grid) and the missing ones' follow-up list (export). */
export const EMPLOYER_STATEMENT_LINE_COLUMNS = [
  column('creditFolio', 'Crédito', 'text', 14),
  column('employeeNumber', 'Núm. empleado', 'text', 14),
  column('name', 'Acreditado', 'text', 32),
  column('payday', 'Día de pago', 'date', 12),
  column('instructedAmount', 'Instruido', 'money', 12),
  column('receivedAmount', 'Recibido', 'money', 12),
  column('daysSince', 'Días desde el día de pago', 'count', 12),
] as const;

/** Usuarios (grid and export). */
export const USER_COLUMNS = [
  column('email', 'Correo electrónico', 'text', 34),
  column('name', 'Nombre', 'text', 30),
  column('profile', 'Perfil', 'text', 20),
  column('company', 'Empresa', 'text', 24),
  column('status', 'Estado', 'text', 10),
  column('lastSignInAt', 'Último acceso', 'datetime', 20),
] as const;

/** Convenios (grid and export). */
export const AGREEMENT_COLUMNS = [
  column('code', 'Clave', 'text', 14),
  column('name', 'Convenio', 'text', 40),
  column('employerName', 'Patrón', 'text', 40),
  column('sector', 'Sector', 'text', 12),
  column('frequency', 'Periodicidad', 'text', 14),
  column('company', 'Empresa', 'text', 24),
  column('activeProducts', 'Productos activos', 'count', 16),
  column('status', 'Estado', 'text', 10),
] as const;

/** Every list with an export, by name: the tests that compare a grid and its file with the declaration read this. */
export const LIST_COLUMNS = {
  credits: CREDIT_COLUMNS,
  payments: PAYMENT_COLUMNS,
  paymentFileResult: PAYMENT_FILE_RESULT_COLUMNS,
  employerStatementLines: EMPLOYER_STATEMENT_LINE_COLUMNS,
  users: USER_COLUMNS,
  agreements: AGREEMENT_COLUMNS,
} as const;
