import { and, eq, inArray, sql } from 'drizzle-orm';
import { checkClabe, formatCents, parseCents } from '@portal/lending';
import type { DecideRefundBody, PaymentBatch, PaymentLineResultInput, Refund, RequestRefundBody } from '@portal/contract';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { credits } from '../../db/schema/credits';
import { paymentBatches, paymentBatchLines, paymentOrders, refunds } from '../../db/schema/treasury';
import { HttpProblem } from '../../http/errors';
import { recordAudit, type Actor } from '../audit/audit';
import { changePortfolio } from '../portfolio/change-portfolio';
import { creditPayee, orderConcept, orderReference } from '../portfolio/payment-orders';
import { startCreditOnLiquidation } from '../portfolio/disbursement-start';
import { mexicoToday } from '../shared/business-date';
import { creditFolio } from '../shared/folios';
import { AnswerFileError, parseAnswer, type AnswerLine } from './bank-layout';
import { loadBatch, loadRefund } from './treasury.queries';

/**
 * Tesorería's rules (issue 47; docs/domain.md "Tesorería"; decision 0029):
 * - Generar lote picks the company's orders por enviar once: FOR UPDATE SKIP LOCKED, and a unique index on an order's
 *   open line (two generations at once never hold the same order);
 * - Autorizar is another person than who generated (two-person rule); it commits the money: a refund lowers the
 *   credit's saldo a favor here, through the portfolio door, and never below zero;
 * - Registrar resultado: liquidada settles the order (a refund is pagada; a disbursement that had been rejected starts
 *   its credit at the date the money left); rechazada returns the order to por enviar with its reason and gives a
 *   refund's amount back to the saldo a favor.
 */

type Clock = { now: Date; today: string };

const cents = (value: string) => parseCents(value, 'importe');

/** "T" + the batch's number (8) + the line (6): unique, alphanumeric, within SPEI's 30 characters. */
export const trackingKey = (batchNumber: number, line: number) =>
  `T${String(batchNumber).padStart(8, '0')}${String(line).padStart(6, '0')}`;

export async function generateBatch(tx: Tx, actor: Actor, input: Clock & { sourceAccount: string }): Promise<PaymentBatch> {
  const source = checkClabe(input.sourceAccount);
  if (!source.ok)
    throw new HttpProblem(422, 'Cuenta de origen no válida', source.message, [{ field: 'sourceAccount', message: source.message }]);
  const companyId = actor.principal.companyId;
  const [batch] = await tx
    .insert(paymentBatches)
    .values({
      companyId,
      sourceAccount: input.sourceAccount,
      orderCount: 0,
      total: '0',
      generatedBy: actor.principal.userId,
      generatedAt: input.now,
    })
    .returning({ id: paymentBatches.id, number: paymentBatches.number });
  // Each pending order once: rows another generation holds are skipped, not waited on nor taken twice.
  const picked = rowsOf<{ id: string; amount: string; number: number }>(
    await tx.execute(sql`
      with picked as (
        select id from payment_orders
        where company_id = ${companyId} and status = 'por enviar'
        order by number
        for update skip locked
      )
      update payment_orders o set status = 'en lote', batch_id = ${batch!.id}
      from picked where o.id = picked.id
      returning o.id, o.amount, o.number::int as number`),
  ).sort((a, b) => a.number - b.number);
  if (picked.length === 0) {
    throw new HttpProblem(409, 'Nada por enviar', 'No hay órdenes de pago por enviar; el lote no se generó.');
  }
  await tx.execute(sql`
    insert into payment_batch_lines (batch_id, order_id, company_id, line, tracking_key, beneficiary, beneficiary_id, clabe, amount, concept, reference)
    select ${batch!.id}, o.id, o.company_id, l.line, 'T' || lpad(${String(batch!.number)}::text, 8, '0') || lpad(l.line::text, 6, '0'),
           o.beneficiary, o.beneficiary_id, o.clabe, o.amount, o.concept, o.reference
    from json_array_elements_text(${JSON.stringify(picked.map((row) => row.id))}::json) with ordinality as l(id, line)
    join payment_orders o on o.id = l.id::uuid`);
  const total = formatCents(picked.reduce((sum, row) => sum + cents(row.amount), 0n));
  await tx.update(paymentBatches).set({ orderCount: picked.length, total }).where(eq(paymentBatches.id, batch!.id));
  await recordAudit(tx, actor, {
    action: 'payment-batch.generate',
    entity: 'payment-batch',
    entityId: batch!.id,
    after: { status: 'por autorizar', orders: picked.map((row) => row.id), total, sourceAccount: input.sourceAccount },
    occurredAt: input.now,
  });
  return loadBatch(tx, batch!.id);
}

