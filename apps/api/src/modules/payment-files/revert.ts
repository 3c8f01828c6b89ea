import { and, desc, eq, sql } from 'drizzle-orm';
import { addDays, type AllocationResult } from '@portal/lending';
import type { LaterPayments, PaymentFile } from '@portal/contract';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { paymentFiles, payments } from '../../db/schema/payments';
import { HttpProblem } from '../../http/errors';
import { recordAudit, type Actor } from '../audit/audit';
import { lockCompanyPortfolio } from '../day-close/company-lock';
import { refreshCredits } from '../day-close/close-day';
import { refreshPortfolioFigures } from '../day-close/portfolio-figures';
import { businessDateOf } from '../shared/business-date';
import { creditFolio } from '../shared/folios';
import { longDate } from '../shared/es-mx';
import { json, lateChargesWaived, restoreScheduleRows, type PaymentBefore } from './apply';
import { loadPaymentFile, summarize } from './payment-files.queries';

const BATCH = 2_000;
/** How many later payments a refusal names. */
const NAMED = 3;

/**
 * The later payments standing on an applied file's credits, first by folio: what a revert of the file waits for (a
 * file not applied has none). 404 for a file not visible to the user.
 */
export async function laterPayments(tx: Tx, fileId: string): Promise<LaterPayments> {
  const [file] = await tx.select({ status: paymentFiles.status }).from(paymentFiles).where(eq(paymentFiles.id, fileId));
  if (!file) throw new HttpProblem(404, 'Archivo no encontrado', 'El archivo no existe o no es de tu empresa.');
  if (file.status !== 'aplicado') return { payments: [], more: false, refusedAsPaidOff: [] };
  const rows = rowsOf<{ credit_id: string; number: string; file_id: string | null; file_name: string | null; value_date: string }>(
    await tx.execute(sql`
      select c.id as credit_id, c.number, p2.file_id, f.file_name, p2.value_date::text as value_date
      from payments p
      join payments p2 on p2.credit_id = p.credit_id and p2.sequence > p.sequence and p2.status = 'aplicado'
      join credits c on c.id = p.credit_id
      left join payment_files f on f.id = p2.file_id
      where p.file_id = ${fileId} and p.status = 'aplicado'
      order by c.number, p2.sequence limit ${NAMED + 1}`),
  );
  return {
    payments: rows.slice(0, NAMED).map((row) => ({
      creditId: row.credit_id,
      creditFolio: creditFolio(Number(row.number)),
      fileId: row.file_id,
      fileName: row.file_name,
      valueDate: row.value_date,
    })),
    more: rows.length > NAMED,
    refusedAsPaidOff: await refusedAsPaidOff(tx, fileId),
  };
}

/**
 * The files still standing (validado or aplicado) that refused a row as crédito liquidado for a credit this file's
 * payment left liquidado, at or after that payment: once the file is reverted the credit owes again and that row's money
 * stays unapplied unless it is loaded again.
 */
async function refusedAsPaidOff(tx: Tx, fileId: string): Promise<LaterPayments['refusedAsPaidOff']> {
  const rows = rowsOf<{ file_id: string; file_name: string; rows: number }>(
    await tx.execute(sql`
      select f.id as file_id, f.file_name, count(*)::int as rows
      from payments p
      join credits c on c.id = p.credit_id and c.status = 'liquidado'
      join payment_file_rows r on r.credit_id = p.credit_id and r.outcome = 'crédito liquidado' and r.file_id <> p.file_id
      join payment_files f on f.id = r.file_id and f.status in ('validado', 'aplicado') and coalesce(f.applied_at, f.uploaded_at) >= p.applied_at
      where p.file_id = ${fileId} and p.status = 'aplicado'
      group by f.id, f.file_name, f.uploaded_at
      order by f.uploaded_at`),
  );
  return rows.map((row) => ({ fileId: row.file_id, fileName: row.file_name, rows: row.rows }));
}

/** "CR-00000001 (archivo nomina.csv, 15 de noviembre de 2026); …", and that there are more. */
const laterPaymentsNamed = ({ payments: later, more }: LaterPayments) =>
  later.map((row) => `${row.creditFolio} (${row.fileName ? `archivo ${row.fileName}` : 'pago manual'}, ${longDate(row.valueDate)})`).join('; ') + (more ? ' y otros' : '');

/**
 * "Revertir": undoes an applied file as a whole (DOMAIN.md Algorithm 2, "Reverting a payment"): every touched credit
 * gets back exactly what its payment changed — schedule rows, installment, deduction state, saldo a favor — and its
 * status follows (liquidado returns to vigente or vencido). Refused while a later payment on one of its credits
 * stands: that one was allocated on top of this one, so it is reverted first. One transaction, under the company's
 * portfolio lock, audited with the reason.
 */
