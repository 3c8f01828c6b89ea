import { and, asc, eq } from 'drizzle-orm';
import { formatCents, parseCents } from '@portal/lending';
import type { Credit } from '@portal/contract';
import type { Db } from '../../db/client';
import { trimNumeric } from '../../db/numeric';
import { agreements } from '../../db/schema/agreements';
import { credits, expectedDeductions, installments } from '../../db/schema/credits';
import { clients, requests } from '../../db/schema/origination';
import { users } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { creditFolio, requestFolio } from '../shared/folios';

/** The credit's read-only view: its terms snapshot, its balance and its schedule with each deduction's state. */
export async function loadCredit(db: Db, id: string): Promise<Credit> {
  const [row] = await db
    .select({ credit: credits, client: clients, agreement: agreements.name, requestNumber: requests.number, disbursedBy: users.email })
    .from(credits)
    .innerJoin(clients, eq(clients.id, credits.clientId))
    .innerJoin(agreements, eq(agreements.id, credits.agreementId))
    .innerJoin(requests, eq(requests.id, credits.requestId))
    .leftJoin(users, eq(users.id, credits.disbursedBy))
    .where(eq(credits.id, id));
  if (!row) throw new HttpProblem(404, 'Crédito no encontrado', 'El crédito no existe.');
  const schedule = await db
    .select({ installment: installments, deductionState: expectedDeductions.state })
    .from(installments)
    .innerJoin(expectedDeductions, and(eq(expectedDeductions.creditId, installments.creditId), eq(expectedDeductions.period, installments.number)))
    .where(eq(installments.creditId, id))
    .orderBy(asc(installments.number));
  const paidPrincipal = schedule.reduce((sum, { installment }) => sum + parseCents(installment.paidPrincipal, 'paidPrincipal'), 0n);
  const { credit, client } = row;
  return {
    id: credit.id,
    folio: creditFolio(credit.number),
    status: credit.status,
    requestId: credit.requestId,
    requestFolio: requestFolio(row.requestNumber),
    clientId: client.id,
    clientName: [client.firstNames, client.lastName1, client.lastName2].filter(Boolean).join(' '),
    curp: client.curp,
    agreementId: credit.agreementId,
    agreement: row.agreement,
    employeeNumber: credit.employeeNumber,
    product: {
      name: credit.productName,
      annualRatePct: trimNumeric(credit.annualRatePct),
      ivaRatePct: trimNumeric(credit.ivaRatePct),
      openingFeePct: trimNumeric(credit.openingFeePct),
      openingFeeFinanced: credit.openingFeeFinanced,
    },
    frequency: credit.frequency,
    term: credit.term,
    amount: credit.amount,
    openingFee: credit.openingFee,
    openingFeeIva: credit.openingFeeIva,
    principal: credit.principal,
    netDisbursed: credit.netDisbursed,
    installment: credit.installment,
    cat: credit.cat,
    clabe: credit.clabe,
    disbursementDate: credit.disbursementDate,
    firstDueDate: credit.firstDueDate,
    lastDueDate: credit.lastDueDate,
    balance: formatCents(parseCents(credit.principal, 'principal') - paidPrincipal),
    daysPastDue: credit.daysPastDue,
    disbursedBy: row.disbursedBy,
    createdAt: credit.createdAt.toISOString(),
    installments: schedule.map(({ installment, deductionState }) => ({
      number: installment.number,
      dueDate: installment.dueDate,
      principal: installment.principal,
      interest: installment.interest,
      iva: installment.iva,
      payment: installment.payment,
      balance: installment.balance,
      status: installment.status,
      deductionState,
    })),
  };
}