async function lockBatch(tx: Tx, id: string) {
  const [batch] = await tx.select().from(paymentBatches).where(eq(paymentBatches.id, id)).for('update');
  if (!batch) throw new HttpProblem(404, 'Lote no encontrado', 'El lote no existe o no es de tu empresa.');
  return batch;
}

interface LineRow {
  order_id: string;
  line: number;
  tracking_key: string;
  amount: string;
  result: string;
  kind: 'dispersión' | 'devolución';
  credit_id: string;
  refund_id: string | null;
  rejections: number;
}

const batchLines = async (tx: Tx, batchId: string) =>
  rowsOf<LineRow>(
    await tx.execute(sql`
      select l.order_id, l.line, l.tracking_key, l.amount, l.result, o.kind, o.credit_id, o.refund_id, o.rejections
      from payment_batch_lines l join payment_orders o on o.id = l.order_id
      where l.batch_id = ${batchId} order by l.line`),
  );

/**
 * Lowers (or, with a negative amount, restores) credits' saldo a favor through the portfolio door, move by move in the
 * order given: a move the balance no longer covers is left out and handed to `onShort` (itself, not its credit: two
 * refunds of one credit may share a batch, and only the one that does not fit is the one to cancel).
 */
async function moveCreditBalances<Move extends { creditId: string; amount: bigint }>(
  tx: Tx,
  companyId: string,
  clock: Clock,
  moves: Move[],
  onShort: (move: Move, balance: string) => Promise<void>,
): Promise<void> {
  if (moves.length === 0) return;
  await changePortfolio(tx, companyId, { today: clock.today, now: clock.now, figures: false }, async (change) => {
    for (const move of moves) {
      const [credit] = await tx
        .select({ creditBalance: credits.creditBalance })
        .from(credits)
        .where(eq(credits.id, move.creditId))
        .for('update');
      const balance = cents(credit!.creditBalance);
      if (balance - move.amount < 0n) {
        await onShort(move, credit!.creditBalance);
        continue;
      }
      await tx
        .update(credits)
        .set({ creditBalance: formatCents(balance - move.amount) })
        .where(eq(credits.id, move.creditId));
    }
    change.touch(moves.map((move) => move.creditId));
  });
}

export async function authorizeBatch(tx: Tx, actor: Actor, input: Clock & { id: string }): Promise<PaymentBatch> {
  const batch = await lockBatch(tx, input.id);
  if (batch.status !== 'por autorizar') {
    throw new HttpProblem(409, 'Lote ya autorizado', `El lote ya está ${batch.status}; no se autoriza dos veces.`);
  }
  if (batch.generatedBy === actor.principal.userId) {
    throw new HttpProblem(
      409,
      'Se requiere otra persona',
      'Quien generó el lote no puede autorizarlo; debe hacerlo otra persona con el permiso de autorizar lotes.',
    );
  }
  const lines = await batchLines(tx, batch.id);
  const cancelled: string[] = [];
  // A refund leaves now: its amount comes off the saldo a favor, which it may never exceed. One that no longer fits
  // (a payment reverted since its approval) is cancelled here with its refund, and the batch goes without it.
  const refundLines = lines.filter((line) => line.kind === 'devolución');
  await moveCreditBalances(
    tx,
    batch.companyId,
    input,
    refundLines.map((line) => ({ line, creditId: line.credit_id, amount: cents(line.amount) })),
    async ({ line }, balance) => {
      cancelled.push(line.order_id);
      const reason = `Saldo a favor insuficiente al autorizar (${balance}); la devolución no sale.`;
      await tx
        .update(paymentBatchLines)
        .set({ result: 'rechazada', reason, resolvedBy: actor.principal.userId, resolvedAt: input.now })
        .where(and(eq(paymentBatchLines.batchId, batch.id), eq(paymentBatchLines.orderId, line.order_id)));
      await tx.update(paymentOrders).set({ status: 'cancelada', lastRejectionReason: reason }).where(eq(paymentOrders.id, line.order_id));
      await tx
        .update(refunds)
        .set({ status: 'declinada', declineReason: reason, decidedAt: input.now })
        .where(eq(refunds.id, line.refund_id!));
      await recordAudit(tx, actor, {
        action: 'refund.cancel',
        entity: 'refund',
        entityId: line.refund_id!,
        before: { status: 'aprobada' },
        after: { status: 'declinada', reason },
        occurredAt: input.now,
      });
    },
  );
  const sent = lines.filter((line) => !cancelled.includes(line.order_id)).map((line) => line.order_id);
  if (sent.length > 0) await tx.update(paymentOrders).set({ status: 'enviada' }).where(inArray(paymentOrders.id, sent));
  await tx
    .update(paymentBatches)
    .set({ status: sent.length > 0 ? 'autorizado' : 'cerrado', authorizedBy: actor.principal.userId, authorizedAt: input.now })
    .where(eq(paymentBatches.id, batch.id));
  await recordAudit(tx, actor, {
    action: 'payment-batch.authorize',
    entity: 'payment-batch',
    entityId: batch.id,
    before: { status: 'por autorizar' },
    after: { status: sent.length > 0 ? 'autorizado' : 'cerrado', sent: sent.length, cancelled },
    occurredAt: input.now,
  });
  return loadBatch(tx, batch.id);
}

