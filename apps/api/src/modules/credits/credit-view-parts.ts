import { desc, eq, sql, type SQLWrapper } from 'drizzle-orm';
import type { Credit, LabelHistoryEntry, LetterSummary } from '@portal/contract';
import { jsonList, type JsonPart } from '../../db/json-list';
import { creditLabelEvents, labelJobs } from '../../db/schema/labels';
import { settlementLetters } from '../../db/schema/letters';
import { paymentFiles, payments } from '../../db/schema/payments';
import { LETTER_ORDER, summaryColumns, toLetterSummary } from '../shared/letter-summary';
import { linesOf, splitColumns, splitOf } from '../shared/payment-split';

/**
 * The lists the credit view reads with the credit in its one statement (db/json-list.ts): its payments, its letters and
 * its label history, each a column of the outer select that holds the credit's id. Read from their tables here, so the
 * credit view imports no other area's folder (docs/architecture.md, import zones).
 */

/**
 * A credit's payments, newest first, each with its file and line (or manual), split and waterfall: a part of the credit
 * view's one statement (db/json-list.ts), not a round trip of its own.
 */
export const paymentsOf = (creditId: SQLWrapper): JsonPart<Credit['payments']> =>
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

/** The same letters as a column of an outer select that holds the credit's id (db/json-list.ts): the credit view. */
export const lettersOf = (creditId: SQLWrapper): JsonPart<LetterSummary[]> =>
  jsonList(
    summaryColumns,
    { from: sql`from ${settlementLetters}`, where: eq(settlementLetters.creditId, creditId), orderBy: LETTER_ORDER },
    toLetterSummary,
  );

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
