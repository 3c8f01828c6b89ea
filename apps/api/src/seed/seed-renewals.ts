import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { preRequestInputOf, type Simulation } from '@portal/contract';
import type { Tx } from '../db/client';
import { agreementProducts, agreements } from '../db/schema/agreements';
import { auditEvents } from '../db/schema/audit';
import { credits } from '../db/schema/credits';
import { clients, requestDocuments, requests } from '../db/schema/origination';
import { judge } from '../modules/origination/pre-requests.service';
import { loadRenewed, renewalVerdict } from '../modules/origination/renewals';
import { changePortfolio } from '../modules/portfolio/change-portfolio';
import { acceptedTermsFor, buildCredit, insertCredits } from '../modules/portfolio/disbursement';
import { payOffRenewedCredits } from '../modules/portfolio/renewal';
import { businessDateOf, mexicoToday } from '../modules/shared/business-date';
import { payrollCalendarOf } from '../modules/shared/products';
import { DEFAULT_DAILY_MINIMUM_WAGE } from '../config';

/** Renewals per agreement in the demo: the first credits of each that meet their product's rule. */
const PER_AGREEMENT = 2;

/**
 * Demo renewals (docs/domain.md, "Renewals"): in each agreement, a few credits up to date with enough installments paid
 * are renewed today at the same amount and term, through the same pieces as a disbursement — the verdict with the
 * payoffs as the settlement letter computes them, the new credit, and each old one paid off through the waterfall on
 * the portfolio door — so Créditos shows them liquidated by renovación, linked both ways.
 */
export async function seedRenewals(tx: Tx, now: Date): Promise<number> {
  const today = mexicoToday(now);
  const catalog = await tx
    .select({ agreement: agreements, product: agreementProducts })
    .from(agreementProducts)
    .innerJoin(agreements, eq(agreements.id, agreementProducts.agreementId));
  let renewed = 0;
  for (const { agreement, product } of catalog) {
    const candidates = await tx
      .select({ credit: credits, request: requests, curp: clients.curp })
      .from(credits)
      .innerJoin(requests, eq(requests.id, credits.requestId))
      .innerJoin(clients, eq(clients.id, credits.clientId))
      .where(and(eq(credits.productId, product.id), inArray(credits.status, ['vigente']), eq(credits.daysPastDue, 0)))
      .orderBy(asc(credits.number))
      .limit(40);
    let done = 0;
    for (const { credit, request, curp } of candidates) {
      if (done >= PER_AGREEMENT) break;
      const payoffDate = await businessDateOf(tx, credit.companyId, today);
      const input = preRequestInputOf({ ...request, curp });
      const old = await loadRenewed(tx, credit.companyId, curp, [credit.id]);
      const simulation: Simulation = judge(
        agreement,
        product,
        { ...input, otherDeductions: '0.00' },
        payoffDate,
        DEFAULT_DAILY_MINIMUM_WAGE,
      );
      if (simulation.result !== 'pre-aprobada') continue;
      const { renewal, reasons } = await renewalVerdict(tx, old, {
        companyId: credit.companyId,
        payoffDate,
        amount: request.amount,
        openingFee: simulation.openingFee,
        openingFeeIva: simulation.openingFeeIva ?? '0.00',
        openingFeeFinanced: product.openingFeeFinanced,
        rule: { minPaidInstallments: product.renewalMinPaid, maxDaysPastDue: product.renewalMaxDaysPastDue },
        otherDeductionsAfter: '0.00',
      });
      if (reasons.length > 0) continue;
      const id = crypto.randomUUID();
      const { id: _id, number: _number, preRequestId: _pre, ...copy } = request;
      const verdict = { ...simulation, renewal };
      await tx.insert(requests).values({
        ...copy,
        id,
        otherDeductions: '0.00',
        simulation: verdict,
        installment: verdict.installment,
        acceptedTerms: { ...acceptedTermsFor(product, verdict, request.term), renewal },
        renews: [credit.id],
        status: 'dispersada',
        createdAt: now,
        updatedAt: now,
        decidedAt: now,
      });
      // The renewal's documents: the client's, as the old request kept them.
      await tx.execute(sql`
        insert into ${requestDocuments} (request_id, company_id, kind, file_name, content_type, size, sha256, content, uploaded_by, uploaded_at)
        select ${id}::uuid, company_id, kind, file_name, content_type, size, sha256, content, uploaded_by, ${now}
        from ${requestDocuments} where request_id = ${request.id}`);
      const built = buildCredit({
        calendar: payrollCalendarOf(agreement),
        requestId: id,
        clientId: credit.clientId,
        companyId: credit.companyId,
        agreementId: agreement.id,
        productId: product.id,
        employeeNumber: credit.employeeNumber,
        amount: request.amount,
        term: request.term,
        clabe: request.clabe,
        frequency: agreement.frequency,
        product: {
          name: product.name,
          annualRatePct: product.annualRatePct,
          ivaRatePct: product.ivaRatePct,
          openingFeePct: product.openingFeePct,
          openingFeeFinanced: product.openingFeeFinanced,
          moratoryRatePct: product.moratoryRatePct,
          lateFee: product.lateFee,
        },
        disbursementDate: payoffDate,
        disbursedBy: request.decidedBy,
        createdAt: now,
      });
      const creditId = await changePortfolio(tx, credit.companyId, { today, now, figures: false }, async (change) => {
        const [created] = await insertCredits(tx, [built]);
        await payOffRenewedCredits(tx, change, {
          newCreditId: created!.id,
          payoffs: renewal.credits.map((entry) => ({ creditId: entry.creditId, amount: entry.payoff })),
          valueDate: payoffDate,
          appliedBy: request.decidedBy ?? credit.disbursedBy ?? '',
          now,
        });
        return created!.id;
      });
      await tx.insert(auditEvents).values({
        occurredAt: now,
        action: 'credit.create',
        entity: 'credit',
        entityId: creditId,
        after: { requestId: id, renews: [credit.id], netAmount: renewal.netAmount },
      });
      done++;
      renewed++;
    }
  }
  return renewed;
}
