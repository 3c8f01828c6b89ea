import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  accrueLateCharges,
  addDays,
  closeBusinessDay,
  closeBusinessDays,
  daysBetween,
  formatCents,
  lateChargesForDays,
  parseCents,
  type DayCloseCredit,
  type DeductionState,
  type ExpectedDeduction,
  type InstallmentState,
} from '@portal/lending';
import { BEHAVIOUR_ENGINES, ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import type { Tx } from '../../db/client';
import { asSystem } from '../../db/scope';
import { rowsOf } from '../../db/rows';
import { agreements } from '../../db/schema/agreements';
import { credits, expectedDeductions, installments } from '../../db/schema/credits';
import { businessDates, dayCloses } from '../../db/schema/portfolio';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { percentToFraction } from '@portal/contract';
import { installmentStatus } from '../portfolio/schedule-rows';
import { ageCreditsAt } from '../portfolio/aging';
import { closeDay, closeDays } from './close-day';

const D = '2026-11-23';
/** Days past due each credit is built to have on D (the oldest unpaid installment falls due D − target). */
const TARGETS = [0, 1, 29, 30, 31, 59, 60, 61, 88, 89, 90, 91, 150] as const;
const VARIANTS = ['plain', 'partial', 'transit', 'esperado', 'paid-off', 'reverted'] as const;
type Variant = (typeof VARIANTS)[number];

/** The bucket and status each target must land in (DOMAIN.md §4, written out by hand). */
const EXPECTED: Record<number, [string, string]> = {
  0: ['current', 'vigente'],
  1: ['1-30', 'vigente'],
  29: ['1-30', 'vigente'],
  30: ['1-30', 'vigente'],
  31: ['31-60', 'vigente'],
  59: ['31-60', 'vigente'],
  60: ['31-60', 'vigente'],
  61: ['61-89', 'vigente'],
  88: ['61-89', 'vigente'],
  89: ['61-89', 'vigente'],
  90: ['90+', 'vencido'],
  91: ['90+', 'vencido'],
  150: ['90+', 'vencido'],
};

const TO_LENDING: Record<string, DeductionState> = {
  esperado: 'esperado',
  'en tránsito': 'en-transito',
  recibido: 'recibido',
  'no aplicado': 'no-aplicado',
};
const INSTALLMENT_STATUS = { paid: 'pagada', due: 'vencida', upcoming: 'pendiente' } as const;

interface Shaped {
  companyId: string;
  creditIds: string[];
  plan: Map<string, { target: number; variant: Variant }>;
}

/**
 * Turns the demo company's credits into a portfolio with every state the close must handle: for credit k, the
 * schedule is shifted so that installment 3 fell due D − target; earlier rows are paid, and the variant decides the
 * rest (installment 3 partly paid, its deduction en tránsito or still esperado, the credit paid off, or a liquidado
 * credit owing again after a reverted payment). Remittance lags are set to 0, 2 and 7 days across agreements.
 */
async function shapePortfolio(tx: Tx): Promise<Shaped> {
  const rows = await tx.select({ id: credits.id, companyId: credits.companyId }).from(credits).orderBy(asc(credits.number));
  const companyId = rows[0]!.companyId;
  const mine = rows.filter((r) => r.companyId === companyId).slice(0, TARGETS.length * VARIANTS.length);
  const lags = [0, 2, 7];
  const owned = await tx
    .select({ id: agreements.id })
    .from(agreements)
    .where(eq(agreements.companyId, companyId))
    .orderBy(asc(agreements.code));
  for (const [i, a] of owned.entries())
    await tx
      .update(agreements)
      .set({ remittanceLagDays: lags[i % lags.length]! })
      .where(eq(agreements.id, a.id));
  const plan = new Map<string, { target: number; variant: Variant }>();
  const shapes = mine.map((credit, k) => {
    const target = TARGETS[k % TARGETS.length]!;
    const variant = VARIANTS[Math.floor(k / TARGETS.length) % VARIANTS.length]!;
    plan.set(credit.id, { target, variant });
    return {
      id: credit.id,
      variant,
      anchor: addDays(D, -target),
      paidThrough: variant === 'paid-off' ? 10_000 : variant === 'reverted' ? -1 : 2,
      status: variant === 'reverted' ? 'liquidado' : target >= 90 && k % 2 === 0 ? 'vencido' : 'vigente',
    };
  });
  // Each step is one statement over every shaped credit (p: the plan above); a later step sees the earlier ones' rows.
  const p = sql`(select * from json_to_recordset(${JSON.stringify(shapes)}::json)
    as p(id uuid, variant text, anchor date, "paidThrough" int, status text)) p`;
  // From a clean slate: nothing paid, every deduction expected (the demo seed brings a collected history).
  await tx.execute(sql`update installments i set paid_principal = 0, paid_interest = 0, paid_iva = 0, accrues_from = null
    from ${p} where i.credit_id = p.id`);
  await tx.execute(sql`update expected_deductions e set state = 'esperado' from ${p} where e.credit_id = p.id`);
  // The schedule shifted so that installment 3 falls due on the anchor, D − target.
  await tx.execute(sql`
    update installments i set due_date = i.due_date + (p.anchor - third.due_date)
    from ${p} join installments third on third.credit_id = p.id and third.number = 3
    where i.credit_id = p.id`);
  await tx.execute(sql`
    update expected_deductions e set discount_date = i.due_date from installments i, ${p}
    where i.credit_id = e.credit_id and i.number = e.period and e.credit_id = p.id`);
  await tx.execute(sql`
    update installments i set paid_principal = principal, paid_interest = interest, paid_iva = iva from ${p}
    where i.credit_id = p.id and (i.number <= p."paidThrough"
      or (p."paidThrough" = -1 and i.number < (select max(number) from installments m where m.credit_id = i.credit_id)))`);
  await tx.execute(sql`
    update expected_deductions e set state = case when e.period <= p."paidThrough" or p."paidThrough" = -1 then 'recibido' else 'no aplicado' end
    from ${p} where e.credit_id = p.id and e.discount_date < ${D}::date`);
  await tx.execute(sql`
    update installments i set paid_interest = interest, paid_iva = iva, paid_principal = round(principal / 3, 2)
    from ${p} where i.credit_id = p.id and p.variant = 'partial' and i.number = 3`);
  await tx.execute(sql`
    update expected_deductions e set state = 'en tránsito' from ${p} where e.credit_id = p.id and p.variant = 'transit' and e.period = 3`);
  await tx.execute(sql`
    update expected_deductions e set state = 'esperado' from ${p} where e.credit_id = p.id and p.variant = 'esperado' and e.period >= 3`);
  await tx.execute(sql`update credits c set status = p.status from ${p} where c.id = p.id`);
  // The close history starts here too: the seed's close of its yesterday is not one of these tests'.
  await tx.delete(dayCloses).where(eq(dayCloses.companyId, companyId));
  await tx
    .insert(businessDates)
    .values({ companyId, businessDate: D })
    .onConflictDoUpdate({ target: businessDates.companyId, set: { businessDate: D } });
  // As every writer leaves them (the previous close, a payment's or a revert's refresh, the seed): the credits aged at
  // D − 1, the close's starting point. The installments and deductions stay as shaped, for the close to move.
  await ageCreditsAt(tx, companyId, addDays(D, -1));
  return { companyId, creditIds: mine.map((c) => c.id), plan };
}

interface Snapshot {
  credits: Map<
    string,
    {
      status: string;
      daysPastDue: number;
      agingBucket: string;
      moratoryRatePct: string;
      lateFee: string;
      ivaRatePct: string;
      outstandingBalance: string;
      overdueBalance: string;
    }
  >;
  byCredit: Map<string, (InstallmentState & { status: string })[]>;
  deductions: (ExpectedDeduction & { creditId: string; installment: number })[];
}

/**
 * The company's credits, schedules and deductions at its last closed day (the day before its business date): each
 * installment's late charges with the days they have run added (lending's lateChargesForDays: one day's charge per
 * closed day, on the principal the row still owes), and its status as the credit view derives it.
 */
async function snapshot(tx: Tx, companyId: string): Promise<Snapshot> {
  const [date] = await tx.select().from(businessDates).where(eq(businessDates.companyId, companyId));
  const closedDay = addDays(date!.businessDate, -1);
  const creditRows = await tx.select().from(credits).where(eq(credits.companyId, companyId));
  const creditOf = new Map(creditRows.map((c) => [c.id, c]));
  const rows = await tx.select().from(installments).where(eq(installments.companyId, companyId)).orderBy(asc(installments.number));
  const byCredit = new Map<string, (InstallmentState & { status: string })[]>();
  for (const r of rows) {
    const list = byCredit.get(r.creditId) ?? [];
    const credit = creditOf.get(r.creditId)!;
    const days = r.accruesFrom === null || r.accruesFrom > closedDay ? 0 : daysBetween(r.accruesFrom, closedDay) + 1;
    const ran = lateChargesForDays({
      principalOwed: formatCents(parseCents(r.principal, 'p') - parseCents(r.paidPrincipal, 'p')),
      moratoryAnnualRate: percentToFraction(credit.moratoryRatePct),
      ivaRate: percentToFraction(credit.ivaRatePct),
      days,
    });
    const plus = (a: string, b: string) => formatCents(parseCents(a, 'x') + parseCents(b, 'x'));
    const owed = plus(r.outstanding, plus(ran.moratoryInterest, ran.moratoryIva));
    list.push({
      number: r.number,
      dueDate: r.dueDate,
      principal: r.principal,
      interest: r.interest,
      iva: r.iva,
      fees: r.fees,
      feesIva: r.feesIva,
      moratoryInterest: plus(r.moratoryInterest, ran.moratoryInterest),
      moratoryIva: plus(r.moratoryIva, ran.moratoryIva),
      paid: {
        principal: r.paidPrincipal,
        interest: r.paidInterest,
        iva: r.paidIva,
        fees: r.paidFees,
        feesIva: r.paidFeesIva,
        moratoryInterest: r.paidMoratoryInterest,
        moratoryIva: r.paidMoratoryIva,
      },
      status: installmentStatus({ outstanding: owed, dueDate: r.dueDate }, closedDay),
    });
    byCredit.set(r.creditId, list);
  }
  const deductionRows = await tx
    .select({ d: expectedDeductions, lag: agreements.remittanceLagDays })
    .from(expectedDeductions)
    .innerJoin(credits, eq(credits.id, expectedDeductions.creditId))
    .innerJoin(agreements, eq(agreements.id, credits.agreementId))
    .where(eq(expectedDeductions.companyId, companyId));
  return {
    credits: new Map(
      creditRows.map((c) => [
        c.id,
        {
          status: c.status,
          daysPastDue: c.daysPastDue,
          agingBucket: c.agingBucket,
          moratoryRatePct: c.moratoryRatePct,
          lateFee: c.lateFee,
          ivaRatePct: c.ivaRatePct,
          outstandingBalance: c.outstandingBalance,
          overdueBalance: c.overdueBalance,
        },
      ]),
    ),
    byCredit,
    deductions: deductionRows.map(({ d, lag }) => ({
      id: `${d.creditId}:${d.period}`,
      creditId: d.creditId,
      installment: d.period,
      discountDate: d.discountDate,
      remittanceLagDays: lag,
      state: TO_LENDING[d.state]!,
    })),
  };
}

/** What is still owed of an installment, in centavos: every component charged less what was paid of it. */
function owedCents(i: InstallmentState): bigint {
  const parts = ['principal', 'interest', 'iva', 'fees', 'feesIva', 'moratoryInterest', 'moratoryIva'] as const;
  return parts.reduce((sum, part) => sum + parseCents(i[part] ?? '0', part) - parseCents(i.paid?.[part] ?? '0', part), 0n);
}

const lendingCredits = (s: Snapshot): DayCloseCredit[] =>
  [...s.credits.entries()].map(([id, c]) => ({
    id,
    status: c.status as DayCloseCredit['status'],
    installments: s.byCredit.get(id)!.map(({ status: _s, ...i }) => i),
  }));

describe.each(ENGINES)('Cierre de día en SQL (%s)', (engine) => {
  let ctx: TestContext;
  let shaped: Shaped;

  // One app and shaped portfolio per engine, put back before each test (src/test/snapshot.ts): the shaping is the same
  // every time (credits taken by folio), so what a test reads is what a fresh database would give it.
  beforeAll(async () => {
    ctx = await createTestApp(engine, {
      snapshot: true,
      seed: async (db, now) => {
        await seedDemoPortfolio(db, now, 180);
        shaped = await asSystem(db, shapePortfolio);
      },
    });
  });
  beforeEach(async () => {
    await ctx.reset();
  });
  afterAll(async () => {
    await ctx.close();
  });
  /**
   * The close's result against packages/lending, and its rollback on a failure (each engine's driver runs the
   * transaction), run on both engines; the rest is the same SQL read the same way, proven on one (BEHAVIOUR_ENGINES).
   */
  const itOnOneEngine = it.runIf(BEHAVIOUR_ENGINES.includes(engine));

  it('gives every credit, installment and deduction the result of packages/lending closeBusinessDay, and accrues its late charges', async () => {
    const before = await ctx.system((tx) => snapshot(tx, shaped.companyId));

    const figures = await closeDay(ctx.db, shaped.companyId, D);
    const after = await ctx.system((tx) => snapshot(tx, shaped.companyId));
    const expected = closeBusinessDay({ businessDate: D, credits: lendingCredits(before), deductions: before.deductions });

    for (const c of expected.credits) {
      const got = after.credits.get(c.id)!;
      expect({ id: c.id, status: got.status, dpd: got.daysPastDue, bucket: got.agingBucket }).toEqual({
        id: c.id,
        status: c.status,
        dpd: c.daysPastDue,
        bucket: c.agingBucket,
      });
      expect(after.byCredit.get(c.id)!.map((i) => i.status)).toEqual(c.installmentStatuses.map((i) => INSTALLMENT_STATUS[i.status]));
    }
    // Balances at D, summed here from the rows: everything owed, and of it what is due by D and not held (a deduction
    // en tránsito after the close holds its installment: the employer has that money, so it is not overdue).
    for (const c of expected.credits) {
      const held = new Set(expected.deductions.filter((d) => d.creditId === c.id && d.state === 'en-transito').map((d) => d.installment));
      const rows = after.byCredit.get(c.id)!;
      const overdue = rows.filter((i) => i.dueDate <= D && !held.has(i.number)).reduce((sum, i) => sum + owedCents(i), 0n);
      const balance = rows.reduce((sum, i) => sum + owedCents(i), 0n);
      const got = after.credits.get(c.id)!;
      expect([c.id, got.outstandingBalance, got.overdueBalance]).toEqual([c.id, formatCents(balance), formatCents(overdue)]);
    }
    const gotDeductions = new Map(after.deductions.map((d) => [d.id, d.state]));
    for (const d of expected.deductions) expect([d.id, gotDeductions.get(d.id)]).toEqual([d.id, d.state]);
    expect(figures.creditsProcessed).toBe(before.credits.size);
    expect(figures.newVencidos).toBe(expected.credits.filter((c) => c.status === 'vencido' && c.previousStatus !== 'vencido').length);
    expect(figures.toTransit).toBe(
      expected.deductions.filter((d) => d.state === 'en-transito' && d.previousState !== 'en-transito').length,
    );
    expect(figures.toNotApplied).toBe(
      expected.deductions.filter((d) => d.state === 'no-aplicado' && d.previousState !== 'no-aplicado').length,
    );

    // Late charges: lending's accrueLateCharges for the one day D, with the deductions en tránsito after the close, at
    // the credit's terms (the product's at disbursement).
    let moratoryTotal = 0n;
    let feesTotal = 0n;
    for (const [id, credit] of before.credits) {
      const held = expected.deductions.filter((d) => d.creditId === id && d.state === 'en-transito').map((d) => d.installment!);
      const accrued = accrueLateCharges({
        installments: before.byCredit.get(id)!.map(({ status: _s, ...i }) => i),
        accruedThrough: addDays(D, -1),
        asOf: D,
        moratoryAnnualRate: percentToFraction(credit.moratoryRatePct),
        ivaRate: percentToFraction(credit.ivaRatePct),
        lateFee: credit.lateFee,
        inTransit: held,
      });
      feesTotal += parseCents(accrued.fees, 'fees');
      moratoryTotal += BigInt(accrued.moratoryInterest.replace('.', ''));
      const got = after.byCredit.get(id)!.map((i) => [i.number, i.moratoryInterest, i.moratoryIva, i.fees, i.feesIva]);
      expect(got).toEqual(
        accrued.installments.map((i) => [
          i.number,
          i.moratoryInterest ?? '0.00',
          i.moratoryIva ?? '0.00',
          i.fees ?? '0.00',
          i.feesIva ?? '0.00',
        ]),
      );
    }
    expect(BigInt(figures.moratoryAccrued.replace('.', ''))).toBe(moratoryTotal);
    expect(moratoryTotal).toBeGreaterThan(0n);
    expect(parseCents(figures.feesAccrued, 'fees')).toBe(feesTotal);
  });

  itOnOneEngine(
    'puts each built days-past-due edge in its bucket, 90 days and more vencido, a tránsito installment not ageing the credit',
    async () => {
      await closeDay(ctx.db, shaped.companyId, D);
      const rows = await ctx.system((tx) => tx.select().from(credits).where(inArray(credits.id, shaped.creditIds)));
      for (const row of rows) {
        const { target, variant } = shaped.plan.get(row.id)!;
        if (variant === 'plain' || variant === 'partial') {
          expect([target, row.daysPastDue, row.agingBucket, row.status]).toEqual([target, target, ...EXPECTED[target]!]);
        }
        if (variant === 'paid-off') expect([row.status, row.daysPastDue, row.agingBucket]).toEqual(['liquidado', 0, 'current']);
        if (variant === 'reverted') expect(row.status).not.toBe('liquidado');
      }
    },
  );

  itOnOneEngine(
    'moves a deduction to en tránsito on its discount date and to no aplicado past the lag (lag 0: the same day only)',
    async () => {
      const [credit] = await ctx.system((tx) =>
        tx.select({ id: credits.id, agreementId: credits.agreementId }).from(credits).where(eq(credits.id, shaped.creditIds[0]!)),
      );
      await ctx.system(async (tx) => {
        await tx.update(agreements).set({ remittanceLagDays: 0 }).where(eq(agreements.id, credit!.agreementId));
        await tx
          .update(expectedDeductions)
          .set({ state: 'esperado', discountDate: D })
          .where(and(eq(expectedDeductions.creditId, credit!.id), eq(expectedDeductions.period, 5)));
      });
      const state = () =>
        ctx.system(
          async (tx) =>
            (
              await tx
                .select()
                .from(expectedDeductions)
                .where(and(eq(expectedDeductions.creditId, credit!.id), eq(expectedDeductions.period, 5)))
            )[0]!.state,
        );
      await closeDay(ctx.db, shaped.companyId, D);
      expect(await state()).toBe('en tránsito');
      await closeDay(ctx.db, shaped.companyId, addDays(D, 1));
      expect(await state()).toBe('no aplicado');
    },
  );

  itOnOneEngine(
    'moves a deduction from esperado to en tránsito in place (HOT: the state is in no index), and settles it with its index entries',
    async () => {
      const creditId = shaped.creditIds[0]!;
      const moved = await ctx.system(async (tx) => {
        const counts = async () =>
          rowsOf<{ updated: number; hot: number }>(
            await tx.execute(
              sql`select pg_stat_get_xact_tuples_updated('expected_deductions'::regclass)::int as updated, pg_stat_get_xact_tuples_hot_updated('expected_deductions'::regclass)::int as hot`,
            ),
          )[0]!;
        const indexes = rowsOf<{ definition: string }>(
          await tx.execute(
            sql`select pg_get_indexdef(indexrelid) as definition from pg_index where indrelid = 'expected_deductions'::regclass`,
          ),
        );
        // A new row goes to a page with the room the fill factor keeps, as a disbursement's do.
        const key = and(eq(expectedDeductions.creditId, creditId), eq(expectedDeductions.period, 999));
        await tx
          .insert(expectedDeductions)
          .values({ creditId, companyId: shaped.companyId, period: 999, discountDate: D, amount: '100.00' });
        const before = await counts();
        await tx.update(expectedDeductions).set({ state: 'en tránsito' }).where(key);
        const inTransit = await counts();
        await tx.update(expectedDeductions).set({ state: 'recibido' }).where(key);
        const settled = await counts();
        const delta = (from: typeof before, to: typeof before) => ({ updated: to.updated - from.updated, hot: to.hot - from.hot });
        return {
          indexes: indexes.map((index) => index.definition),
          toTransit: delta(before, inTransit),
          settled: delta(inTransit, settled),
        };
      });
      expect(moved.indexes.length).toBeGreaterThan(1);
      expect(moved.indexes.filter((definition) => /\bstate\b/.test(definition))).toEqual([]);
      expect(moved.toTransit).toEqual({ updated: 1, hot: 1 });
      // Settled, it leaves the open ones' index: a new version with its index entries.
      expect(moved.settled).toEqual({ updated: 1, hot: 0 });
    },
  );

  itOnOneEngine('replays missed days in order, one close each, ending where packages/lending closeBusinessDays ends', async () => {
    const before = await ctx.system((tx) => snapshot(tx, shaped.companyId));
    const through = addDays(D, 7);
    const closed = await closeDays(ctx.db, shaped.companyId, through);
    expect(closed.map((c) => c.businessDate)).toEqual(Array.from({ length: 8 }, (_, i) => addDays(D, i)));
    const expected = closeBusinessDays({
      lastClosedDate: addDays(D, -1),
      throughDate: through,
      credits: lendingCredits(before),
      deductions: before.deductions,
    });
    const last = expected.days.at(-1)!;
    const after = await ctx.system((tx) => snapshot(tx, shaped.companyId));
    for (const c of last.credits)
      expect([c.id, after.credits.get(c.id)!.status, after.credits.get(c.id)!.daysPastDue]).toEqual([c.id, c.status, c.daysPastDue]);
    // Late charges over the eight days: lending's accrueLateCharges once per day, with that day's deductions en
    // tránsito, against what the rows owe once the days their charges ran are counted.
    let ran = 0n;
    for (const [id, credit] of before.credits) {
      let rows = before.byCredit.get(id)!.map(({ status: _s, ...i }) => i);
      for (const day of expected.days) {
        const held = day.deductions.filter((d) => d.creditId === id && d.state === 'en-transito').map((d) => d.installment!);
        const accrued = accrueLateCharges({
          installments: rows,
          accruedThrough: addDays(day.closedDate, -1),
          asOf: day.closedDate,
          moratoryAnnualRate: percentToFraction(credit.moratoryRatePct),
          ivaRate: percentToFraction(credit.ivaRatePct),
          lateFee: credit.lateFee,
          inTransit: held,
        });
        rows = accrued.installments;
        ran += parseCents(accrued.moratoryInterest, 'moratory');
      }
      const got = after.byCredit.get(id)!.map((i) => [i.number, i.moratoryInterest, i.moratoryIva, i.fees, i.feesIva]);
      expect(got).toEqual(
        rows.map((i) => [i.number, i.moratoryInterest ?? '0.00', i.moratoryIva ?? '0.00', i.fees ?? '0.00', i.feesIva ?? '0.00']),
      );
      expect([id, after.credits.get(id)!.outstandingBalance]).toEqual([id, formatCents(rows.reduce((sum, i) => sum + owedCents(i), 0n))]);
    }
    expect(closed.reduce((sum, day) => sum + parseCents(day.moratoryAccrued, 'moratory'), 0n)).toBe(ran);
    expect(ran).toBeGreaterThan(0n);
    const [date] = await ctx.system((tx) => tx.select().from(businessDates).where(eq(businessDates.companyId, shaped.companyId)));
    expect(date!.businessDate).toBe(addDays(through, 1));
    const history = await ctx.system((tx) => tx.select().from(dayCloses).where(eq(dayCloses.companyId, shaped.companyId)));
    expect(history).toHaveLength(8);
  });

  itOnOneEngine('ages only the credits a close can change: after it, aging every credit at the same day changes none', async () => {
    // A credit loaded without ever being aged (no next discount date yet) must be aged by the first close too.
    const raw = shaped.creditIds.find((id) => shaped.plan.get(id)!.target === 31 && shaped.plan.get(id)!.variant === 'plain')!;
    await ctx.system((tx) =>
      tx
        .update(credits)
        .set({ daysPastDue: 0, agingBucket: 'current', overdueBalance: '0', nextDiscountDate: null })
        .where(eq(credits.id, raw)),
    );
    const everyCredit = () =>
      ctx.system((tx) => tx.select().from(credits).where(eq(credits.companyId, shaped.companyId)).orderBy(asc(credits.number)));
    for (const day of [D, addDays(D, 1), addDays(D, 2)]) {
      await closeDay(ctx.db, shaped.companyId, day);
      const closed = await everyCredit();
      await ctx.system((tx) => ageCreditsAt(tx, shaped.companyId, day));
      expect(await everyCredit()).toEqual(closed);
    }
    const [aged] = await ctx.system((tx) => tx.select().from(credits).where(eq(credits.id, raw)));
    expect([aged!.daysPastDue, aged!.agingBucket]).toEqual([33, '31-60']);
  });

  itOnOneEngine('refuses to close the same day twice, in Spanish', async () => {
    await closeDay(ctx.db, shaped.companyId, D);
    await expect(closeDay(ctx.db, shaped.companyId, D)).rejects.toThrow(
      `El día ${D.split('-').reverse().join('/')} ya está cerrado: la fecha flujo es ${addDays(D, 1).split('-').reverse().join('/')}.`,
    );
    const history = await ctx.system((tx) => tx.select().from(dayCloses).where(eq(dayCloses.companyId, shaped.companyId)));
    expect(history).toHaveLength(1);
  });

  it('leaves the business date and every credit as they were when a close fails', async () => {
    const before = await ctx.system((tx) => snapshot(tx, shaped.companyId));
    await expect(
      closeDay(ctx.db, shaped.companyId, D, {
        beforeCommit: async () => {
          throw new Error('falla simulada');
        },
      }),
    ).rejects.toThrow('falla simulada');
    const after = await ctx.system((tx) => snapshot(tx, shaped.companyId));
    expect(after.credits).toEqual(before.credits);
    expect(after.byCredit).toEqual(before.byCredit);
    expect(after.deductions).toEqual(before.deductions);
    const [date] = await ctx.system((tx) => tx.select().from(businessDates).where(eq(businessDates.companyId, shaped.companyId)));
    expect(date!.businessDate).toBe(D);
  });
});
