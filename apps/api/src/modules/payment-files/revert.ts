import { and, desc, eq, sql } from 'drizzle-orm';
import type { AllocationResult } from '@portal/lending';
import type { LaterPayments, PaymentFile } from '@portal/contract';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { paymentFiles, payments } from '../../db/schema/payments';
import { jsonParam } from '../../db/array-param';
import { HttpProblem } from '../../http/errors';
import { recordAudit, type Actor } from '../audit/audit';
import { changePortfolio } from '../portfolio/change-portfolio';
import { lateChargesWaived, restoreScheduleRows } from '../portfolio/schedule-rows';
import { creditFolio } from '../shared/folios';
import { longDate } from '../shared/es-mx';
import type { PaymentBefore } from './apply';
import { loadPaymentFile, summarize } from './payment-files.queries';

const BATCH = 2_000;
/** How many later files a refusal and the check name. */
const NAMED = 3;

/**
 * What a revert of the file waits for and what it would leave behind (the check "Revertir" makes before the reason is
 * typed): the later files standing on its credits, and the later files that refused rows for the credits it paid off.
 * A file not applied has neither; 404 for a file not visible to the user.
 */
export async function revertCheck(tx: Tx, fileId: string): Promise<LaterPayments> {
  const [file] = await tx.select({ status: paymentFiles.status }).from(paymentFiles).where(eq(paymentFiles.id, fileId));
  if (!file) throw new HttpProblem(404, 'Archivo no encontrado', 'El archivo no existe o no es de tu empresa.');
  if (file.status !== 'aplicado') return { payments: [], total: 0, refusedAsPaidOff: [] };
  return { ...(await laterPayments(tx, fileId)), refusedAsPaidOff: await refusedAsPaidOff(tx, fileId) };
}

/**
 * The later payments standing on the file's credits, by the file that made them (a payment without a file, alone), the
 * newest first: the order they are reverted in. Each names how many of the file's credits it paid again and the first
 * of them by folio. The later payments are found from the file's own payments (materialized: ordered by folio, the
 * planner walked every credit of the company, 11 s on a million, when none was found).
 */
async function laterPayments(tx: Tx, fileId: string): Promise<Omit<LaterPayments, 'refusedAsPaidOff'>> {
  const rows = rowsOf<{
    file_id: string | null;
    file_name: string | null;
    value_date: string;
    credits: number;
    credit_id: string;
    number: string;
    total: number;
  }>(
    await tx.execute(sql`
      with later as materialized (
        select p2.id, p2.credit_id, p2.file_id, p2.value_date, p2.sequence
        from payments p join payments p2 on p2.credit_id = p.credit_id and p2.sequence > p.sequence and p2.status = 'aplicado'
        where p.file_id = ${fileId} and p.status = 'aplicado'
      )
      select l.file_id, f.file_name, max(l.value_date)::text as value_date, count(distinct l.credit_id)::int as credits,
             (array_agg(c.id order by c.number))[1] as credit_id, min(c.number) as number, (count(*) over ())::int as total
      from later l join credits c on c.id = l.credit_id left join payment_files f on f.id = l.file_id
      group by coalesce(l.file_id, l.id), l.file_id, f.file_name
      order by max(l.sequence) desc
      limit ${NAMED}`),
  );
  return {
    payments: rows.map((row) => ({
      fileId: row.file_id,
      fileName: row.file_name,
      valueDate: row.value_date,
      credits: row.credits,
      creditId: row.credit_id,
      creditFolio: creditFolio(Number(row.number)),
    })),
    total: rows[0]?.total ?? 0,
  };
}

/**
 * The credits whose saldo a favor no longer holds the sobrepago this file's payments left (a refund took it, through
 * Tesorería): reverting would take the client's money twice. Named by folio, the first few.
 */
async function sobrepagosRefunded(tx: Tx, fileId: string): Promise<string[]> {
  const rows = rowsOf<{ number: string }>(
    await tx.execute(sql`
      select min(c.number) as number
      from payments p join credits c on c.id = p.credit_id
      where p.file_id = ${fileId} and p.status = 'aplicado' and p.overpayment > 0
      group by c.id, c.credit_balance
      having c.credit_balance < sum(p.overpayment)
      order by min(c.number)
      limit ${NAMED}`),
  );
  return rows.map((row) => creditFolio(Number(row.number)));
}

/**
 * The files still standing (validado or aplicado) that refused a row as crédito liquidado for a credit this file paid
 * off (liquidado, with no payment after this file's), at or after that payment: once the file is reverted the credit
 * owes again and that row's money stays unapplied unless it is loaded again.
 */
async function refusedAsPaidOff(tx: Tx, fileId: string): Promise<LaterPayments['refusedAsPaidOff']> {
  const rows = rowsOf<{ file_id: string; file_name: string; rows: number; amount: string; number: string }>(
    await tx.execute(sql`
      select f.id as file_id, f.file_name, count(*)::int as rows, coalesce(sum(r.amount), 0)::text as amount, min(c.number) as number
      from payments p
      join credits c on c.id = p.credit_id and c.status = 'liquidado'
      join payment_file_rows r on r.credit_id = p.credit_id and r.outcome = 'crédito liquidado' and r.file_id <> p.file_id
      join payment_files f on f.id = r.file_id and f.status in ('validado', 'aplicado') and coalesce(f.applied_at, f.uploaded_at) >= p.applied_at
      where p.file_id = ${fileId} and p.status = 'aplicado'
        and not exists (select 1 from payments p2 where p2.credit_id = p.credit_id and p2.sequence > p.sequence and p2.status = 'aplicado')
      group by f.id, f.file_name, f.uploaded_at
      order by f.uploaded_at`),
  );
  return rows.map((row) => ({
    fileId: row.file_id,
    fileName: row.file_name,
    rows: row.rows,
    amount: row.amount,
    creditFolio: creditFolio(Number(row.number)),
  }));
}

