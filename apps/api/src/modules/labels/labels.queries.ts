import { asc, desc, eq, sql, type SQLWrapper } from 'drizzle-orm';
import type { Label, LabelHistoryEntry } from '@portal/contract';
import type { Tx } from '../../db/client';
import { jsonList, type JsonPart } from '../../db/json-list';
import { creditLabelEvents, labelJobs, labels } from '../../db/schema/labels';
import { companies } from '../../db/schema/users';

/** The label catalogue the scope sees (the user's company; every company's for SA), by company and name. */
export const labelCatalogue = (tx: Tx): Promise<Label[]> =>
  tx
    .select({ id: labels.id, companyId: labels.companyId, company: companies.name, name: labels.name, color: labels.color })
    .from(labels)
    .innerJoin(companies, eq(companies.id, labels.companyId))
    .orderBy(asc(companies.name), asc(labels.name));

/**
 * A credit's label history, newest first, with the job each change came from: a column of an outer select that holds
 * the credit's id (db/json-list.ts; the credit view reads it with the credit).
 */
export const labelHistoryOf = (creditId: SQLWrapper): JsonPart<LabelHistoryEntry[]> =>
  jsonList(
    {
      id: creditLabelEvents.id,
      label: creditLabelEvents.label,
      action: creditLabelEvents.action,
      actorEmail: creditLabelEvents.actorEmail,
      occurredAt: creditLabelEvents.occurredAt,
      jobId: creditLabelEvents.jobId,
      source: labelJobs.source,
      fileName: labelJobs.fileName,
    },
    {
      from: sql`from ${creditLabelEvents} inner join ${labelJobs} on (${labelJobs.companyId} = ${creditLabelEvents.companyId} and ${labelJobs.id} = ${creditLabelEvents.jobId})`,
      where: eq(creditLabelEvents.creditId, creditId),
      orderBy: [desc(creditLabelEvents.occurredAt), desc(creditLabelEvents.id)],
    },
    (row) => ({ ...row, occurredAt: row.occurredAt.toISOString() }),
  );