export async function revertPaymentFile(tx: Tx, actor: Actor, fileId: string, reason: string, today: string, now: Date): Promise<PaymentFile> {
  const [visible] = await tx.select({ companyId: paymentFiles.companyId, status: paymentFiles.status }).from(paymentFiles).where(eq(paymentFiles.id, fileId));
  if (!visible) throw new HttpProblem(404, 'Archivo no encontrado', 'El archivo no existe o no es de tu empresa.');
  const notApplied = (status: string) => new HttpProblem(409, 'El archivo no se puede revertir', `El archivo está ${status}: solo se revierte un archivo aplicado.`);
  // Before any lock: an application holds a validado file's row while it waits for the company's lock (apply.ts), which
  // this takes first; a revert of a file not applied must not wait in between.
  if (visible.status !== 'aplicado') throw notApplied(visible.status);
  const companyId = visible.companyId;
  await lockCompanyPortfolio(tx, companyId);
  const [file] = await tx.select().from(paymentFiles).where(eq(paymentFiles.id, fileId)).for('update');
  if (file!.status !== 'aplicado') throw notApplied(file!.status);

  const later = await laterPayments(tx, fileId);
  if (later.payments.length > 0) throw new HttpProblem(409, 'Hay pagos posteriores', `Revierte primero los pagos posteriores sobre los mismos créditos: ${laterPaymentsNamed(later)}.`);

  const businessDate = await businessDateOf(tx, companyId, today);
  const closedDay = addDays(businessDate, -1);
  let reverted = 0;
  const creditIds: string[] = [];
  for (;;) {
    const batch = await tx
      .select({ id: payments.id, creditId: payments.creditId, overpayment: payments.overpayment, before: payments.before, allocation: payments.allocation })
      .from(payments)
      .where(and(eq(payments.fileId, fileId), eq(payments.status, 'aplicado')))
      .orderBy(desc(payments.sequence))
      .limit(BATCH);
    if (batch.length === 0) break;
    const befores = batch.map((payment) => ({ ...payment, before: payment.before as PaymentBefore }));
    await restoreScheduleRows(
      tx,
      companyId,
      closedDay,
      befores.flatMap((payment) => {
        const waived = lateChargesWaived((payment.allocation as Pick<AllocationResult, 'waived'>).waived);
        return payment.before.rows.map((row) => ({ ...row, waived: waived.get(row.number) ?? {} }));
      }),
    );
    const deductions = befores.filter((payment) => payment.before.deduction).map((payment) => ({ credit_id: payment.creditId, ...payment.before.deduction! }));
    if (deductions.length > 0) {
      await tx.execute(sql`
        update expected_deductions e set state = x.state
        from json_to_recordset(${json(deductions)}) as x(credit_id uuid, period int, state text)
        where e.company_id = ${companyId} and e.credit_id = x.credit_id and e.period = x.period`);
    }
    await tx.execute(sql`
      update credits c set installment = x.installment, credit_balance = c.credit_balance - x.overpayment
      from json_to_recordset(${json(befores.map((payment) => ({ id: payment.creditId, installment: payment.before.installment, overpayment: payment.overpayment })))})
        as x(id uuid, installment numeric, overpayment numeric)
      where c.company_id = ${companyId} and c.id = x.id`);
    await tx.execute(sql`
      update payments set status = 'revertido', reverted_at = ${now.toISOString()}
      where id in (select value::uuid from json_array_elements_text(${JSON.stringify(batch.map((payment) => payment.id))}::json))`);
    reverted += batch.length;
    creditIds.push(...batch.map((payment) => payment.creditId));
  }

  await refreshCredits(tx, companyId, closedDay, creditIds);
  await refreshPortfolioFigures(tx, companyId, businessDate, now);
  await tx
    .update(paymentFiles)
    .set({ status: 'revertido', statusReason: reason, revertedBy: actor.principal.userId, revertedAt: now })
    .where(eq(paymentFiles.id, fileId));
  await summarize(tx, fileId, file!.agreementId, file!.discountDate);
  await recordAudit(tx, actor, {
    action: 'payment-file.revert',
    entity: 'payment_file',
    entityId: fileId,
    before: { status: 'aplicado', amountApplied: file!.amountApplied },
    after: { status: 'revertido', reason, paymentsReverted: reverted },
    occurredAt: now,
  });
  return loadPaymentFile(tx, fileId);
}
