import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { agreements } from '../../db/schema/agreements';
import { credits, expectedDeductions, installments } from '../../db/schema/credits';
import { payrollCalendarOf } from '../shared/products';
import { changePortfolio } from './change-portfolio';
import { buildCredit } from './disbursement';

/**
 * A credit starts at the date its money leaves (decision 0029). A disbursement the bank paid on the credit's own
 * disbursement date changes nothing. One whose line was rejected and that was paid later — the client had no money
 * meanwhile — is re-based on the date it was paid: its schedule, first payday and expected deductions are computed
 * again from that date with the same accepted terms (amount, term, rates, fee), which also undoes any lateness or late
 * charge the closes ran meanwhile. A credit that already has something of its own (a payment applied, a deduction
 * past esperado, a line in a cédula de descuento) keeps its schedule: the answer says why, and the audit records it.
 */
export type CreditStart =
  | { rebased: false; reason: string }
  | {
      rebased: true;
      before: { disbursementDate: string; firstDueDate: string; installment: string };
      after: { disbursementDate: string; firstDueDate: string; installment: string };
    };

export async function startCreditOnLiquidation(
  tx: Tx,
  input: { companyId: string; creditId: string; settledOn: string; now: Date; today: string },
): Promise<CreditStart> {
  return changePortfolio(tx, input.companyId, { today: input.today, now: input.now, figures: false }, async (change) => {
    const [credit] = await tx.select().from(credits).where(eq(credits.id, input.creditId)).for('update');
    if (!credit) return { rebased: false, reason: 'El crédito no existe.' };
    if (input.settledOn <= credit.disbursementDate) return { rebased: false, reason: 'Pagado en su fecha de dispersión.' };
    const [movements] = rowsOf<{ paid: boolean; moved: boolean; instructed: boolean }>(
      await tx.execute(sql`
        select
          exists (select 1 from installments i where i.credit_id = ${credit.id}
                  and i.paid_principal + i.paid_interest + i.paid_iva + i.paid_moratory_interest + i.paid_moratory_iva + i.paid_fees + i.paid_fees_iva > 0) as paid,
          exists (select 1 from expected_deductions d where d.credit_id = ${credit.id} and d.state <> 'esperado') as moved,
          exists (select 1 from deduction_order_lines l where l.credit_id = ${credit.id}) as instructed`),
    );
    if (movements!.paid) return { rebased: false, reason: 'El crédito ya tiene pagos aplicados; conserva su calendario.' };
    if (movements!.moved) return { rebased: false, reason: 'El crédito ya tiene descuentos en curso; conserva su calendario.' };
    if (movements!.instructed) return { rebased: false, reason: 'El crédito ya está en una cédula de descuento; conserva su calendario.' };
    const [agreement] = await tx.select().from(agreements).where(eq(agreements.id, credit.agreementId));
    const built = buildCredit(
      {
        calendar: payrollCalendarOf(agreement!),
        requestId: credit.requestId,
        clientId: credit.clientId,
        companyId: credit.companyId,
        agreementId: credit.agreementId,
        productId: credit.productId,
        employeeNumber: credit.employeeNumber,
        amount: credit.amount,
        term: credit.term,
        clabe: credit.clabe,
        frequency: credit.frequency,
        product: {
          name: credit.productName,
          annualRatePct: credit.annualRatePct,
          ivaRatePct: credit.ivaRatePct,
          openingFeePct: credit.openingFeePct,
          openingFeeFinanced: credit.openingFeeFinanced,
          moratoryRatePct: credit.moratoryRatePct,
          lateFee: credit.lateFee,
        },
        disbursementDate: input.settledOn,
        disbursedBy: credit.disbursedBy,
        createdAt: credit.createdAt ?? input.now,
      },
      credit.id,
    );
    await tx.delete(expectedDeductions).where(eq(expectedDeductions.creditId, credit.id));
    await tx.delete(installments).where(eq(installments.creditId, credit.id));
    await tx.insert(installments).values(built.installments);
    await tx.insert(expectedDeductions).values(built.deductions);
    const next = built.credit;
    await tx
      .update(credits)
      .set({
        disbursementDate: next.disbursementDate,
        firstDueDate: next.firstDueDate,
        lastDueDate: next.lastDueDate,
        installment: next.installment,
        cat: next.cat,
        principal: next.principal,
        openingFee: next.openingFee,
        openingFeeIva: next.openingFeeIva,
        netDisbursed: next.netDisbursed,
        status: 'vigente',
        daysPastDue: 0,
        agingBucket: 'current',
        overdueBalance: '0',
        outstandingBalance: sql`(select sum(outstanding) from installments where credit_id = ${credit.id})`,
        nextDiscountDate: next.firstDueDate,
      })
      .where(eq(credits.id, credit.id));
    change.touch([credit.id]);
    return {
      rebased: true,
      before: { disbursementDate: credit.disbursementDate, firstDueDate: credit.firstDueDate, installment: credit.installment },
      after: { disbursementDate: next.disbursementDate, firstDueDate: next.firstDueDate, installment: next.installment },
    };
  });
}
