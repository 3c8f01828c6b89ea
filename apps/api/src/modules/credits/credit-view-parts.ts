import { desc, eq, sql, type SQLWrapper } from 'drizzle-orm';
import type { CreditPayment, LabelHistoryEntry } from '@portal/contract';
import { jsonList, type JsonPart } from '../../db/json-list';
import { creditLabelEvents, labelJobs } from '../../db/schema/labels';
import { settlementLetters } from '../../db/schema/letters';
import { paymentFiles, payments } from '../../db/schema/payments';
import { linesOf, splitColumns, splitOf } from '../shared/payment-split';

/**
 * What the credit view and its tabs read of other areas' tables with the credit (db/json-list.ts): its payments, its label
 * history and the counts on the tabs, each a column of the outer select that holds the credit's id. Read from their tables
 * here, so the credit view imports no other area's folder (docs/architecture.md, import zones).
 */

/** A credit's payments, newest first, each with its file and line (or manual), split and waterfall: the Pagos tab. */
export const paymentsOf = (creditId: SQLWrapper): JsonPart<CreditPayment[]> =>
  jsonList(
    {
      id: payments.id,
      valueDate: payments.valueDate,
      amount: payments.amount,
      fileId: payments.fileId,
      fileLine: payments.fileLine,
      fileName: paymentFiles.fileName,
      status: payments.status,
      appliedAt: payments.appliedAt,
      allocation: payments.allocation,
      ...splitColumns,
    },
    {
      from: sql`from ${payments} left join ${paymentFiles} on ${paymentFiles.id} = ${payments.fileId}`,
      where: eq(payments.creditId, creditId),
      orderBy: [desc(payments.sequence)],
    },
    (payment) => ({
      id: payment.id,
      valueDate: payment.valueDate,
      amount: payment.amount,
      source: payment.fileName ? `Archivo ${payment.fileName}, línea ${payment.fileLine}` : 'Pago manual',
      fileId: payment.fileId,
      status: payment.status,
      appliedAt: payment.appliedAt.toISOString(),
      split: splitOf(payment),
      allocation: linesOf(payment.allocation),
    }),
  );

/*
 * The counts are the length of an array of the rows (`cardinality(array(select 1 …))`) rather than `count(*)`: the same
 * number without an Aggregate node for PostgreSQL to set up at each execution (docs/production-figures.md, issue 52, stop 67).
 */

/** How many payments the credit has (the Pagos tab's count), read through payments_credit_idx. */
export const paymentCountOf = (creditId: SQLWrapper) =>
  sql<number>`cardinality(array(select 1 from ${payments} where ${payments.creditId} = ${creditId}))`;

/** How many settlement letters the credit has (the Cartas tab's count), read through settlement_letters_credit_idx. */
export const letterCountOf = (companyId: SQLWrapper, creditId: SQLWrapper) =>
  sql<number>`cardinality(array(select 1 from ${settlementLetters} where ${settlementLetters.companyId} = ${companyId} and ${settlementLetters.creditId} = ${creditId}))`;

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
