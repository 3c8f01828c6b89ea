import { and, asc, desc, eq } from 'drizzle-orm';
import type { Label, LabelHistoryEntry } from '@portal/contract';
import type { Tx } from '../../db/client';
import { creditLabelEvents, labelJobs, labels } from '../../db/schema/labels';
import { companies } from '../../db/schema/users';

/** The label catalogue the scope sees (the user's company; every company's for SA), by company and name. */
export const labelCatalogue = (tx: Tx): Promise<Label[]> =>
  tx
    .select({ id: labels.id, companyId: labels.companyId, company: companies.name, name: labels.name, color: labels.color })
    .from(labels)
    .innerJoin(companies, eq(companies.id, labels.companyId))
    .orderBy(asc(companies.name), asc(labels.name));

/** A credit's label history, newest first, with the job each change came from. */
export async function creditLabelHistory(tx: Tx, creditId: string): Promise<LabelHistoryEntry[]> {
  const rows = await tx
    .select({ event: creditLabelEvents, source: labelJobs.source, fileName: labelJobs.fileName })
    .from(creditLabelEvents)
    .innerJoin(labelJobs, and(eq(labelJobs.companyId, creditLabelEvents.companyId), eq(labelJobs.id, creditLabelEvents.jobId)))
    .where(eq(creditLabelEvents.creditId, creditId))
    .orderBy(desc(creditLabelEvents.occurredAt), desc(creditLabelEvents.id));
  return rows.map(({ event, source, fileName }) => ({
    id: event.id,
    label: event.label,
    action: event.action,
    actorEmail: event.actorEmail,
    occurredAt: event.occurredAt.toISOString(),
    jobId: event.jobId,
    source,
    fileName,
  }));
}
