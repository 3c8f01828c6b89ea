import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { assessRenewal, type RenewalRule } from '@portal/lending';
import type { RenewableCredits, RenewalVerdict } from '@portal/contract';
import type { Db, Tx } from '../../db/client';
import { agreements } from '../../db/schema/agreements';
import { credits } from '../../db/schema/credits';
import { clients } from '../../db/schema/origination';
import { companies } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { creditPayoff } from '../portfolio/payoff';
import { businessDateOf } from '../shared/business-date';
import { creditFolio } from '../shared/folios';

/**
 * Renewals in origination (docs/domain.md, "Renewals"): the client's active credits a request names, each with its
 * payoff at the payoff date — the settlement letter's computation (portfolio/payoff.ts `creditPayoff`: moratory
 * interest and fees to that date, deductions en tránsito discounted) — and the verdict of packages/lending
 * `assessRenewal`: the net amount, the company's minimum, the product's renewal rule.
 */

const invalid = (message: string) => new HttpProblem(400, 'Datos inválidos', 'Revisa los campos marcados.', [{ field: 'renews', message }]);

const ACTIVE = ['vigente', 'vencido'] as const;

/** The payoff the renewal pays a credit at `date`: the letter's saldo final (gross balance less en tránsito). */
async function renewedCredit(tx: Db | Tx, row: { id: string; number: number; status: string; daysPastDue: number }, date: string) {
  const quote = await creditPayoff(tx as Tx, row.id, async () => date, { date });
  return {
    creditId: row.id,
    folio: creditFolio(row.number),
    status: row.status,
    installment: quote.installment,
    paidInstallments: quote.paymentsMade,
    daysPastDue: row.daysPastDue,
    payoff: quote.finalBalance,
    grossBalance: quote.grossBalance,
    inTransit: quote.inTransit,
  };
}

/** A CURP's active credits in the user's companies, with their payoffs at the company's business date. */
export async function renewableCredits(tx: Db | Tx, curp: string, today: string): Promise<RenewableCredits> {
  const rows = await tx
    .select({
      id: credits.id,
      number: credits.number,
      status: credits.status,
      daysPastDue: credits.daysPastDue,
      companyId: credits.companyId,
      agreementId: credits.agreementId,
      agreement: agreements.name,
      outstandingBalance: credits.outstandingBalance,
      minimumNet: companies.renewalMinimumNet,
    })
    .from(credits)
    .innerJoin(clients, eq(clients.id, credits.clientId))
    .innerJoin(agreements, eq(agreements.id, credits.agreementId))
    .innerJoin(companies, eq(companies.id, credits.companyId))
    .where(and(eq(clients.curp, curp), inArray(credits.status, ACTIVE), isNull(credits.renewedByCreditId)))
    .orderBy(asc(credits.number));
  const payoffDate = rows[0] ? await businessDateOf(tx as Tx, rows[0].companyId, today) : today;
  const list = [];
  for (const row of rows) {
    const date = await businessDateOf(tx as Tx, row.companyId, today);
    list.push({
      ...(await renewedCredit(tx, row, date)),
      agreementId: row.agreementId,
      agreement: row.agreement,
      outstandingBalance: row.outstandingBalance,
    });
  }
  return { payoffDate, minimumNet: rows[0]?.minimumNet ?? '0.00', credits: list };
}

/**
 * The credits a request renews, checked: each the client's (same CURP) of the request's company, active and not
 * renewed already. Another company's credit is as missing as one that does not exist.
 */
export async function loadRenewed(tx: Db | Tx, companyId: string, curp: string, renews: readonly string[]) {
  const rows = await tx
    .select({
      id: credits.id,
      number: credits.number,
      status: credits.status,
      daysPastDue: credits.daysPastDue,
      installment: credits.installment,
      companyId: credits.companyId,
      curp: clients.curp,
      renewedByCreditId: credits.renewedByCreditId,
    })
    .from(credits)
    .innerJoin(clients, eq(clients.id, credits.clientId))
    .where(inArray(credits.id, [...renews]));
  return renews.map((id) => {
    const row = rows.find((candidate) => candidate.id === id);
    if (!row || row.companyId !== companyId) throw invalid('El crédito a renovar no existe o no es de la empresa de la solicitud.');
    const folio = creditFolio(row.number);
    if (row.curp !== curp) throw invalid(`El crédito ${folio} no es de la CURP ${curp}; solo se renuevan créditos del mismo acreditado.`);
    if (row.renewedByCreditId !== null) throw invalid(`El crédito ${folio} ya fue renovado.`);
    if (!(ACTIVE as readonly string[]).includes(row.status))
      throw invalid(`El crédito ${folio} está ${row.status}; solo se renuevan créditos activos.`);
    return row;
  });
}

/** The renewal's verdict at `payoffDate` for a new credit of these figures (the quote's or the built credit's). */
export async function renewalVerdict(
  tx: Db | Tx,
  renewed: readonly { id: string; number: number; status: string; daysPastDue: number }[],
  terms: {
    companyId: string;
    payoffDate: string;
    amount: string;
    openingFee: string;
    openingFeeIva: string;
    openingFeeFinanced: boolean;
    rule: RenewalRule;
    otherDeductionsAfter: string;
  },
): Promise<{ renewal: RenewalVerdict; reasons: { code: string; message: string }[] }> {
  const [company] = await tx.select({ minimumNet: companies.renewalMinimumNet }).from(companies).where(eq(companies.id, terms.companyId));
  const minimumNet = company?.minimumNet ?? '0.00';
  const list = [];
  for (const row of renewed) list.push(await renewedCredit(tx, row, terms.payoffDate));
  const result = assessRenewal({
    amount: terms.amount,
    openingFee: terms.openingFee,
    openingFeeIva: terms.openingFeeIva,
    openingFeeFinanced: terms.openingFeeFinanced,
    renewed: list,
    rule: terms.rule,
    minimumNet,
  });
  return {
    renewal: {
      payoffDate: terms.payoffDate,
      credits: list,
      otherDeductionsAfter: terms.otherDeductionsAfter,
      netDisbursement: result.netDisbursement,
      payoffTotal: result.payoffTotal,
      netAmount: result.netAmount,
      minimumNet,
      rule: terms.rule,
    },
    reasons: result.reasons,
  };
}
