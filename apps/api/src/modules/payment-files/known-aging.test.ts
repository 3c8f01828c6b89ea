import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { and, asc, eq, gt, inArray, lt, lte, ne } from 'drizzle-orm';
import { addDays, formatCents, parseCents } from '@portal/lending';
import type { Tx } from '../../db/client';
import { agreements } from '../../db/schema/agreements';
import { credits, expectedDeductions, installments } from '../../db/schema/credits';
import { payments } from '../../db/schema/payments';
import { businessDates } from '../../db/schema/portfolio';
import { loadPrincipal } from '../../http/auth';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { jaliscoCredits, uploadJaliscoFile } from '../../test/payroll-fixtures';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { closeDay } from '../business-date/close-day';
import { knownAging, refreshCredits } from '../portfolio/aging';
import { applyPaymentFile } from './apply';

/**
 * A payment file writes the aging of the credits it pays as its allocation tells it (knownAging) instead of aging them
 * again from their rows: of a credit still owing rows due by the closed day, only those rows' deductions are read. The second implementation it must equal is the door's own SQL aging (ageCredits): after
 * any file, aging every paid credit again by SQL changes nothing — not a credit, not a schedule row, not a deduction.
 */

const DAY = '2026-11-22';
const row = (number: number, dueDate: string, owed: string, running = false) => ({
  number,
  dueDate,
  owed: parseCents(owed, 'owed'),
  running,
});

describe('knownAging, by hand', () => {
  it('tells a credit that owes nothing due by the day: its balance, its first owed date, nothing else', () => {
    // Paid: 1 (due before), owed: 3 (1,000.50 + 0.25 late charges written in) and 2 (980.00), due after the day.
    expect(knownAging('a', [row(1, '2026-11-15', '0.00'), row(3, '2026-12-15', '1000.75'), row(2, '2026-11-30', '980.00')], DAY)).toEqual({
      id: 'a',
      balance: '1980.75',
      nextDiscountDate: '2026-11-30',
      due: [],
    });
  });

  it('tells a credit that owes nothing at all: nothing owed and no next date', () => {
    expect(knownAging('b', [row(1, '2026-11-15', '0.00'), row(2, '2026-11-30', '0.00')], DAY)).toEqual({
      id: 'b',
      balance: '0.00',
      nextDiscountDate: null,
      due: [],
    });
  });

  it('tells a credit owing rows due by the day those rows, for their holds to decide the rest', () => {
    // Owed: 1 (5.00, its charges running), 2 (0.01, due on the day, not running), 3 (980.00 after the day); 4 paid.
    expect(
      knownAging(
        'c',
        [row(1, '2026-11-01', '5.00', true), row(2, '2026-11-22', '0.01'), row(3, '2026-11-30', '980.00'), row(4, '2026-12-15', '0.00')],
        DAY,
      ),
    ).toEqual({
      id: 'c',
      balance: '985.01',
      nextDiscountDate: '2026-11-30',
      due: [
        { number: 1, dueDate: '2026-11-01', owed: '5.00', running: true },
        { number: 2, dueDate: '2026-11-22', owed: '0.01', running: false },
      ],
    });
  });
});

/** The demo portfolio on the day after a payday: its closed day is the payday, when installments fall due. */
const SEEDED = new Date('2026-11-16T15:00:00Z');
const PAYDAY = '2026-11-15';

