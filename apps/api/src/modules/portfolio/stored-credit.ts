import { asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { jsonList, jsonObject, jsonStatement } from '../../db/json-list';
import { agreements } from '../../db/schema/agreements';
import { credits, expectedDeductions, installments } from '../../db/schema/credits';
import { clients, requests } from '../../db/schema/origination';
import { companies, users } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';

/**
 * A credit as stored, with its client, names, schedule and deductions: what the payoff and a settlement letter read,
 * and what the credit view (credits/credits.queries.ts) shows with more beside it.
 */

/** A credit with its client, names and folios, schedule and expected deductions, as stored (db/json-list.ts). */
export const storedCredit = {
  credit: jsonObject(getTableColumns(credits)),
  client: jsonObject(getTableColumns(clients)),
  agreement: agreements.name,
  company: companies.name,
  requestNumber: requests.number,
  disbursedBy: users.email,
  schedule: jsonList(
    getTableColumns(installments),
    { from: sql`from ${installments}`, where: eq(installments.creditId, credits.id), orderBy: [asc(installments.number)] },
    (row) => row,
  ),
  deductions: jsonList(
    {
      period: expectedDeductions.period,
      discountDate: expectedDeductions.discountDate,
      amount: expectedDeductions.amount,
      state: expectedDeductions.state,
    },
    {
      from: sql`from ${expectedDeductions}`,
      where: eq(expectedDeductions.creditId, credits.id),
      orderBy: [asc(expectedDeductions.period)],
    },
    (row) => row,
  ),
};

const CREDIT_JOINS = sql`from ${credits}
  inner join ${clients} on ${clients.id} = ${credits.clientId}
  inner join ${agreements} on ${agreements.id} = ${credits.agreementId}
  inner join ${companies} on ${companies.id} = ${credits.companyId}
  inner join ${requests} on ${requests.id} = ${credits.requestId}
  left join ${users} on ${users.id} = ${credits.disbursedBy}`;

const STORED_CREDIT = jsonStatement(jsonObject(storedCredit), CREDIT_JOINS);

/** A credit with its client, schedule and expected deductions, as stored; 404 when it is not the user's to see. */
export async function loadCreditRows(tx: Tx, id: string) {
  const [row] = await STORED_CREDIT.run(tx, sql`where ${credits.id} = ${id}`);
  if (!row) throw new HttpProblem(404, 'Crédito no encontrado', 'El crédito no existe.');
  return row;
}
