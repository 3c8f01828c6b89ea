import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, sql } from 'drizzle-orm';
import { formatCents, parseCents } from '@portal/lending';
import { credits, installments } from '../../db/schema/credits';
import { Pipeline } from '../../db/pipeline';
import { rowsOf } from '../../db/rows';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { closeDays } from '../business-date/close-day';
import { writeScheduleRows, type InstallmentRow, type StoredRow } from '../portfolio/schedule-rows';
import { allocateCredit, readBatch, type BatchCredit } from './apply';

/**
 * schedule-read.test.ts holds the rows read (neededRows) equal to the whole schedule over histories generated in
 * memory. Here the histories are the database's: the seeded portfolio, real day closes (late charges and fees as the
 * close writes them), payments written back through writeScheduleRows and read back as text, some at a value date
 * before rows a later payment settled. At each step every credit is paid from the rows read and from the whole schedule
 * as the table holds it (main's read before stop 64), and the two must pay, waive, write and age alike.
 */
const SEEDED = new Date('2026-11-16T15:00:00Z');

function outcome(credit: BatchCredit['credit'], rows: readonly InstallmentRow[], amount: string, valueDate: string, closedDay: string) {
  try {
    const { result, written, before, aging } = allocateCredit(credit, rows, amount, valueDate, closedDay);
    const { installments: _after, previousInstallments: _before, ...allocation } = result;
    return { allocation, written, before, aging };
  } catch (error) {
    return { error: String(error) };
  }
}

describe.each(BEHAVIOUR_ENGINES)('an allocation from the rows read, over database histories (%s)', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(engine);
    await seedDemoPortfolio(ctx.db, SEEDED, 60, { renewals: true });
  });
  afterAll(() => ctx?.close());

  it('pays as the whole schedule does after closes, prepayments, payoffs, late charges and back-dated payments', async () => {
    // In number order: which amount each credit is paid below follows it (an unordered read follows the table's layout).
    const creditRows = await ctx.system((tx) =>
      tx.select({ id: credits.id, companyId: credits.companyId }).from(credits).orderBy(asc(credits.number)),
    );
    const companies = [...new Set(creditRows.map((credit) => credit.companyId))];
    let reduced = 0;
    let step = 0;
    for (const closedDay of ['2026-11-15', '2026-11-19', '2026-11-28', '2026-12-03', '2026-12-16', '2027-01-02']) {
      step += 1;
      if (step > 1) for (const companyId of companies) await closeDays(ctx.db, companyId, closedDay);
      const all = await ctx.system((tx) => tx.select().from(installments).orderBy(asc(installments.creditId), asc(installments.number)));
      for (const valueDate of ['2026-10-31', '2026-11-15', closedDay, '2026-11-20']) {
        for (const companyId of companies) {
          const mine = creditRows.filter((credit) => credit.companyId === companyId).map((credit) => credit.id);
          const batch = await ctx.system((tx) => readBatch(new Pipeline(), tx, companyId, mine, valueDate, closedDay));
          for (const id of mine) {
            const whole = all.filter((row) => row.creditId === id);
            if (whole.length === 0) continue;
            const { credit, schedule } = batch.get(id)!;
            const read = schedule();
            if (read.length < whole.length) reduced += 1;
            const installment = parseCents(credit.installment, 'installment');
            for (const amount of [1n, installment, (installment * 5n) / 2n, 100n + installment * 3n, 1_000_000_000n]) {
              const text = formatCents(amount);
              expect(outcome(credit, read, text, valueDate, closedDay), `${id} ${valueDate} ${text}`).toEqual(
                outcome(credit, whole, text, valueDate, closedDay),
              );
            }
          }
        }
      }
      // A payment on each credit, written as the application writes it: some at the closed day, some back-dated.
      const valueDate = step % 2 === 0 ? closedDay : '2026-11-16';
      let k = 0;
      for (const companyId of companies) {
        const mine = creditRows.filter((credit) => credit.companyId === companyId).map((credit) => credit.id);
        const batch = await ctx.system((tx) => readBatch(new Pipeline(), tx, companyId, mine, valueDate, closedDay));
        const writes: StoredRow[] = [];
        for (const id of mine) {
          const { credit, schedule } = batch.get(id)!;
          const read = schedule();
          if (read.length === 0) continue;
          k += 1;
          const installment = parseCents(credit.installment, 'installment');
          const amount = [installment, (installment * 5n) / 2n, installment / 2n + 1n, installment * 7n, 0n][(k + step) % 5]!;
          const paid = amount === 0n ? null : outcome(credit, read, formatCents(amount), valueDate, closedDay);
          if (paid?.written) writes.push(...paid.written);
        }
        await ctx.system((tx) => writeScheduleRows(tx, companyId, writes));
      }
    }
    // The histories held what the rule turns on, and the rule left rows out.
    const [held] = rowsOf<{ accruals: number; late: number; fees: number; balances: number }>(
      await ctx.system((tx) =>
        tx.execute(sql`select count(*) filter (where accrual_through is not null)::int as accruals,
                              count(*) filter (where moratory_interest > 0)::int as late, count(*) filter (where fees > 0)::int as fees,
                              count(*) filter (where balance <> coalesce((select sum(j.principal) from installments j
                                                where j.credit_id = i.credit_id and j.number > i.number), 0))::int as balances
                       from installments i`),
      ),
    );
    expect(held!.accruals).toBeGreaterThan(10);
    expect(held!.late).toBeGreaterThan(10);
    expect(held!.fees).toBeGreaterThan(10);
    expect(held!.balances).toBe(0);
    expect(reduced).toBeGreaterThan(100);
  }, 300_000);
});
