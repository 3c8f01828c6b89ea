import { and, asc, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  ReportDefinition,
  ReportDefinitionDetail,
  ReportRun,
  RunnableReport,
  reportDefinitionListQuerySchema,
  reportRunListQuerySchema,
} from '@portal/contract';
import type { Db, Tx } from '../../db/client';
import { fixedSelect } from '../../db/fixed-select';
import { containsPattern } from '../../db/like';
import { reportDefinitions, reportRuns } from '../../db/schema/reports';
import { companies, profiles, users } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { fixedCount, listOrder, type Paged, pagedList } from '../../http/pagination';
import { auditHistory } from '../audit/audit';

/** Reportes operativos' reads: the definitions list and detail, what a profile may run, a user's runs. */

export const DEFINITION_NOT_FOUND = { title: 'Reporte no encontrado', detail: 'El reporte no existe o no es de tu empresa.' };
export const RUN_NOT_FOUND = { title: 'Ejecución no encontrada', detail: 'La ejecución no existe o no es tuya.' };

type DefinitionRow = typeof reportDefinitions.$inferSelect;
type RunRow = typeof reportRuns.$inferSelect;
type DefinitionListQuery = z.infer<typeof reportDefinitionListQuerySchema>;
type RunListQuery = z.infer<typeof reportRunListQuerySchema>;

/** The definition's columns a run keeps with it (a later edit does not change what an earlier run meant). */
export interface DefinitionSnapshot {
  name: string;
  dataset: DefinitionRow['dataset'];
  columns: string[];
  filters: DefinitionRow['filters'];
  sort: DefinitionRow['sort'];
  format: DefinitionRow['format'];
}

async function profileNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: profiles.id, name: profiles.name }).from(profiles).where(inArray(profiles.id, ids));
  return new Map(rows.map((row) => [row.id, row.name]));
}

