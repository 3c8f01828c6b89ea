import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import {
  accrueLateCharges,
  addDays,
  allocatePayment,
  closeBusinessDay,
  daysBetween,
  formatCents,
  lateChargesForDays,
  parseCents,
  type DeductionState,
  type ExpectedDeduction,
  type InstallmentState,
} from '@portal/lending';
import { percentToFraction } from '@portal/contract';
import type { Tx } from '../../db/client';
import { agreements } from '../../db/schema/agreements';
import { credits, expectedDeductions, installments } from '../../db/schema/credits';
import { businessDates } from '../../db/schema/portfolio';
import { loadPrincipal } from '../../http/auth';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { jaliscoCredits, LATE_WITH_CHARGES } from '../../test/payroll-fixtures';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { closeDay } from '../business-date/close-day';
import { applyPaymentFile } from './apply';
import { uploadPaymentFile } from './payment-files.service';
import { revertPaymentFile } from './revert';

/**
 * Late charges run by days between closes (portfolio/late-charges.ts). Against a second implementation built from
 * packages/lending alone — one accrueLateCharges per closed day, the deductions moved by closeBusinessDay, the payment
 * allocated by allocatePayment, the revert putting back what the payment changed and keeping what was charged — a
 * late credit is closed for days, paid in part (its principal owed changes, so do its daily charges), closed again,
 * the payment reverted and closed again: every row's charges, payments and the credit's balance must agree.
 */

const TO_LENDING: Record<string, DeductionState> = {
  esperado: 'esperado',
  'en tránsito': 'en-transito',
  recibido: 'recibido',
  'no aplicado': 'no-aplicado',
};
const COMPONENTS = ['principal', 'interest', 'iva', 'moratoryInterest', 'moratoryIva', 'fees', 'feesIva'] as const;
const c = (value: string | undefined) => parseCents(value ?? '0', 'importe');

interface Model {
  rows: InstallmentState[];
  deductions: ExpectedDeduction[];
}