export async function recordResults(
  tx: Tx,
  actor: Actor,
  input: Clock & { id: string; lines?: PaymentLineResultInput[]; answer?: string },
): Promise<{ batch: PaymentBatch; settled: number; rejected: number }> {
  const batch = await lockBatch(tx, input.id);
  if (batch.status !== 'autorizado') {
    throw new HttpProblem(
      409,
      batch.status === 'cerrado' ? 'Lote cerrado' : 'Lote sin autorizar',
      batch.status === 'cerrado'
        ? 'Todas las líneas del lote ya tienen resultado.'
        : 'El lote aún no se autoriza ni se envía al banco; no hay resultado que registrar.',
    );
  }
  let answers: AnswerLine[] = input.lines ?? [];
  if (input.answer && input.answer.trim()) {
    try {
      answers = [...answers, ...parseAnswer(input.answer)];
    } catch (error) {
      if (error instanceof AnswerFileError) throw new HttpProblem(422, 'Respuesta del banco no válida', error.message);
      throw error;
    }
  }
  const lines = await batchLines(tx, batch.id);
  const byKey = new Map(lines.map((line) => [line.tracking_key, line]));
  const seen = new Set<string>();
  const problems: string[] = [];
  // No money leaves before its batch is authorized: an earlier date would start a re-based credit before it was paid.
  const authorizedOn = mexicoToday(batch.authorizedAt!);
  for (const answer of answers) {
    const line = byKey.get(answer.trackingKey.toUpperCase());
    if (!line) problems.push(`La clave de rastreo ${answer.trackingKey} no es de este lote.`);
    else if (seen.has(line.tracking_key)) problems.push(`La clave de rastreo ${answer.trackingKey} viene dos veces.`);
    else if (line.result !== 'pendiente') problems.push(`La línea ${line.line} (${line.tracking_key}) ya tiene resultado: ${line.result}.`);
    else if (answer.settledOn && answer.settledOn > input.today) problems.push(`La fecha de ${answer.trackingKey} es posterior a hoy.`);
    else if (answer.settledOn && answer.settledOn < authorizedOn)
      problems.push(`La fecha de ${answer.trackingKey} es anterior a la autorización del lote (${authorizedOn}).`);
    if (line) seen.add(line.tracking_key);
  }
  if (problems.length > 0) throw new HttpProblem(422, 'Resultado no registrado', problems.slice(0, 20).join(' '));

  let settled = 0;
  let rejected = 0;
  const restore: { creditId: string; amount: bigint }[] = [];
  for (const answer of answers) {
    const line = byKey.get(answer.trackingKey.toUpperCase())!;
    const settledOn = answer.result === 'liquidada' ? (answer.settledOn ?? input.today) : null;
    await tx
      .update(paymentBatchLines)
      .set({ result: answer.result, reason: answer.reason ?? null, settledOn, resolvedBy: actor.principal.userId, resolvedAt: input.now })
      .where(and(eq(paymentBatchLines.batchId, batch.id), eq(paymentBatchLines.orderId, line.order_id)));
    if (answer.result === 'liquidada') {
      settled += 1;
      await tx.update(paymentOrders).set({ status: 'liquidada', settledOn }).where(eq(paymentOrders.id, line.order_id));
      if (line.refund_id) await tx.update(refunds).set({ status: 'pagada' }).where(eq(refunds.id, line.refund_id));
      // A disbursement the bank had rejected starts its credit at the date the money left (decision 0029).
      if (line.kind === 'dispersión' && line.rejections > 0) {
        const start = await startCreditOnLiquidation(tx, {
          companyId: batch.companyId,
          creditId: line.credit_id,
          settledOn: settledOn!,
          ...input,
        });
        await recordAudit(tx, actor, {
          action: start.rebased ? 'credit.start' : 'credit.start-kept',
          entity: 'credit',
          entityId: line.credit_id,
          ...(start.rebased ? { before: start.before, after: start.after } : { after: { reason: start.reason } }),
          occurredAt: input.now,
        });
      }
    } else {
      rejected += 1;
      await tx
        .update(paymentOrders)
        .set({
          status: 'por enviar',
          batchId: null,
          lastRejectionReason: answer.reason ?? null,
          rejections: sql`${paymentOrders.rejections} + 1`,
        })
        .where(eq(paymentOrders.id, line.order_id));
      if (line.kind === 'devolución') restore.push({ creditId: line.credit_id, amount: -cents(line.amount) });
    }
    await recordAudit(tx, actor, {
      action: `payment-order.${answer.result === 'liquidada' ? 'settle' : 'reject'}`,
      entity: 'payment-order',
      entityId: line.order_id,
      before: { status: 'enviada', batchId: batch.id, trackingKey: line.tracking_key },
      after: answer.result === 'liquidada' ? { status: 'liquidada', settledOn } : { status: 'por enviar', reason: answer.reason },
      occurredAt: input.now,
    });
  }
  // A rejected refund's money did not leave: its amount goes back to the saldo a favor.
  await moveCreditBalances(tx, batch.companyId, input, restore, async () => undefined);
  const open = lines.filter((line) => line.result === 'pendiente' && !seen.has(line.tracking_key)).length;
  if (open === 0) {
    await tx.update(paymentBatches).set({ status: 'cerrado' }).where(eq(paymentBatches.id, batch.id));
    await recordAudit(tx, actor, {
      action: 'payment-batch.close',
      entity: 'payment-batch',
      entityId: batch.id,
      before: { status: 'autorizado' },
      after: { status: 'cerrado' },
      occurredAt: input.now,
    });
  }
  return { batch: await loadBatch(tx, batch.id), settled, rejected };
}

