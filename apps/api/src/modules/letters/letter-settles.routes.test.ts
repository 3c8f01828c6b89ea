import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { addDays } from '@portal/lending';
import type { Letter, LetterQuote } from '@portal/contract';
import type { Tx } from '../../db/client';
import { credits, expectedDeductions, installments } from '../../db/schema/credits';
import { payments } from '../../db/schema/payments';
import { businessDates } from '../../db/schema/portfolio';
import { loadPrincipal } from '../../http/auth';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { jaliscoCredits, LATE_WITH_CHARGES } from '../../test/payroll-fixtures';
import { ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { extractText } from '../../test/pdf-text';
import { closeDay } from '../business-date/close-day';
import { applyPaymentFile } from '../payment-files/apply';
import { uploadPaymentFile } from '../payment-files/payment-files.service';

/**
 * Issue 43: a letter settles a late credit. Quoted through the API on the fecha flujo and valid to the credit's next
 * payday, its amount — the same in the credit view's payoff, the letter and the letter's PDF — is paid on that last
 * valid day through a payment file after every close up to it has run (the employer's file with the payday's deduction
 * the letter netted, then the borrower's payment): the credit is liquidado, nothing owed, no sobrepago.
 */
describe.each(ENGINES)('A settlement letter settles a late credit (%s)', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(engine, { seed: async (db, now) => seedDemoPortfolio(db, now, 60) });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('paid on its last valid day through payment files after the closes, leaves the credit liquidado', async () => {
    const db = ctx.db;
    // A late Jalisco credit whose late charges run (moratory rate, more than 20 days past due).
    const [credit] = await jaliscoCredits(ctx, LATE_WITH_CHARGES);
    expect(credit).toBeDefined();
    const [date] = await ctx.system((tx) => tx.select().from(businessDates).where(eq(businessDates.companyId, credit!.companyId)));
    const businessDate = date!.businessDate;
    const validUntil = credit!.nextDiscountDate!;
    expect(validUntil > businessDate).toBe(true);
    const cartera = await ctx.as('cartera@demo.mx');
    const get = async <T>(url: string) => {
      const response = await ctx.app.inject({ method: 'GET', url, headers: cartera });
      const json = /json/.test(String(response.headers['content-type']));
      return { status: response.statusCode, body: (json ? response.json() : null) as T, raw: response.rawPayload };
    };

    // One computation: the letter's quote, the credit view's payoff at the same validity, the issued letter, its PDF.
    const quote = await get<LetterQuote>(`/api/credits/${credit!.id}/settlement-quote?validUntil=${validUntil}`);
    expect(quote.status).toBe(200);
    const payoff = await get<Record<string, unknown>>(`/api/credits/${credit!.id}/payoff?date=${businessDate}&validUntil=${validUntil}`);
    expect(quote.body.payoff).toMatchObject(payoff.body);
    expect(Number(quote.body.payoff.dueMoratoryInterest)).toBeGreaterThan(0);
    // The payday is the validity date: its deduction is still to be taken, netted, and shown.
    expect(quote.body.payoff.discountDate).toBe(validUntil);
    const issued = await ctx.app.inject({
      method: 'POST',
      url: `/api/credits/${credit!.id}/settlement-letters`,
      headers: cartera,
      payload: { validUntil },
    });
    expect(issued.statusCode).toBe(201);
    const letter = issued.json<Letter>();
    expect(letter.payoff).toEqual(quote.body.payoff);
    const pdf = await get(`/api/settlement-letters/${letter.id}/pdf`);
    const runs = await extractText(pdf.raw);
    expect(runs.some((run) => run.text === letter.texts.montoTotal)).toBe(true);

    // Every close from the fecha flujo through the validity date; each payday's deduction the letter netted arrives in
    // the employer's file after its close; on the last day the borrower pays the letter's amount.
    const principal = (await loadPrincipal(db, 'cartera@demo.mx'))!;
    const actor = { id: 'test', identity: null, principal };
    let fileNumber = 0;
    const payFile = async (discountDate: string, period: number, amount: string, today = addDays(discountDate, 1)) => {
      const now = new Date(`${today}T18:00:00Z`);
      fileNumber++;
      const file = await ctx.system((tx: Tx) =>
        uploadPaymentFile(tx, actor, {
          agreementId: credit!.agreementId,
          discountDate,
          fileName: `pagos-${fileNumber}.csv`,
          contentType: 'text/csv',
          content: Buffer.from(
            `empleado,curp,importe,periodo,referencia\r\n${credit!.employeeNumber},${credit!.curp},${amount},${period},F${fileNumber}`,
          ),
          today,
          now,
        }),
      );
      expect(file.rowsValid).toBe(1);
      await ctx.system((tx) =>
        applyPaymentFile(tx, { fileId: file.id, companyId: credit!.companyId, appliedBy: principal.userId, now, today }),
      );
    };
    // The deductions en tránsito the letter discounted arrive first, in their payday's file.
    const held = await ctx.system((tx) =>
      tx
        .select()
        .from(expectedDeductions)
        .where(and(eq(expectedDeductions.creditId, credit!.id), eq(expectedDeductions.state, 'en tránsito'))),
    );
    expect(held.reduce((sum, d) => sum + Number(d.amount), 0).toFixed(2)).toBe(letter.payoff.inTransit);
    for (const d of held) await payFile(d.discountDate, d.period, d.amount, businessDate);
    for (let day = businessDate; day <= validUntil; day = addDays(day, 1)) {
      await closeDay(db, credit!.companyId, day);
      for (const deduction of letter.payoff.pendingDeductions.filter((d) => d.discountDate === day)) {
        await payFile(day, deduction.installment, deduction.amount);
      }
    }
    const lastPeriod = letter.payoff.pendingDeductions.at(-1)!.installment;
    await payFile(validUntil, lastPeriod, letter.totalAmount);

    const [after] = await ctx.system((tx) => tx.select().from(credits).where(eq(credits.id, credit!.id)));
    expect(after!.status).toBe('liquidado');
    expect(after!.outstandingBalance).toBe('0.00');
    const [owed] = await ctx.system((tx) =>
      tx
        .select({ owed: sql<string>`coalesce(sum(${installments.outstanding}), 0)::text` })
        .from(installments)
        .where(eq(installments.creditId, credit!.id)),
    );
    expect(Number(owed!.owed)).toBe(0);
    // Paid after the close of its last valid day, the letter is exact: no sobrepago.
    const paid = await ctx.system((tx) => tx.select().from(payments).where(eq(payments.creditId, credit!.id)));
    const overpayment = paid.reduce((sum, p) => sum + Number(p.overpayment ?? 0), 0);
    expect(overpayment).toBe(0);
  }, 300_000);
});
