import { and, eq, inArray, sql } from 'drizzle-orm';
import { allocatePayment, formatCents, parseCents } from '@portal/lending';
import { percentToFraction } from '@portal/contract';
import type { Tx } from '../../db/client';
import { trimNumeric } from '../../db/numeric';
import { credits, expectedDeductions, installments } from '../../db/schema/credits';
import { payments } from '../../db/schema/payments';
import { HttpProblem } from '../../http/errors';
import { creditFolio } from '../shared/folios';
import { allocationSplit } from '../shared/payment-split';
import { chargedThrough } from './late-charges';
import { changed, stored, storedAfter, toInstallmentState, writeScheduleRows, type InstallmentRow } from './schedule-rows';
import type { PortfolioChange } from './change-portfolio';

/**
 * A renewal's payoffs (docs/domain.md, "Renewals"), inside the disbursement's portfolio change: each renewed credit
 * receives a payment of its payoff on the disbursement date, allocated by the waterfall (packages/lending
 * `allocatePayment`, as a payment file's row) from its rows charged through that day; its expected deductions still to
 * be taken are cancelled (cancelado: the new credit's deduction replaces them); it keeps why it was liquidated
 * (renovacion) and which credit renewed it. The credit is aged by the door after the work: nothing owed, liquidado.
 * Deductions en tránsito stay so: the payoff was net of them, and their remittance settles the rest.
 */

export interface RenewalPayoff {
  creditId: string;
  /** What is paid to it: its payoff at the disbursement date. */
  amount: string;
}

const cents = (value: string) => parseCents(value, 'importe');

/** The renewed credits, locked: refused when one is gone, liquidated, or renewed by another credit already. */
export async function lockRenewedCredits(tx: Tx, creditIds: readonly string[]) {
  if (creditIds.length === 0) return [];
  const rows = await tx
    .select({
      id: credits.id,
      number: credits.number,
      status: credits.status,
      clientId: credits.clientId,
      companyId: credits.companyId,
      installment: credits.installment,
      renewedByCreditId: credits.renewedByCreditId,
    })
    .from(credits)
    .where(inArray(credits.id, [...creditIds]))
    .orderBy(credits.number)
    .for('update');
  for (const id of creditIds) {
    const row = rows.find((candidate) => candidate.id === id);
    if (!row)
      throw new HttpProblem(409, 'Crédito a renovar no encontrado', 'Uno de los créditos a renovar ya no existe o no es de tu empresa.');
    if (row.renewedByCreditId !== null || row.status === 'liquidado') {
      const [by] = row.renewedByCreditId
        ? await tx.select({ number: credits.number }).from(credits).where(eq(credits.id, row.renewedByCreditId))
        : [];
      throw new HttpProblem(
        409,
        'Crédito ya liquidado',
        by
          ? `El crédito ${creditFolio(row.number)} ya fue renovado por ${creditFolio(by.number)}; cancela esta solicitud.`
          : `El crédito ${creditFolio(row.number)} ya está liquidado; cancela esta solicitud.`,
      );
    }
  }
  return rows;
}

/**
 * Pays each renewed credit its payoff on `valueDate` (the business date of the change) and links it to the new credit.
 * Answers the payments' total (what the new credit's disbursement pays to the old ones).
 */
export async function payOffRenewedCredits(
  tx: Tx,
  change: PortfolioChange,
  renewal: { newCreditId: string; payoffs: readonly RenewalPayoff[]; valueDate: string; appliedBy: string; now: Date },
): Promise<string> {
  let total = 0n;
  for (const payoff of renewal.payoffs) {
    const [credit] = await tx.select().from(credits).where(eq(credits.id, payoff.creditId));
    const asStored: InstallmentRow[] = await tx
      .select()
      .from(installments)
      .where(eq(installments.creditId, payoff.creditId))
      .orderBy(installments.number);
    // The late charges through the payoff's date written in: what the payoff quote accrued to it.
    const schedule = asStored.map((row) => chargedThrough(row, credit!, renewal.valueDate));
    const result = allocatePayment({
      amount: payoff.amount,
      valueDate: renewal.valueDate,
      disbursementDate: credit!.disbursementDate,
      ivaRate: percentToFraction(trimNumeric(credit!.ivaRatePct)),
      annualRate: percentToFraction(trimNumeric(credit!.annualRatePct)),
      frequency: credit!.frequency,
      installment: credit!.installment,
      installments: schedule.map(toInstallmentState),
    });
    const after = storedAfter(schedule, result.installments);
    const before = asStored.map(stored).filter((row, index) => changed(row, after[index]!));
    await writeScheduleRows(
      tx,
      change.companyId,
      after.filter((row, index) => changed(stored(asStored[index]!), row)),
    );
    await tx.insert(payments).values({
      companyId: change.companyId,
      creditId: payoff.creditId,
      valueDate: renewal.valueDate,
      amount: result.amount,
      ...allocationSplit(result),
      allocation: { lines: result.lines, waived: result.waived, renewedBy: renewal.newCreditId },
      before: { installment: credit!.installment, rows: before, deduction: null },
      appliedBy: renewal.appliedBy,
      appliedAt: renewal.now,
    });
    // What is still to be deducted is the new credit's now; a deduction en tránsito was already taken and still comes.
    await tx
      .update(expectedDeductions)
      .set({ state: 'cancelado' })
      .where(and(eq(expectedDeductions.creditId, payoff.creditId), eq(expectedDeductions.state, 'esperado')));
    await tx
      .update(credits)
      .set({
        liquidationReason: 'renovacion',
        renewedByCreditId: renewal.newCreditId,
        installment: result.installment,
        creditBalance: sql`${credits.creditBalance} + ${result.overpayment}`,
      })
      .where(eq(credits.id, payoff.creditId));
    total += cents(result.amount);
  }
  change.touch(renewal.payoffs.map((payoff) => payoff.creditId));
  return formatCents(total);
}