describe.each(BEHAVIOUR_ENGINES)('Late charges by days through payments and reverts (%s)', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(engine, { seed: async (db, now) => seedDemoPortfolio(db, now, 60) });
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** The credit as the database holds it at the company's last closed day, charges run included (lending's arithmetic). */
  async function stored(tx: Tx, creditId: string): Promise<Model & { balance: string; closedDay: string }> {
    const [credit] = await tx.select().from(credits).where(eq(credits.id, creditId));
    const [date] = await tx.select().from(businessDates).where(eq(businessDates.companyId, credit!.companyId));
    const closedDay = addDays(date!.businessDate, -1);
    const rows = await tx.select().from(installments).where(eq(installments.creditId, creditId)).orderBy(asc(installments.number));
    const deductions = await tx
      .select({ d: expectedDeductions, lag: agreements.remittanceLagDays })
      .from(expectedDeductions)
      .innerJoin(agreements, eq(agreements.id, credit!.agreementId))
      .where(eq(expectedDeductions.creditId, creditId))
      .orderBy(asc(expectedDeductions.period));
    return {
      closedDay,
      balance: credit!.outstandingBalance,
      rows: rows.map((r) => {
        const days = r.accruesFrom === null || r.accruesFrom > closedDay ? 0 : daysBetween(r.accruesFrom, closedDay) + 1;
        const ran = lateChargesForDays({
          principalOwed: formatCents(c(r.principal) - c(r.paidPrincipal)),
          moratoryAnnualRate: percentToFraction(credit!.moratoryRatePct),
          ivaRate: percentToFraction(credit!.ivaRatePct),
          days,
        });
        return {
          number: r.number,
          dueDate: r.dueDate,
          principal: r.principal,
          interest: r.interest,
          iva: r.iva,
          moratoryInterest: formatCents(c(r.moratoryInterest) + c(ran.moratoryInterest)),
          moratoryIva: formatCents(c(r.moratoryIva) + c(ran.moratoryIva)),
          fees: r.fees,
          feesIva: r.feesIva,
          ...(r.days === null ? {} : { days: r.days }),
          paid: {
            principal: r.paidPrincipal,
            interest: r.paidInterest,
            iva: r.paidIva,
            moratoryInterest: r.paidMoratoryInterest,
            moratoryIva: r.paidMoratoryIva,
            fees: r.paidFees,
            feesIva: r.paidFeesIva,
          },
        };
      }),
      deductions: deductions.map(({ d, lag }) => ({
        id: String(d.period),
        installment: d.period,
        discountDate: d.discountDate,
        remittanceLagDays: lag,
        state: TO_LENDING[d.state]!,
      })),
    };
  }

  const canonical = (rows: InstallmentState[]) =>
    rows.map((row) => [
      row.number,
      ...COMPONENTS.map((k) => formatCents(c(row[k]))),
      ...COMPONENTS.map((k) => formatCents(c(row.paid?.[k]))),
    ]);
  const owed = (rows: InstallmentState[]) =>
    formatCents(rows.reduce((sum, row) => sum + COMPONENTS.reduce((s, k) => s + c(row[k]) - c(row.paid?.[k]), 0n), 0n));

  /** Late Jalisco credits with late charges running, in `order`. */
  const lateJaliscoCredits = (order: SQL) => jaliscoCredits(ctx, LATE_WITH_CHARGES, order);

  it('match one accrual a day, a partial payment that lowers the principal they run on, and its revert', async () => {
    const db = ctx.db;
    // A late Jalisco credit with late charges running on more than one row.
    const candidates = await lateJaliscoCredits(asc(credits.number));
    expect(candidates.length).toBeGreaterThan(0);
    const credit = candidates[0]!;
    const [terms] = await ctx.system((tx) => tx.select().from(credits).where(eq(credits.id, credit.id)));
    const rates = {
      moratoryAnnualRate: percentToFraction(terms!.moratoryRatePct),
      ivaRate: percentToFraction(terms!.ivaRatePct),
      lateFee: terms!.lateFee,
    };

    // The second implementation, from the credit as stored now.
    const start = await ctx.system((tx) => stored(tx, credit.id));
    const model: Model = { rows: start.rows, deductions: start.deductions };
    let closedDay = start.closedDay;
    const closeBoth = async (days: number) => {
      for (let k = 0; k < days; k++) {
        const day = addDays(closedDay, 1);
        await closeDay(db, credit.companyId, day);
        const closed = closeBusinessDay({
          businessDate: day,
          credits: [{ id: credit.id, status: 'vigente', installments: model.rows }],
          deductions: model.deductions,
        });
        model.deductions = closed.deductions.map(({ previousState: _p, ...d }) => d);
        const held = model.deductions.filter((d) => d.state === 'en-transito').map((d) => d.installment!);
        model.rows = accrueLateCharges({
          installments: model.rows,
          accruedThrough: closedDay,
          asOf: day,
          ...rates,
          inTransit: held,
        }).installments;
        closedDay = day;
      }
    };
    const compare = async () => {
      const now = await ctx.system((tx) => stored(tx, credit.id));
      expect(now.closedDay).toBe(closedDay);
      expect(canonical(now.rows)).toEqual(canonical(model.rows));
      expect(now.deductions.map((d) => [d.installment, d.state])).toEqual(model.deductions.map((d) => [d.installment, d.state]));
      expect(now.balance).toBe(owed(model.rows));
    };

    await closeBoth(3);
    await compare();

    // Pay what the oldest late row owes but half of its principal: the charges then run on the other half.
    const oldest = model.rows.find((row) => COMPONENTS.some((k) => c(row[k]) > c(row.paid?.[k])))!;
    const principalLeft = c(oldest.principal) - c(oldest.paid?.principal);
    const amount = formatCents(COMPONENTS.reduce((s, k) => s + c(oldest[k]) - c(oldest.paid?.[k]), 0n) - principalLeft / 2n);
    const [agreement] = await ctx.system((tx) => tx.select().from(agreements).where(eq(agreements.id, credit.agreementId)));
    const discountDate = model.deductions.filter((d) => d.discountDate <= closedDay).at(-1)!.discountDate;
    const principal = (await loadPrincipal(db, 'cartera@demo.mx'))!;
    const actor = { id: 'test', identity: null, principal };
    const today = addDays(closedDay, 1);
    const now = new Date(`${today}T18:00:00Z`);
    const file = await ctx.system((tx: Tx) =>
      uploadPaymentFile(tx, actor, {
        agreementId: agreement!.id,
        discountDate,
        fileName: 'parcial.csv',
        contentType: 'text/csv',
        content: Buffer.from(
          `empleado,curp,importe,periodo,referencia\r\n${credit.employeeNumber},${credit.curp},${amount},${oldest.number},P1`,
        ),
        today,
        now,
      }),
    );
    expect(file.rowsValid).toBe(1);
    const beforePayment = { rows: model.rows, deductions: model.deductions };
    await ctx.system((tx) =>
      applyPaymentFile(tx, { fileId: file.id, companyId: credit.companyId, appliedBy: principal.userId, now, today }),
    );
    const paid = allocatePayment({
      amount,
      valueDate: discountDate,
      disbursementDate: terms!.disbursementDate,
      ivaRate: rates.ivaRate,
      annualRate: percentToFraction(terms!.annualRatePct),
      frequency: terms!.frequency,
      installment: terms!.installment,
      installments: model.rows,
    });
    expect(paid.overpayment).toBe('0.00');
    expect(paid.prepaidPrincipal).toBe('0.00');
    model.rows = paid.installments;
    model.deductions = model.deductions.map((d) =>
      d.discountDate === discountDate && d.state !== 'recibido' ? { ...d, state: 'recibido' } : d,
    );
    await compare();

    await closeBoth(4);
    await compare();

    // The revert: what the payment changed comes back; what the closes charged since stays.
    await ctx.system((tx: Tx) =>
      revertPaymentFile(tx, actor, file.id, 'Importe equivocado', addDays(closedDay, 1), new Date(`${addDays(closedDay, 1)}T18:00:00Z`)),
    );
    model.rows = beforePayment.rows.map((row, k) => {
      const charged = model.rows[k]!;
      return {
        ...row,
        moratoryInterest: charged.moratoryInterest,
        moratoryIva: charged.moratoryIva,
        fees: charged.fees,
        feesIva: charged.feesIva,
      };
    });
    model.deductions = closeBusinessDay({
      businessDate: closedDay,
      credits: [{ id: credit.id, status: 'vigente', installments: model.rows }],
      deductions: beforePayment.deductions,
    }).deductions.map(({ previousState: _p, ...d }) => d);
    await compare();

    await closeBoth(3);
    await compare();
    // The charges did run, and on a principal the payment changed and the revert put back.
    expect(c(model.rows.find((row) => row.number === oldest.number)!.moratoryInterest)).toBeGreaterThan(c(oldest.moratoryInterest));
    const sums = await ctx.system((tx) =>
      tx.execute(sql`select count(*)::int as n from installments where credit_id = ${credit.id} and accrues_from is not null`),
    );
    expect((sums as unknown as { rows: { n: number }[] }).rows[0]!.n).toBeGreaterThan(0);
  });

  it('are waived on rows not yet due at a backdated payoff, and charged again by its revert', async () => {
    const db = ctx.db;
    // A late Jalisco credit whose oldest late row is not its first: a file dated at the discount before it pays it off.
    const candidates = await lateJaliscoCredits(desc(credits.number));
    const [business] = await ctx.system((tx) =>
      tx.select().from(businessDates).where(eq(businessDates.companyId, candidates[0]!.companyId)),
    );
    // One close: the late rows' fees are charged by the first close they run in.
    await closeDay(db, candidates[0]!.companyId, business!.businessDate);
    let chosen:
      { credit: (typeof candidates)[number]; start: Model & { balance: string; closedDay: string }; late: InstallmentState } | undefined;
    for (const credit of candidates) {
      const start = await ctx.system((tx) => stored(tx, credit.id));
      const late = start.rows.find((row) => COMPONENTS.some((k) => c(row[k]) > c(row.paid?.[k])));
      if (late && late.number > 1 && c(late.fees) > 0n) {
        chosen = { credit, start, late };
        break;
      }
    }
    expect(chosen).toBeDefined();
    const { credit, start, late } = chosen!;
    const [terms] = await ctx.system((tx) => tx.select().from(credits).where(eq(credits.id, credit.id)));
    const discount = start.deductions.find((d) => d.installment === late.number - 1)!;
    // All it owes and 500.00 more: on the earlier date, the late row was not due yet and owes no late charges.
    const amount = formatCents(c(owed(start.rows)) + 50_000n);
    const paid = allocatePayment({
      amount,
      valueDate: discount.discountDate,
      disbursementDate: terms!.disbursementDate,
      ivaRate: percentToFraction(terms!.ivaRatePct),
      annualRate: percentToFraction(terms!.annualRatePct),
      frequency: terms!.frequency,
      installment: terms!.installment,
      installments: start.rows,
    });
    expect(paid.paidOff).toBe(true);
    expect(paid.waived.some((line) => line.installment === late.number && line.component === 'fees')).toBe(true);

    const [agreement] = await ctx.system((tx) => tx.select().from(agreements).where(eq(agreements.id, credit.agreementId)));
    const principal = (await loadPrincipal(db, 'cartera@demo.mx'))!;
    const actor = { id: 'test', identity: null, principal };
    const today = addDays(start.closedDay, 1);
    const now = new Date(`${today}T18:00:00Z`);
    const file = await ctx.system((tx: Tx) =>
      uploadPaymentFile(tx, actor, {
        agreementId: agreement!.id,
        discountDate: discount.discountDate,
        fileName: 'liquidacion-atrasada.csv',
        contentType: 'text/csv',
        content: Buffer.from(
          `empleado,curp,importe,periodo,referencia\r\n${credit.employeeNumber},${credit.curp},${amount},${discount.installment},L1`,
        ),
        today,
        now,
      }),
    );
    await ctx.system((tx) =>
      applyPaymentFile(tx, { fileId: file.id, companyId: credit.companyId, appliedBy: principal.userId, now, today }),
    );
    const [afterPayment] = await ctx.system((tx) => tx.select().from(credits).where(eq(credits.id, credit.id)));
    expect(afterPayment).toMatchObject({ status: 'liquidado', outstandingBalance: '0.00', overdueBalance: '0.00', daysPastDue: 0 });
    expect(c(afterPayment!.creditBalance) - c(terms!.creditBalance)).toBe(c(paid.overpayment));
    const paidOff = await ctx.system((tx) => stored(tx, credit.id));
    expect(owed(paidOff.rows)).toBe('0.00');
    expect(paidOff.rows.find((row) => row.number === late.number)!.fees).toBe('0.00');

    // The revert puts back the late row's charges with the rest, the same business day: the credit as it was.
    await ctx.system((tx: Tx) => revertPaymentFile(tx, actor, file.id, 'Fecha de descuento equivocada', today, now));
    const reverted = await ctx.system((tx) => stored(tx, credit.id));
    expect(canonical(reverted.rows)).toEqual(canonical(start.rows));
    expect(reverted.balance).toBe(start.balance);
    const [afterRevert] = await ctx.system((tx) => tx.select().from(credits).where(eq(credits.id, credit.id)));
    expect(afterRevert).toMatchObject({ status: terms!.status, daysPastDue: terms!.daysPastDue, creditBalance: terms!.creditBalance });
  });
});