function toDefinition(row: DefinitionRow, company: string, names: Map<string, string>): ReportDefinition {
  return {
    id: row.id,
    companyId: row.companyId,
    company,
    name: row.name,
    description: row.description,
    dataset: row.dataset,
    columns: row.columns,
    filters: row.filters,
    sort: row.sort ?? null,
    format: row.format,
    profileIds: row.profileIds,
    profiles: row.profileIds.map((id) => names.get(id)).filter((name): name is string => name !== undefined),
    active: row.active,
    version: row.version,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function definitionFilters(query: Omit<DefinitionListQuery, 'page' | 'pageSize' | 'sort'>): SQL | undefined {
  return and(
    query.q ? ilike(reportDefinitions.name, containsPattern(query.q)) : undefined,
    query.dataset ? eq(reportDefinitions.dataset, query.dataset) : undefined,
    query.format ? eq(reportDefinitions.format, query.format) : undefined,
  );
}

const definitionList = fixedSelect({ definition: reportDefinitions, company: companies.name }, (select) =>
  select.from(reportDefinitions).innerJoin(companies, eq(companies.id, reportDefinitions.companyId)),
);

const definitionCount = fixedCount((select) => select.from(reportDefinitions));

export async function listDefinitions(db: Db, query: DefinitionListQuery): Promise<Paged<ReportDefinition>> {
  const where = definitionFilters(query);
  const order = listOrder(
    { name: reportDefinitions.name, dataset: reportDefinitions.dataset, updatedAt: reportDefinitions.updatedAt },
    query.sort,
    { field: 'name' },
    reportDefinitions.id,
  );
  const page = await pagedList(
    query,
    definitionList
      .in(db)
      .where(where)
      .orderBy(...order),
    definitionCount.in(db).where(where),
    (row) => row,
  );
  const names = await profileNames(db, [...new Set(page.items.flatMap((row) => row.definition.profileIds))]);
  return { ...page, items: page.items.map((row) => toDefinition(row.definition, row.company, names)) };
}

export async function loadDefinitionDetail(db: Db, id: string): Promise<ReportDefinitionDetail> {
  const [row] = await definitionList.in(db).where(eq(reportDefinitions.id, id));
  if (!row) throw new HttpProblem(404, DEFINITION_NOT_FOUND.title, DEFINITION_NOT_FOUND.detail);
  const names = await profileNames(db, row.definition.profileIds);
  return { ...toDefinition(row.definition, row.company, names), history: await auditHistory(db, 'report_definition', id) };
}

export const profileOptions = (db: Db) => db.select({ id: profiles.id, name: profiles.name }).from(profiles).orderBy(asc(profiles.name));

/** The company's active definitions the profile may run (row-level security gives the company). */
export async function runnableDefinitions(db: Db, profileId: string): Promise<RunnableReport[]> {
  const rows = await db
    .select()
    .from(reportDefinitions)
    .where(and(eq(reportDefinitions.active, true), sql`${reportDefinitions.profileIds} @> array[${profileId}]::uuid[]`))
    .orderBy(asc(reportDefinitions.name), asc(reportDefinitions.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    dataset: row.dataset,
    format: row.format,
    filters: row.filters,
  }));
}

/** A definition the profile may run, or 404: one it may not run is answered like one that does not exist. */
export async function runnableDefinition(tx: Tx, id: string, profileId: string): Promise<DefinitionRow> {
  const [row] = await tx
    .select()
    .from(reportDefinitions)
    .where(
      and(
        eq(reportDefinitions.id, id),
        eq(reportDefinitions.active, true),
        sql`${reportDefinitions.profileIds} @> array[${profileId}]::uuid[]`,
      ),
    );
  if (!row) throw new HttpProblem(404, DEFINITION_NOT_FOUND.title, 'El reporte no existe, está inactivo o tu perfil no puede ejecutarlo.');
  return row;
}

const requester = sql<
  string | null
>`(select coalesce(${users.name}, ${users.email}) from ${users} where ${users.id} = ${reportRuns.requestedBy})`;

export function toRun(row: RunRow & { requester?: string | null }, now: Date): ReportRun {
  const snapshot = row.definition as DefinitionSnapshot;
  const expired = row.status === 'completado' && row.expiresAt !== null && row.expiresAt <= now;
  return {
    id: row.id,
    definitionId: row.definitionId,
    definitionName: snapshot.name,
    dataset: snapshot.dataset,
    format: snapshot.format,
    parameters: row.parameters,
    status: expired ? 'vencido' : row.status,
    rowsTotal: row.rowsTotal,
    rowsDone: row.rowsDone,
    size: row.size,
    fileName: row.fileName,
    durationMs: row.durationMs,
    error: row.error,
    requestedBy: row.requester ?? null,
    requestedAt: row.requestedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

const runList = fixedSelect({ run: reportRuns, requester }, (select) => select.from(reportRuns));

const runCount = fixedCount((select) => select.from(reportRuns));

/** The user's own runs, newest first. */
export async function listRuns(db: Db, userId: string, query: RunListQuery, now: Date): Promise<Paged<ReportRun>> {
  const where = and(eq(reportRuns.requestedBy, userId), query.definitionId ? eq(reportRuns.definitionId, query.definitionId) : undefined);
  return pagedList(
    query,
    runList.in(db).where(where).orderBy(desc(reportRuns.requestedAt), desc(reportRuns.id)),
    runCount.in(db).where(where),
    (row) => toRun({ ...row.run, requester: row.requester }, now),
  );
}

/** One of the user's runs, or 404 (another user's run, or another company's, is not found). */
export async function loadRun(db: Db, userId: string, id: string, now: Date): Promise<ReportRun> {
  const [row] = await runList.in(db).where(and(eq(reportRuns.id, id), eq(reportRuns.requestedBy, userId)));
  if (!row) throw new HttpProblem(404, RUN_NOT_FOUND.title, RUN_NOT_FOUND.detail);
  return toRun({ ...row.run, requester: row.requester }, now);
}