// ------------------------------------------------------------------------------------------------------------ refunds

/**
 * What of a credit's saldo a favor is already spoken for and has not yet come off it: refunds solicitada, and refunds
 * aprobada whose order has not left (por enviar, en lote). Once its batch is authorized, a refund is off the balance.
 */
async function committedRefunds(tx: Tx, creditId: string, except: string | null, withRequested: boolean): Promise<bigint> {
  const [row] = rowsOf<{ total: string }>(
    await tx.execute(sql`
      select coalesce(sum(r.amount), 0)::text as total
      from refunds r left join payment_orders o on o.refund_id = r.id
      where r.credit_id = ${creditId} and (${except}::uuid is null or r.id <> ${except}::uuid)
        and ((r.status = 'solicitada' and ${withRequested}::boolean)
             or (r.status = 'aprobada' and o.status in ('por enviar', 'en lote')))`),
  );
  return cents(row!.total);
}

async function lockCredit(tx: Tx, creditId: string) {
  const [credit] = await tx
    .select({
      id: credits.id,
      companyId: credits.companyId,
      number: credits.number,
      creditBalance: credits.creditBalance,
      clabe: credits.clabe,
    })
    .from(credits)
    .where(eq(credits.id, creditId))
    .for('update');
  if (!credit) throw new HttpProblem(404, 'Crédito no encontrado', 'El crédito no existe o no es de tu empresa.');
  return credit;
}

const tooMuch = (folio: string, available: bigint) =>
  new HttpProblem(
    409,
    'Importe mayor al saldo a favor',
    `El crédito ${folio} tiene ${formatCents(available > 0n ? available : 0n)} de saldo a favor disponible para devolver; la devolución no puede ser mayor.`,
  );

