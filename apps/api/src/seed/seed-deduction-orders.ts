import { and, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { agreements } from '../db/schema/agreements';
import { credits } from '../db/schema/credits';
import { companies } from '../db/schema/users';
import {
  generateDeductionOrder,
  issueDeductionOrder,
  substituteDeductionOrder,
} from '../modules/deduction-orders/deduction-orders.service';
import { mexicoToday } from '../modules/shared/business-date';
import { seedClerk } from './seed-payment-files';

/** An emitted cédula of the next payday, waiting for the portfolio change that makes it sustituida. */
export interface UpcomingOrder {
  id: string;
  agreementId: string;
}

/**
 * Before the demo's renewals (seed-renewals.ts): in each company, the agreement with the most credits up to date gets
 * the cédula of its next payday generated and emitted today, as Cartera does before the cut-off. The renewals disbursed
 * afterwards pay some of its credits off and start new ones, so the emitted cédula no longer says what the portfolio
 * owes on that payday: `substituteUpcomingOrders` substitutes it, as the screen's Sustituir does.
 */
export async function emitUpcomingOrders(tx: Tx, now: Date): Promise<UpcomingOrder[]> {
  const clerk = await seedClerk(tx);
  if (!clerk) return [];
  const today = mexicoToday(now);
  const emittedAt = new Date(now.getTime() - 30 * 60_000);
  const upcoming: UpcomingOrder[] = [];
  for (const company of await tx.select({ id: companies.id }).from(companies)) {
    const [busiest] = await tx
      .select({ agreementId: credits.agreementId })
      .from(credits)
      .innerJoin(agreements, eq(agreements.id, credits.agreementId))
      .where(and(eq(credits.companyId, company.id), eq(credits.status, 'vigente'), eq(credits.daysPastDue, 0), eq(agreements.active, true)))
      .groupBy(credits.agreementId)
      .orderBy(desc(sql`count(*)`), credits.agreementId)
      .limit(1);
    if (!busiest) continue;
    const draft = await generateDeductionOrder(tx, clerk.actor, { agreementId: busiest.agreementId, today, now: emittedAt });
    const issued = await issueDeductionOrder(tx, clerk.actor, { id: draft.id, today, now: emittedAt });
    upcoming.push({ id: issued.id, agreementId: busiest.agreementId });
  }
  return upcoming;
}

/** After the renewals: each upcoming cédula substituted by the one computed now, the difference listed. */
export async function substituteUpcomingOrders(tx: Tx, upcoming: readonly UpcomingOrder[], now: Date): Promise<void> {
  const clerk = await seedClerk(tx);
  if (!clerk) return;
  const today = mexicoToday(now);
  for (const order of upcoming) await substituteDeductionOrder(tx, clerk.actor, { id: order.id, today, now });
}