/** "archivo nomina.csv (30 de noviembre de 2026; 2 créditos, entre ellos CR-00000001); …", and how many more. */
const laterPaymentsNamed = ({ payments: later, total }: Omit<LaterPayments, 'refusedAsPaidOff'>) =>
  later
    .map((row) => {
      const credits =
        row.credits === 1
          ? `crédito ${row.creditFolio}`
          : `${row.credits.toLocaleString('es-MX')} créditos, entre ellos ${row.creditFolio}`;
      return `${row.fileName ? `archivo ${row.fileName}` : 'pago sin archivo'} (${longDate(row.valueDate)}; ${credits})`;
    })
    .join('; ') + (total > later.length ? ` y ${total - later.length === 1 ? 'otro' : `${total - later.length} más`}` : '');

/**
 * "Revertir": undoes an applied file as a whole (DOMAIN.md Algorithm 2, "Reverting a payment"): every touched credit
 * gets back exactly what its payment changed — schedule rows, installment, deduction state, saldo a favor — and its
 * status follows (liquidado returns to vigente or vencido). Refused while a later payment on one of its credits
 * stands: that one was allocated on top of this one, so it is reverted first. One transaction, under the company's
 * portfolio lock, audited with the reason.
 */
export async function revertPaymentFile(
  tx: Tx,
  actor: Actor,
  fileId: string,
  reason: string,
  today: string,
  now: Date,
): Promise<PaymentFile> {
  const [visible] = await tx
    .select({ companyId: paymentFiles.companyId, status: paymentFiles.status })
    .from(paymentFiles)
    .where(eq(paymentFiles.id, fileId));
  if (!visible) throw new HttpProblem(404, 'Archivo no encontrado', 'El archivo no existe o no es de tu empresa.');
  const notApplied = (status: string) =>
    new HttpProblem(409, 'El archivo no se puede revertir', `El archivo está ${status}: solo se revierte un archivo aplicado.`);
  // Before any lock: an application holds a validado file's row while it waits for the company's lock (apply.ts), which
  // this takes first; a revert of a file not applied must not wait in between.
  if (visible.status !== 'aplicado') throw notApplied(visible.status);
  const companyId = visible.companyId;
  // Through the portfolio's door: its lock, the business date under it; the touched credits aged and the company's
  // figures kept once every payment is put back.
  const { file, reverted } = await changePortfolio(tx, companyId, { today, now }, async (change) => {
    const [file] = await tx.select().from(paymentFiles).where(eq(paymentFiles.id, fileId)).for('update');
    if (file!.status !== 'aplicado') throw notApplied(file!.status);

    const later = await laterPayments(tx, fileId);
    if (later.payments.length > 0) {
      throw new HttpProblem(
        409,
        'Hay pagos posteriores',
        `Revierte primero los pagos posteriores sobre los mismos créditos, del más reciente al más antiguo: ${laterPaymentsNamed(later)}.`,
      );
    }

    const refunded = await sobrepagosRefunded(tx, fileId);
    if (refunded.length > 0) {
      throw new HttpProblem(
        409,
        'Saldo a favor ya devuelto',
        `El saldo a favor que dejó este archivo ya se devolvió (o está en un lote autorizado): ${refunded.join(', ')}. Revertir dejaría el saldo a favor en negativo; registra primero el rechazo de la devolución en Tesorería.`,
      );
    }

    const { closedDay } = change;
    let reverted = 0;
    const creditIds: string[] = [];
    for (;;) {
      const batch = await tx
        .select({
          id: payments.id,
          creditId: payments.creditId,
          overpayment: payments.overpayment,
          before: payments.before,
          allocation: payments.allocation,
        })
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
      const deductions = befores
        .filter((payment) => payment.before.deduction)
        .map((payment) => ({ credit_id: payment.creditId, ...payment.before.deduction! }));
      if (deductions.length > 0) {
        await tx.execute(sql`
          update expected_deductions e set state = x.state
          from json_to_recordset(${jsonParam(deductions)}) as x(credit_id uuid, period int, state text)
          where e.company_id = ${companyId} and e.credit_id = x.credit_id and e.period = x.period`);
      }
      await tx.execute(sql`
        update credits c set installment = x.installment, credit_balance = c.credit_balance - x.overpayment
        from json_to_recordset(${jsonParam(befores.map((payment) => ({ id: payment.creditId, installment: payment.before.installment, overpayment: payment.overpayment })))})
          as x(id uuid, installment numeric, overpayment numeric)
        where c.company_id = ${companyId} and c.id = x.id`);
      await tx.execute(sql`
        update payments set status = 'revertido', reverted_at = ${now.toISOString()}
        where id in (select value::uuid from json_array_elements_text(${JSON.stringify(batch.map((payment) => payment.id))}::json))`);
      reverted += batch.length;
      creditIds.push(...batch.map((payment) => payment.creditId));
    }

    change.touch(creditIds);
    return { file: file!, reverted };
  });
  await tx
    .update(paymentFiles)
    .set({ status: 'revertido', statusReason: reason, revertedBy: actor.principal.userId, revertedAt: now })
    .where(eq(paymentFiles.id, fileId));
  await summarize(tx, fileId, file.agreementId, file.discountDate);
  await recordAudit(tx, actor, {
    action: 'payment-file.revert',
    entity: 'payment_file',
    entityId: fileId,
    before: { status: 'aplicado', amountApplied: file.amountApplied },
    after: { status: 'revertido', reason, paymentsReverted: reverted },
    occurredAt: now,
  });
  return loadPaymentFile(tx, fileId);
}
