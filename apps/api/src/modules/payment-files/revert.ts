import { and, desc, eq, sql } from 'drizzle-orm';
import { addDays, type AllocationResult } from '@portal/lending';
import type { PaymentFile } from '@portal/contract';
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

  const later = rowsOf<{ number: string; file_name: string | null; value_date: string }>(
    await tx.execute(sql`
      select c.number, f.file_name, p2.value_date::text as value_date
      from payments p
      join payments p2 on p2.credit_id = p.credit_id and p2.sequence > p.sequence and p2.status = 'aplicado'
      join credits c on c.id = p.credit_id
      left join payment_files f on f.id = p2.file_id
      where p.file_id = ${fileId} and p.status = 'aplicado'
      order by c.number limit 3`),
  );
  if (later.length > 0) {
    const named = later.map((row) => `${creditFolio(Number(row.number))} (${row.file_name ? `archivo ${row.file_name}` : 'pago manual'}, ${longDate(row.value_date)})`).join('; ');
    throw new HttpProblem(409, 'Hay pagos posteriores', `Revierte primero los pagos posteriores sobre los mismos créditos: ${named}.`);
  }

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
