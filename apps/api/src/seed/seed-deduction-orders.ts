import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { agreements } from '../db/schema/agreements';
import { credits } from '../db/schema/credits';
import {
  generateDeductionOrder,
  issueDeductionOrder,
  substituteDeductionOrder,
} from '../modules/deduction-orders/deduction-orders.service';
import { mexicoToday } from '../modules/shared/business-date';
import { seedClerk } from './seed-payment-files';

/**
 * The demo's one sustituida cédula (issue 46), made the way Cartera makes one. Before the demo's renewals
 * (seed-renewals.ts), the agreement with the most credits up to date gets the cédula of its next payday generated and
 * emitted, as Cartera does before the cut-off; the renewals disbursed afterwards pay some of its credits off and start
 * new ones, so that cédula no longer says what the portfolio owes on the payday, and `substituteUpcomingOrder`
 * substitutes it through the module's own Sustituir: the renewed credits become bajas (renovación), the difference
 * listed on the screen. Returns the emitted cédula's id, or null when the demo has no such agreement.
 */
export async function emitUpcomingOrder(tx: Tx, now: Date): Promise<string | null> {
  const clerk = await seedClerk(tx);
  if (!clerk) return null;
  const today = mexicoToday(now);
  const [busiest] = await tx
    .select({ agreementId: credits.agreementId })
    .from(credits)
    .innerJoin(agreements, eq(agreements.id, credits.agreementId))
    .where(and(eq(credits.status, 'vigente'), eq(credits.daysPastDue, 0), eq(agreements.active, true)))
    .groupBy(credits.agreementId, agreements.code)
    .orderBy(desc(sql`count(*)`), asc(agreements.code))
    .limit(1);
  if (!busiest) return null;
  // Half an hour before the renewals: emitted, then the portfolio changed.
  const emittedAt = new Date(now.getTime() - 30 * 60_000);
  const draft = await generateDeductionOrder(tx, clerk.actor, { agreementId: busiest.agreementId, today, now: emittedAt });
  const issued = await issueDeductionOrder(tx, clerk.actor, { id: draft.id, today, now: emittedAt });
  return issued.id;
}

/** After the renewals: the upcoming cédula substituted by the one computed now (the real service, before the cut-off). */
export async function substituteUpcomingOrder(tx: Tx, id: string | null, now: Date): Promise<void> {
  if (id === null) return;
  const clerk = await seedClerk(tx);
  if (!clerk) return;
  // A small demo may renew none of the credits it instructs: then it still stands, and nothing is substituted.
  const { rows } = (await tx.execute(sql`
    select exists (select 1 from deduction_order_lines l join credits c on c.id = l.credit_id
                   where l.order_id = ${id} and l.movement <> 'baja' and c.renewed_by_credit_id is not null) as changed`)) as unknown as {
    rows: { changed: boolean }[];
  };
  if (!rows[0]?.changed) return;
  await substituteDeductionOrder(tx, clerk.actor, { id, today: mexicoToday(now), now });
}