describe.each(BEHAVIOUR_ENGINES)('a payment file ages its credits as the SQL aging would (%s)', (engine) => {
  let ctx: TestContext;
  const now = new Date('2026-11-16T18:00:00Z');

  beforeAll(async () => {
    ctx = await createTestApp(engine, { snapshot: true, seed: async (db) => seedDemoPortfolio(db, SEEDED, 40, { renewals: false }) });
  });
  afterAll(() => ctx?.close());
  beforeEach(async () => {
    await ctx.reset();
  });

  /** Everything an aging can write for these credits. */
  const agingState = (ids: string[]) =>
    ctx.system(async (tx: Tx) => ({
      credits: await tx.select().from(credits).where(inArray(credits.id, ids)).orderBy(asc(credits.id)),
      schedule: await tx
        .select()
        .from(installments)
        .where(inArray(installments.creditId, ids))
        .orderBy(asc(installments.creditId), asc(installments.number)),
      deductions: await tx
        .select()
        .from(expectedDeductions)
        .where(inArray(expectedDeductions.creditId, ids))
        .orderBy(asc(expectedDeductions.creditId), asc(expectedDeductions.period)),
    }));

  /** How a row of the file pays its credit: a part of its installment, the installment, or past what it owes. */
  const payment = fc.oneof(
    fc.record({ kind: fc.constant('part' as const), share: fc.integer({ min: 1, max: 99 }) }),
    fc.record({ kind: fc.constant('installment' as const) }),
    fc.record({ kind: fc.constant('installments' as const), count: fc.integer({ min: 2, max: 4 }) }),
    fc.record({ kind: fc.constant('payoff' as const), extra: fc.integer({ min: 0, max: 50_000 }) }),
  );

  /**
   * Applies generated files and ages every paid credit again by SQL: nothing may change. With `held`, the agreement's
   * remittance lag is long enough that every deduction let go before the payday is still en tránsito: late rows held
   * by the employer, which neither count as overdue nor age the credit, beside the credits' own late ones. With
   * `closes`, days are closed after the payday before the file (of the payday, now past) is applied: late rows then
   * run charges through the closed day, their late fee charged, which the payment writes in (chargedThrough) and the
   * SQL aging would otherwise count.
   */
  async function agesAsTheSql(held: boolean, numRuns: number, closes: fc.Arbitrary<number> = fc.constant(0), exampleDays = 0) {
    const principal = (await loadPrincipal(ctx.db, 'cartera@demo.mx'))!;
    let knownSeen = 0;
    let lateSeen = 0;
    let heldSeen = 0;
    let runningSeen = 0;
    let closedSeen = 0;
    const shape = fc.record({ batchSize: fc.integer({ min: 1, max: 5 }), days: closes });
    await fc.assert(
      fc.asyncProperty(fc.array(payment, { minLength: 40, maxLength: 40 }), shape, async (pays, { batchSize, days }) => {
        await ctx.reset();
        const open = await jaliscoCredits(ctx, ne(credits.status, 'liquidado'));
        expect(open.length).toBeGreaterThanOrEqual(7);
        const companyId = open[0]!.companyId;
        if (held) {
          await ctx.system(async (tx) => {
            await tx.update(agreements).set({ remittanceLagDays: 120 }).where(eq(agreements.id, open[0]!.agreementId));
            await tx
              .update(expectedDeductions)
              .set({ state: 'en tránsito' })
              .where(
                and(
                  inArray(
                    expectedDeductions.creditId,
                    open.map((credit) => credit.id),
                  ),
                  eq(expectedDeductions.state, 'no aplicado'),
                  lt(expectedDeductions.discountDate, PAYDAY),
                ),
              );
          });
        }
        closedSeen += days;
        for (let day = 1; day <= days; day++) await closeDay(ctx.db, companyId, addDays(PAYDAY, day));
        const [current] = await ctx.system((tx) => tx.select().from(businessDates).where(eq(businessDates.companyId, companyId)));
        const today = current!.businessDate;
        const closedDay = addDays(today, -1);
        expect(closedDay).toBe(addDays(PAYDAY, days));
        // Rows owed whose charges ran through the closed day before the payment (none right after the seed's aging).
        runningSeen += (
          await ctx.system((tx) =>
            tx
              .select({ number: installments.number })
              .from(installments)
              .where(
                and(
                  inArray(
                    installments.creditId,
                    open.map((credit) => credit.id),
                  ),
                  lte(installments.accruesFrom, closedDay),
                  gt(installments.outstanding, '0'),
                ),
              ),
          )
        ).length;
        const lines = open.map((credit, index) => {
          const pay = pays[index % pays.length]!;
          const installment = parseCents(credit.installment, 'installment');
          const amount =
            pay.kind === 'part'
              ? (installment * BigInt(pay.share)) / 100n || 1n
              : pay.kind === 'installment'
                ? installment
                : pay.kind === 'installments'
                  ? installment * BigInt(pay.count)
                  : parseCents(credit.balance, 'balance') + BigInt(pay.extra);
          return `${credit.employeeNumber},${credit.curp},${formatCents(amount)},22,R${index}`;
        });
        const file = await uploadJaliscoFile(ctx, principal, {
          agreementId: open[0]!.agreementId,
          discountDate: PAYDAY,
          lines,
          today,
          now,
        });
        await ctx.system((tx) => applyPaymentFile(tx, { fileId: file.id, companyId, appliedBy: principal.userId, now, today, batchSize }));
        const paid = (
          await ctx.system((tx) => tx.select({ creditId: payments.creditId }).from(payments).where(eq(payments.fileId, file.id)))
        ).map((payment) => payment.creditId);
        expect(paid.length).toBeGreaterThan(0);

        const applied = await agingState(paid);
        // Which path each paid credit took: its rows as written tell it (what knownAging reads).
        for (const id of paid) {
          const rows = applied.schedule.filter((stored) => stored.creditId === id);
          const known = knownAging(
            id,
            rows.map((stored) => ({
              number: stored.number,
              dueDate: stored.dueDate,
              owed: parseCents(stored.outstanding, 'outstanding'),
              running: stored.accruesFrom !== null,
            })),
            closedDay,
          );
          if (known.due.length === 0) knownSeen++;
          else lateSeen++;
        }
        heldSeen += applied.deductions.filter(
          (deduction) =>
            deduction.state === 'en tránsito' &&
            deduction.discountDate < closedDay &&
            applied.schedule.some(
              (stored) =>
                stored.creditId === deduction.creditId &&
                stored.number === deduction.period &&
                parseCents(stored.outstanding, 'outstanding') > 0n,
            ),
        ).length;
        // What knownAging takes for granted: late charges run only on rows due by the closed day, and after a payment
        // none has run through it (each runs from the next day on).
        expect(applied.schedule.filter((stored) => stored.accruesFrom !== null && stored.dueDate > closedDay)).toEqual([]);
        expect(applied.schedule.filter((stored) => stored.accruesFrom !== null && stored.accruesFrom <= closedDay)).toEqual([]);
        await ctx.system((tx) => refreshCredits(tx, companyId, closedDay, paid));
        expect(await agingState(paid)).toEqual(applied);
      }),
      // Before the generated files (fast-check counts them in its runs), two that make every tally below certain whatever
      // the seed: every credit paid a part (late rows left owed, held ones among them) and every credit paid off.
      {
        numRuns: numRuns + 2,
        examples: [
          [Array(40).fill({ kind: 'part', share: 50 }), { batchSize: 2, days: exampleDays }],
          [Array(40).fill({ kind: 'payoff', extra: 0 }), { batchSize: 3, days: exampleDays }],
        ],
      },
    );
    // Both kinds were seen: credits the payment left with nothing due, and credits still owing rows due by the closed day.
    expect(knownSeen).toBeGreaterThan(0);
    expect(lateSeen).toBeGreaterThan(0);
    if (held) expect(heldSeen).toBeGreaterThan(0);
    // Closed days ran charges on rows the files paid.
    if (closedSeen > 0) expect(runningSeen).toBeGreaterThan(0);
  }

  it('leaves nothing for the SQL aging to change, whatever each credit is paid and however the file is batched', async () => {
    await agesAsTheSql(false, 12);
  });

  it('leaves nothing for the SQL aging to change when late rows are held by the employer (en tránsito within the lag)', async () => {
    await agesAsTheSql(true, 6);
  });

  it('leaves nothing for the SQL aging to change when late charges and fees ran through the closed day (a file applied days after its payday)', async () => {
    await agesAsTheSql(false, 6, fc.integer({ min: 1, max: 12 }), 3);
  });
});
