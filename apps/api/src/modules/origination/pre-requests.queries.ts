import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import { PRE_REQUEST_VALID_DAYS, type OriginationCatalog, type PreRequest, type PreRequestStatus } from '@portal/contract';
import type { Db } from '../../db/client';
import { trimNumeric } from '../../db/numeric';
import { agreementProducts, agreements } from '../../db/schema/agreements';
import { clients, preRequests } from '../../db/schema/origination';
import { users } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { listOrder, pagedList } from '../../http/pagination';
import { toProduct } from '../agreements/products';
import { preRequestFolio } from '../shared/folios';

/**
 * A sent pre-request not converted within PRE_REQUEST_VALID_DAYS is vencida (the quote's salary and terms are stale by
 * then). Reads compute it here, in SQL, without writing; a write that depends on it stores it first
 * (expirePreRequests in the service), bumping the version, so what a reader saw is what the write then finds.
 */
export const lapseCutoff = (now: Date) => new Date(now.getTime() - PRE_REQUEST_VALID_DAYS * 86_400_000);
const lapsed = (now: Date) => sql`(${preRequests.status} = 'enviada' and ${preRequests.sentAt} < ${lapseCutoff(now).toISOString()}::timestamptz)`;
export const statusAt = (now: Date) => sql<PreRequestStatus>`(case when ${lapsed(now)} then 'vencida' else ${preRequests.status} end)`;
const versionAt = (now: Date) => sql<number>`(${preRequests.version} + case when ${lapsed(now)} then 1 else 0 end)`;

/** Still open for conversion at `now`: sent and not lapsed. */
export const openAt = (now: Date) => sql`(${preRequests.status} = 'enviada' and not ${lapsed(now)})`;

function select(db: Db, now: Date) {
  return db
    .select({ request: preRequests, status: statusAt(now), version: versionAt(now), client: clients, agreement: agreements.name, product: agreementProducts.name, createdBy: users.email })
    .from(preRequests)
    .innerJoin(clients, eq(clients.id, preRequests.clientId))
    .innerJoin(agreements, eq(agreements.id, preRequests.agreementId))
    .innerJoin(agreementProducts, eq(agreementProducts.id, preRequests.productId))
    .leftJoin(users, eq(users.id, preRequests.createdBy));
}

type Row = Awaited<ReturnType<ReturnType<typeof select>['execute']>>[number];

function toPreRequest({ request, status, version, client, agreement, product, createdBy }: Row): PreRequest {
  return {
    id: request.id,
    folio: preRequestFolio(request.number),
    status,
    curp: client.curp,
    rfc: client.rfc ?? '',
    firstNames: client.firstNames,
    lastName1: client.lastName1,
    lastName2: client.lastName2 ?? '',
    agreementId: request.agreementId,
    agreement,
    productId: request.productId,
    product,
    employeeNumber: request.employeeNumber,
    netSalary: request.netSalary,
    otherDeductions: request.otherDeductions,
    amount: request.amount,
    term: request.term,
    result: request.result,
    reasons: request.reasons as PreRequest['reasons'],
    capacity: request.capacity,
    installment: request.installment,
    cat: request.cat,
    createdBy,
    createdAt: request.createdAt.toISOString(),
    version: Number(version),
  };
}

export async function loadPreRequest(db: Db, id: string, now: Date): Promise<PreRequest> {
  const [row] = await select(db, now).where(eq(preRequests.id, id));
  if (!row) throw new HttpProblem(404, 'Pre-solicitud no encontrada', 'La pre-solicitud no existe.');
  return toPreRequest(row);
}

/** The clerk's own pre-requests, newest first by default. */
export function listPreRequests(
  db: Db,
  now: Date,
  userId: string,
  query: { page: number; pageSize: number; status?: PreRequestStatus; sort?: string },
): Promise<{ items: PreRequest[]; total: number }> {
  const status = statusAt(now);
  const where: SQL | undefined = and(eq(preRequests.createdBy, userId), query.status ? sql`${status} = ${query.status}` : undefined);
  const order = listOrder({ folio: preRequests.number, createdAt: preRequests.createdAt, amount: preRequests.amount, status }, query.sort, { field: 'createdAt', descending: true }, preRequests.number);
  return pagedList(query, select(db, now).where(where).orderBy(...order), db.select({ total: count() }).from(preRequests).where(where), toPreRequest);
}

/** The agreements in force today and their active products: what a clerk may quote. */
export async function originationCatalog(db: Db, today: string, dailyMinimumWage: string): Promise<OriginationCatalog> {
  const rows = await db
    .select({ agreement: agreements, product: agreementProducts })
    .from(agreements)
    .innerJoin(agreementProducts, and(eq(agreementProducts.agreementId, agreements.id), eq(agreementProducts.active, true)))
    .where(
      and(
        eq(agreements.active, true),
        sql`${agreements.validFrom} <= ${today}`,
        sql`(${agreements.validTo} is null or ${agreements.validTo} >= ${today})`,
      ),
    )
    .orderBy(asc(agreements.code), asc(agreementProducts.position));
  const byId = new Map<string, OriginationCatalog['agreements'][number]>();
  for (const { agreement, product } of rows) {
    const entry = byId.get(agreement.id) ?? {
      id: agreement.id,
      code: agreement.code,
      name: agreement.name,
      frequency: agreement.frequency,
      maxDeductionPct: trimNumeric(agreement.maxDeductionPct),
      payDay: agreement.payDay,
      paydayWeekday: agreement.paydayWeekday,
      cutOffLeadDays: agreement.cutOffLeadDays,
      nonWorkingDays: agreement.nonWorkingDays,
      products: [],
    };
    const { active: _active, ...offered } = toProduct(product);
    entry.products.push(offered);
    byId.set(agreement.id, entry);
  }
  return { agreements: [...byId.values()], today, dailyMinimumWage };
}
