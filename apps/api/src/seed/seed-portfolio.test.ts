import { and, asc, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAST_DAY_OF_MONTH, buildSchedule, checkClabe, checkCurp, firstPayday } from '@portal/lending';
import { PRE_REQUEST_STATUSES, REQUEST_STATUSES } from '@portal/contract';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../test/test-app';
import { agreements } from '../db/schema/agreements';
import { credits, expectedDeductions, installments } from '../db/schema/credits';
import { clients, preRequests, requestDocuments, requests } from '../db/schema/origination';
import { paymentFiles, payments } from '../db/schema/payments';
import { deductionOrders } from '../db/schema/deduction-orders';
import { differencesBetween } from '../modules/deduction-orders/deduction-orders.queries';
import { businessDates, dayCloses } from '../db/schema/portfolio';
import { loanPricing, payrollCalendarOf } from '../modules/shared/products';
import { DEMO_CREDITS, seedDemoPortfolio } from './seed-portfolio';

describe.each(BEHAVIOUR_ENGINES)('Demo portfolio seed (%s)', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(engine);
    await seedDemoPortfolio(ctx.db, ctx.clock.now());
  });
  afterAll(() => ctx.close());

  it('has pre-requests and requests in every status, and the disbursed credits with documents', async () => {
    const preByStatus = await ctx.system((db) =>
      db.select({ status: preRequests.status, total: count() }).from(preRequests).groupBy(preRequests.status),
    );
    expect(preByStatus.map((row) => row.status).sort()).toEqual([...PRE_REQUEST_STATUSES].sort());
    const byStatus = await ctx.system((db) =>
      db.select({ status: requests.status, total: count() }).from(requests).groupBy(requests.status),
    );
    expect(byStatus.map((row) => row.status).sort()).toEqual([...REQUEST_STATUSES].sort());
    // The demo's credits, and the renewals disbursed today that paid some of them off (seed-renewals.ts).
    const renewed = await ctx.system((db) =>
      db
        .select({ agreementId: credits.agreementId, renewedBy: credits.renewedByCreditId })
        .from(credits)
        .where(eq(credits.liquidationReason, 'renovacion')),
    );
    expect(renewed.length).toBeGreaterThanOrEqual(3);
    expect(new Set(renewed.map((row) => row.agreementId)).size).toBeGreaterThanOrEqual(2);
    expect(renewed.every((row) => row.renewedBy !== null)).toBe(true);
    expect(byStatus.find((row) => row.status === 'dispersada')!.total).toBe(DEMO_CREDITS + renewed.length);
    const [made] = await ctx.system((db) => db.select({ total: count() }).from(credits));
    expect(made!.total).toBe(DEMO_CREDITS + renewed.length);
    const [docs] = await ctx.system((db) => db.select({ total: count() }).from(requestDocuments));
    const [all] = await ctx.system((db) => db.select({ total: count() }).from(requests));
    expect(docs!.total).toBe(all!.total * 3);
    const people = await ctx.system((db) => db.select({ curp: clients.curp }).from(clients));
    expect(people.every((client) => checkCurp(client.curp, '2026-11-23').ok)).toBe(true);
    const accounts = await ctx.system((db) => db.select({ clabe: requests.clabe }).from(requests));
    expect(accounts.every((request) => checkClabe(request.clabe).ok)).toBe(true);
  });

  it('gives every credit the schedule buildSchedule makes from its snapshot, and one expected deduction per installment', async () => {
    const rows = await ctx.system((db) =>
      db.select({ credit: credits, agreement: agreements }).from(credits).innerJoin(agreements, eq(agreements.id, credits.agreementId)),
    );
    const [deductions] = await ctx.system((db) => db.select({ total: count() }).from(expectedDeductions));
    expect(deductions!.total).toBe(rows.reduce((sum, row) => sum + row.credit.term, 0));
    // A credit a renewal paid off carries the payoff in its schedule (the renewals' tests check it): the others, by folio.
    const kept = rows
      .filter((row) => row.credit.liquidationReason !== 'renovacion')
      .sort((left, right) => left.credit.number - right.credit.number);
    for (const { credit, agreement } of kept.slice(0, 40)) {
      const calendar = payrollCalendarOf(agreement);
      const first = firstPayday(calendar, credit.disbursementDate);
      expect(credit.firstDueDate).toBe(first.dueDate);
      const { annualRate, ivaRate } = loanPricing(credit);
      const expected = buildSchedule({
        principal: credit.principal,
        annualRate,
        ivaRate,
        term: credit.term,
        frequency: agreement.frequency,
        firstDueDate: first.nominal,
        payDay: calendar.payDay ?? LAST_DAY_OF_MONTH,
        disbursementDate: credit.disbursementDate,
      });
      // The schedule carries `days` on a first row charged by days; the table stores the amounts.
      expected.rows = expected.rows.map(({ days: _days, ...row }) => row);
      const stored = await ctx.system((db) =>
        db
          .select({
            number: installments.number,
            dueDate: installments.dueDate,
            principal: installments.principal,
            interest: installments.interest,
            iva: installments.iva,
            payment: installments.payment,
            balance: installments.balance,
          })
          .from(installments)
          .where(eq(installments.creditId, credit.id))
          .orderBy(asc(installments.number)),
      );
      expect(stored).toEqual(expected.rows);
      expect(credit.installment).toBe(expected.installment);
    }
  });

  it('pays every paid installment through applied payments: what the rows say was paid, the payments add up to', async () => {
    // Sums per credit in cents, added here from the raw rows (not by the code that wrote them).
    const cents = (value: string) => BigInt(value.replace('.', ''));
    const paidRows = await ctx.system((db) =>
      db
        .select({
          creditId: installments.creditId,
          principal: installments.paidPrincipal,
          interest: installments.paidInterest,
          iva: installments.paidIva,
        })
        .from(installments),
    );
    const applied = await ctx.system((db) =>
      db
        .select({
          creditId: payments.creditId,
          principal: payments.principal,
          interest: payments.interest,
          iva: payments.iva,
          amount: payments.amount,
        })
        .from(payments)
        .where(eq(payments.status, 'aplicado')),
    );
    const add = (rows: { creditId: string; principal: string; interest: string; iva: string }[]) => {
      const totals = new Map<string, bigint>();
      for (const row of rows)
        totals.set(row.creditId, (totals.get(row.creditId) ?? 0n) + cents(row.principal) + cents(row.interest) + cents(row.iva));
      for (const [key, value] of totals) if (value === 0n) totals.delete(key);
      return totals;
    };
    const owedByRows = add(paidRows);
    expect(owedByRows.size).toBeGreaterThan(DEMO_CREDITS / 2);
    expect(add(applied)).toEqual(owedByRows);
  });

  it("records yesterday as each company's last close, so Historial de cierres starts with it", async () => {
    const today = ctx.clock.now().toLocaleDateString('en-CA', { timeZone: 'America/Mexico_City' });
    const yesterday = new Date(Date.parse(`${today}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const closes = await ctx.system((db) => db.select().from(dayCloses));
    const dates = await ctx.system((db) => db.select().from(businessDates));
    expect(closes.length).toBeGreaterThan(0);
    expect(closes.map((close) => close.businessDate)).toEqual(closes.map(() => yesterday));
    expect(closes.map((close) => close.companyId).sort()).toEqual(dates.map((date) => date.companyId).sort());
    // Yesterday's close aged the credits disbursed before today: not today's renewals (seed-renewals.ts).
    const [made] = await ctx.system((db) => db.select({ total: count() }).from(credits));
    const [renewals] = await ctx.system((db) =>
      db
        .select({ total: count() })
        .from(requests)
        .where(sql`cardinality(${requests.renews}) > 0`),
    );
    expect(closes.reduce((sum, close) => sum + close.creditsProcessed, 0)).toBe(made!.total - renewals!.total);
  });

  it('holds one sustituida cédula: a next payday emitted before the renewals and substituted after them, the renewals its difference', async () => {
    const orders = await ctx.system((db) => db.select().from(deductionOrders));
    const replaced = orders.filter((order) => order.status === 'sustituida');
    expect(replaced).toHaveLength(1);
    const old = replaced[0]!;
    const substitutes = orders.filter((order) => order.supersedesId === old.id);
    expect(substitutes).toHaveLength(1);
    const substitute = substitutes[0]!;
    expect(substitute).toMatchObject({ status: 'emitida', payday: old.payday, agreementId: old.agreementId, baselineId: old.baselineId });
    // The payday was still open (before its cut-off): the substitution was the screen's, not history's.
    expect(old.cutOffDate >= old.businessDate).toBe(true);
    expect(old.payday > old.businessDate).toBe(true);
    // What changed, from the renewals rather than the cédula's own code: each credit of the agreement the emitted cédula
    // instructed that a renewal then paid off becomes a baja; each renewal of the agreement whose first payday it is, an
    // alta.
    const { rows } = (await ctx.system((db) =>
      db.execute(sql`
        select 'CR-' || lpad(c.number::text, 8, '0') as folio, 'baja' as movement from credits c
        join deduction_order_lines l on l.credit_id = c.id and l.order_id = ${old.id} and l.movement <> 'baja'
        where c.agreement_id = ${old.agreementId} and c.liquidation_reason = 'renovacion'
        union all
        select 'CR-' || lpad(c.number::text, 8, '0'), 'alta' from credits c
        join requests r on r.id = c.request_id and cardinality(r.renews) > 0
        where c.agreement_id = ${old.agreementId} and c.first_due_date = ${old.payday}::date`),
    )) as unknown as { rows: { folio: string; movement: string }[] };
    expect(rows.length).toBeGreaterThan(0);
    const differences = await ctx.system((db) => differencesBetween(db, substitute.id, old.id));
    expect(differences.map((row) => [row.creditFolio, row.after?.movement ?? null]).sort()).toEqual(
      rows.map((row) => [row.folio, row.movement]).sort(),
    );
  });

  it("leaves one employer's last payday unanswered: the federal agreement's cédula sent, no file, its deductions en tránsito", async () => {
    const today = ctx.clock.now().toLocaleDateString('en-CA', { timeZone: 'America/Mexico_City' });
    const [federal] = await ctx.system((db) => db.select().from(agreements).where(eq(agreements.code, 'IMSS-FED')));
    const sent = await ctx.system((db) =>
      db
        .select()
        .from(deductionOrders)
        .where(and(eq(deductionOrders.status, 'enviada'), sql`${deductionOrders.payday} < ${today}::date`)),
    );
    const files = await ctx.system((db) =>
      db.select({ agreementId: paymentFiles.agreementId, discountDate: paymentFiles.discountDate }).from(paymentFiles),
    );
    const answered = new Set(files.map((file) => `${file.agreementId}|${file.discountDate}`));
    const unanswered = sent.filter((order) => !answered.has(`${order.agreementId}|${order.payday}`));
    // Every sent cédula of a past payday has its employer's file but one: the federal agreement's latest.
    expect(unanswered.map((order) => [order.agreementId, order.payday])).toEqual([
      [
        federal!.id,
        sent
          .filter((order) => order.agreementId === federal!.id)
          .map((order) => order.payday)
          .sort()
          .at(-1),
      ],
    ]);
    const awaiting = unanswered[0]!;
    // Within the agreement's remittance lag (15 days; its paydays are 14 days apart): what the cédula instructs is en
    // tránsito, neither received nor overdue.
    expect(Date.parse(today) - Date.parse(awaiting.payday)).toBeLessThanOrEqual(federal!.remittanceLagDays * 86_400_000);
    const { rows } = (await ctx.system((db) =>
      db.execute(sql`
        select e.state, count(*)::int as total from deduction_order_lines l
        join expected_deductions e on e.credit_id = l.credit_id and e.discount_date = ${awaiting.payday}::date
        where l.order_id = ${awaiting.id} and l.movement <> 'baja' group by e.state`),
    )) as unknown as { rows: { state: string; total: number }[] };
    expect(rows.map((row) => row.state)).toEqual(['en tránsito']);
    expect(rows[0]!.total).toBe(awaiting.altasCount + awaiting.cambiosCount + awaiting.continuingCount);
  });
});
