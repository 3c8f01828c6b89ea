import { z } from 'zod';

/**
 * The shapes every area shares: the list query and answer, the id in a path, the version of an edit, the audit
 * entry of a detail's history, and the Problem answer of an error. Written once here; the areas extend them.
 */

export const PAGE_SIZE_MAX = 100;

/** The page part of every list query: `{ page, pageSize ≤ 100 }`. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1, 'La página empieza en 1.').default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX, `Máximo ${PAGE_SIZE_MAX} registros por página.`).default(25),
});

/** The one list query every list endpoint takes: `{ page, pageSize ≤ 100, sort, q, ...filters }` (areas add sort and filters). */
export const listQuery = pageQuery.extend({
  q: z.string().trim().max(100).optional(),
});

/** A list query without its page: what an export of the filtered list takes. */
export const exportQuery = <Query extends typeof pageQuery>(query: Query) => query.omit({ page: true, pageSize: true });

/**
 * A list counts the rows that match up to this many (docs/decisions/0013-list-counts-stop-at-a-thousand.md): a page
 * of a million requests costs what a page of a thousand does. Beyond it the answer says "more than" (`totalCapped`).
 */
export const LIST_COUNT_CAP = 1_000;

/**
 * A search by name answers "more than" past this many matching rows without counting them (decision 0035): telling a
 * common name from over 1,000 matches cost reading thousands of rows per search. The API's search functions (migration
 * 0043) stop at the same number.
 */
export const SEARCH_COUNT_CAP = 100;

/**
 * The one list answer: a page of items and how many match in all, counted up to LIST_COUNT_CAP: when more match,
 * `total` is the cap and `totalCapped` is true (the grid shows "más de 1,000" and pages on while pages come full); a
 * search by name alone stops at SEARCH_COUNT_CAP ("más de 100").
 */
export const listResponse = <Item extends z.ZodType>(item: Item) =>
  z.object({ items: z.array(item), total: z.number().int(), totalCapped: z.boolean() });

/** A catalogue answered whole (no paging): `{ items }`. */
export const itemsResponse = <Item extends z.ZodType>(item: Item) => z.object({ items: z.array(item) });

/** The `:id` of a record's path. */
export const idParams = z.object({ id: z.uuid('Identificador no válido.') });
export type IdParams = z.infer<typeof idParams>;

/** An edit names the version it was made on: a stale one is refused with 409. */
export const versionField = z.number().int().min(1);
export const versionBody = z.object({ version: versionField });

/** Switches a record on or off, on the version it was seen at. */
export const statusBody = z.object({ active: z.boolean(), version: versionField });

export const auditEntrySchema = z.object({
  id: z.number().int(),
  occurredAt: z.string(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** RFC 9457 Problem Details, with Spanish text a clerk can act on and per-field errors for forms. */
export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  requestId: z.string().optional(),
  errors: z.array(fieldErrorSchema).optional(),
});
export type Problem = z.infer<typeof problemSchema>;
