import { formatCents, parseCents } from '@portal/lending';
import { asc, inArray, notExists, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../db/client';
import { credits, expectedDeductions, installments } from '../../db/schema/credits';
import { requests } from '../../db/schema/origination';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { buildCredit, insertCredits, type CreditRows } from './disbursement';

/** What a write left, read back in the transaction before it is rolled back. */
class RolledBack {
  constructor(readonly rows: unknown) {}
}

/**
 * insertCredits writes schedules and deductions through insertAsJson, whose column lists come from the tables. The second
 * implementation is Drizzle's own insert of the same built credits, with the balance and next discount date summed here
 * from the schedule: every column of every row must read back the same, the credit's folio (a serial) aside.
 */
describe.each(ENGINES)('credits written by insertCredits (%s)', (engine) => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp(engine, { seed: (db, now) => seedDemoPortfolio(db, now, 6, { renewals: false }) });
  });
  afterAll(() => ctx?.close());

  /** Credits built for requests that have none, some with a history as the demo's seed writes it. */
  const built = async (): Promise<CreditRows[]> => {
    const open = await ctx.system((tx) =>
      tx
        .select()
        .from(requests)
        .where(
          notExists(
            tx
              .select({ one: sql`1` })
              .from(credits)
              .where(sql`${credits.requestId} = ${requests.id}`),
          ),
        )
        .orderBy(asc(requests.id))
        .limit(3),
    );
    expect(open).toHaveLength(3);
    const rows = open.map((request, index) =>
      buildCredit({
        requestId: request.id,
        clientId: request.clientId,
        companyId: request.companyId,
        agreementId: request.agreementId,
        productId: request.productId,
        employeeNumber: request.employeeNumber,
        amount: ['15000.00', '8250.50', '40000.00'][index]!,
        term: [12, 6, 24][index]!,
        clabe: '002180700000000019',
        frequency: 'quincenal',
        calendar: { frequency: 'quincenal' },
        product: {
          name: 'Crédito de prueba',
          annualRatePct: '36.0000',
          ivaRatePct: '16.0000',
          openingFeePct: '2.0000',
          openingFeeFinanced: index !== 1,
          moratoryRatePct: '72.0000',
          lateFee: '150.00',
        },
        disbursementDate: '2026-03-10',
        disbursedBy: null,
        createdAt: new Date('2026-03-10T17:30:00.123Z'),
      }),
    );
    // The first credit fresh; the second's first row with only its principal paid; the third's first rows paid and
    // their deductions recibido (the seed's history). Rows of one batch name different columns, the first the fewest.
    const [, partial, history] = rows as [CreditRows, CreditRows, CreditRows];
    for (const row of history.installments.slice(0, 3))
      Object.assign(row, { paidPrincipal: row.principal, paidInterest: row.interest, paidIva: row.iva });
    for (const deduction of history.deductions.slice(0, 3)) deduction.state = 'recibido';
    partial.installments[0]!.paidPrincipal = partial.installments[0]!.principal;
    return rows;
  };

  /** Runs `write` and reads back what it wrote, then rolls it back, so each write starts from the same database. */
  const written = async (entries: CreditRows[], write: (tx: Tx) => Promise<unknown>) => {
    const ids = entries.map((entry) => entry.credit.id);
    const outcome = await ctx
      .system(async (tx) => {
        await write(tx);
        const credit = await tx.select().from(credits).where(inArray(credits.id, ids)).orderBy(asc(credits.id));
        const schedule = await tx
          .select()
          .from(installments)
          .where(inArray(installments.creditId, ids))
          .orderBy(asc(installments.creditId), asc(installments.number));
        const deductions = await tx
          .select()
          .from(expectedDeductions)
          .where(inArray(expectedDeductions.creditId, ids))
          .orderBy(asc(expectedDeductions.creditId), asc(expectedDeductions.period));
        throw new RolledBack({ credits: credit.map(({ number: _number, ...rest }) => rest), schedule, deductions });
      })
      .catch((error: unknown) => {
        if (error instanceof RolledBack) return error.rows;
        throw error;
      });
    return outcome as {
      credits: object[];
      schedule: (typeof installments.$inferSelect)[];
      deductions: (typeof expectedDeductions.$inferSelect)[];
    };
  };

  it('writes every column of credits, schedules and deductions as Drizzle’s own insert writes them', async () => {
    const entries = await built();
    const byInsertCredits = await written(entries, (tx) => insertCredits(tx, entries));
    const byDrizzle = await written(entries, async (tx) => {
      // What a credit owes at the start, and its first discount date, summed here from its schedule.
      const owed = (entry: CreditRows) =>
        formatCents(
          entry.installments.reduce(
            (sum, row) =>
              sum +
              parseCents(row.principal, 'capital') +
              parseCents(row.interest, 'interés') +
              parseCents(row.iva, 'IVA') -
              parseCents(row.paidPrincipal ?? '0', 'capital') -
              parseCents(row.paidInterest ?? '0', 'interés') -
              parseCents(row.paidIva ?? '0', 'IVA'),
            0n,
          ),
        );
      await tx
        .insert(credits)
        .values(
          entries.map((entry) => ({ ...entry.credit, outstandingBalance: owed(entry), nextDiscountDate: entry.installments[0]!.dueDate })),
        );
      await tx.insert(installments).values(entries.flatMap((entry) => entry.installments));
      await tx.insert(expectedDeductions).values(entries.flatMap((entry) => entry.deductions));
    });
    expect(byInsertCredits.schedule).toHaveLength(12 + 6 + 24);
    expect(byInsertCredits.deductions).toHaveLength(12 + 6 + 24);
    // The history and the partial payment were written, not left at the defaults.
    expect(byInsertCredits.schedule.filter((row) => row.paidPrincipal !== '0.00')).toHaveLength(4);
    expect(byInsertCredits.schedule.filter((row) => row.paidInterest !== '0.00')).toHaveLength(3);
    expect(byInsertCredits.deductions.filter((row) => row.state === 'recibido')).toHaveLength(3);
    expect(byInsertCredits).toEqual(byDrizzle);
  });
});