export async function requestRefund(tx: Tx, actor: Actor, input: Clock & { body: RequestRefundBody }): Promise<Refund> {
  const { body } = input;
  const credit = await lockCredit(tx, body.creditId);
  const folio = creditFolio(credit.number);
  const amount = cents(body.amount);
  if (amount <= 0n) throw new HttpProblem(422, 'Importe no válido', 'El importe de la devolución debe ser mayor que cero.');
  let clabe = credit.clabe;
  if (body.clabeSource === 'nueva') {
    const check = checkClabe(body.clabe!);
    if (!check.ok) throw new HttpProblem(422, 'CLABE no válida', check.message, [{ field: 'clabe', message: check.message }]);
    clabe = body.clabe!;
  }
  const available = cents(credit.creditBalance) - (await committedRefunds(tx, credit.id, null, true));
  if (amount > available) throw tooMuch(folio, available);
  const [refund] = await tx
    .insert(refunds)
    .values({
      companyId: credit.companyId,
      creditId: credit.id,
      amount: body.amount,
      clabe,
      clabeSource: body.clabeSource,
      evidence: body.clabeSource === 'nueva' ? body.evidence! : null,
      requestedBy: actor.principal.userId,
      requestedAt: input.now,
    })
    .returning({ id: refunds.id });
  await recordAudit(tx, actor, {
    action: 'refund.request',
    entity: 'refund',
    entityId: refund!.id,
    after: { status: 'solicitada', creditId: credit.id, amount: body.amount, clabe, clabeSource: body.clabeSource },
    occurredAt: input.now,
  });
  return loadRefund(tx, refund!.id);
}

export async function decideRefund(tx: Tx, actor: Actor, input: Clock & { id: string; body: DecideRefundBody }): Promise<Refund> {
  const [current] = await tx.select().from(refunds).where(eq(refunds.id, input.id)).for('update');
  if (!current) throw new HttpProblem(404, 'Devolución no encontrada', 'La devolución no existe o no es de tu empresa.');
  if (current.status !== 'solicitada') {
    throw new HttpProblem(409, 'Devolución ya decidida', `La devolución ya está ${current.status}.`);
  }
  if (current.requestedBy === actor.principal.userId) {
    throw new HttpProblem(
      409,
      'Se requiere otra persona',
      'Quien solicitó la devolución no puede aprobarla ni declinarla; debe hacerlo otra persona con el permiso de aprobar devoluciones.',
    );
  }
  const credit = await lockCredit(tx, current.creditId);
  if (input.body.decision === 'declinar') {
    await tx
      .update(refunds)
      .set({ status: 'declinada', declineReason: input.body.reason!, decidedBy: actor.principal.userId, decidedAt: input.now })
      .where(eq(refunds.id, current.id));
    await recordAudit(tx, actor, {
      action: 'refund.decline',
      entity: 'refund',
      entityId: current.id,
      before: { status: 'solicitada' },
      after: { status: 'declinada', reason: input.body.reason },
      occurredAt: input.now,
    });
    return loadRefund(tx, current.id);
  }
  // At approval the refund fits in what the saldo a favor holds beyond the other approved refunds not yet sent.
  const available = cents(credit.creditBalance) - (await committedRefunds(tx, credit.id, current.id, false));
  if (cents(current.amount) > available) throw tooMuch(creditFolio(credit.number), available);
  const payee = await creditPayee(tx, credit.id);
  const [order] = await tx
    .insert(paymentOrders)
    .values({
      companyId: credit.companyId,
      kind: 'devolución',
      creditId: credit.id,
      refundId: current.id,
      beneficiary: payee!.beneficiary,
      beneficiaryId: payee!.beneficiary_id,
      clabe: current.clabe,
      amount: current.amount,
      concept: orderConcept('devolución', credit.number),
      reference: orderReference(credit.number),
      createdBy: actor.principal.userId,
      createdAt: input.now,
    })
    .returning({ id: paymentOrders.id });
  await tx
    .update(refunds)
    .set({ status: 'aprobada', decidedBy: actor.principal.userId, decidedAt: input.now })
    .where(eq(refunds.id, current.id));
  await recordAudit(tx, actor, {
    action: 'refund.approve',
    entity: 'refund',
    entityId: current.id,
    before: { status: 'solicitada' },
    after: { status: 'aprobada', paymentOrderId: order!.id },
    occurredAt: input.now,
  });
  return loadRefund(tx, current.id);
}
