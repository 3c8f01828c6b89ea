import { z } from 'zod';

/**
 * Créditos → Actualizar Etiqueta (issue 17): each company's label catalogue, and bulk label updates from a selection
 * of credits or from a file (folio, etiqueta, acción), previewed row by row and applied in one transaction. Every
 * change is kept in the credit's label history with who, when and the update (job) it came from.
 */

export const LABEL_ACTIONS = ['agregar', 'quitar'] as const;
export type LabelAction = (typeof LABEL_ACTIONS)[number];

/** Where an update's rows came from: credits checked in the grid, or an uploaded file. */
export const LABEL_SOURCES = ['selección', 'archivo'] as const;
export type LabelSource = (typeof LABEL_SOURCES)[number];

/**
 * A row's outcome. Only `aplicable` changes a credit; every other outcome is reported and left alone. A credit of
 * another company is `crédito no encontrado`, exactly like one that does not exist (row-level security).
 */
export const LABEL_ROW_OUTCOMES = [
  'aplicable',
  'crédito no encontrado',
  'ya tiene la etiqueta',
  'no tiene la etiqueta',
  'etiqueta desconocida',
  'duplicado',
  'dato no válido',
] as const;
export type LabelRowOutcome = (typeof LABEL_ROW_OUTCOMES)[number];

/** The most rows one update takes (a selection or a file). */
export const LABEL_UPDATE_MAX_ROWS = 5_000;
export const LABEL_FILE_MAX_BYTES = 2 * 1024 * 1024;

/** A label of the catalogue, with the colour its chip is drawn in. */
export const labelSchema = z.object({
  id: z.string(),
  companyId: z.string(),
  company: z.string(),
  name: z.string(),
  color: z.string(),
});
export type Label = z.infer<typeof labelSchema>;

/**
 * One requested change as read (a file's cells are kept as text, so a wrong action is reported on its row rather than
 * refusing the whole file). `line` is the file's line, or the position in the selection.
 */
export const labelUpdateRowInputSchema = z.object({
  line: z.number().int().min(1),
  folio: z.string().max(40),
  label: z.string().max(60),
  action: z.string().max(20),
});
export type LabelUpdateRowInput = z.infer<typeof labelUpdateRowInputSchema>;

export const labelUpdateRequestSchema = z.object({
  source: z.enum(LABEL_SOURCES),
  /** The uploaded file's name (source `archivo`). */
  fileName: z.string().trim().max(200).nullable().default(null),
  rows: z
    .array(labelUpdateRowInputSchema)
    .min(1, 'Elige al menos un crédito.')
    .max(LABEL_UPDATE_MAX_ROWS, `Se actualizan hasta ${LABEL_UPDATE_MAX_ROWS.toLocaleString('es-MX')} créditos a la vez.`),
});
export type LabelUpdateRequest = z.input<typeof labelUpdateRequestSchema>;

/** What became (or would become) of one row. */
export const labelUpdateRowSchema = z.object({
  line: z.number().int(),
  folio: z.string(),
  label: z.string(),
  action: z.enum(LABEL_ACTIONS).nullable(),
  outcome: z.enum(LABEL_ROW_OUTCOMES),
  message: z.string().nullable(),
  creditId: z.string().nullable(),
  clientName: z.string().nullable(),
  company: z.string().nullable(),
});
export type LabelUpdateRow = z.infer<typeof labelUpdateRowSchema>;

export const labelUpdatePreviewSchema = z.object({
  rows: z.array(labelUpdateRowSchema),
  applicable: z.number().int(),
  rejected: z.number().int(),
});
export type LabelUpdatePreview = z.infer<typeof labelUpdatePreviewSchema>;

/** An applied update: the job every history entry it wrote points to. */
export const labelJobSchema = z.object({
  id: z.string(),
  source: z.enum(LABEL_SOURCES),
  fileName: z.string().nullable(),
  rowsTotal: z.number().int(),
  applied: z.number().int(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type LabelJob = z.infer<typeof labelJobSchema>;

export const labelUpdateResultSchema = labelUpdatePreviewSchema.extend({ job: labelJobSchema });
export type LabelUpdateResult = z.infer<typeof labelUpdateResultSchema>;

/** A file read into rows, before the preview: the screen shows them and sends them back to preview and apply. */
export const labelFileSchema = z.object({ fileName: z.string(), rows: z.array(labelUpdateRowInputSchema) });
export type LabelFile = z.infer<typeof labelFileSchema>;

/** One entry of a credit's label history. */
export const labelHistoryEntrySchema = z.object({
  id: z.number().int(),
  label: z.string(),
  action: z.enum(LABEL_ACTIONS),
  actorEmail: z.string().nullable(),
  occurredAt: z.string(),
  jobId: z.string(),
  source: z.enum(LABEL_SOURCES),
  fileName: z.string().nullable(),
});
export type LabelHistoryEntry = z.infer<typeof labelHistoryEntrySchema>;
