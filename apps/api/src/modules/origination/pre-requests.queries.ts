import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { preRequestInputOf, type OriginationCatalog, type PreRequest, type PreRequestStatus } from '@portal/contract';
import type { Db } from '../../db/client';
import { fixedSelect } from '../../db/fixed-select';
import { trimNumeric } from '../../db/numeric';
import { agreementProducts, agreements } from '../../db/schema/agreements';
import { clients, preRequests } from '../../db/schema/origination';
import { users } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { fixedCount, listOrder, type Paged, pagedList, type SortMap } from '../../http/pagination';
import { toProduct } from '../shared/products';
import { preRequestFolio } from '../shared/folios';

const preRequestList = fixedSelect(
  { request: preRequests, client: clients, agreement: agreements.name, product: agreementProducts.name, createdBy: users.email },
  (select) =>
    select
      .from(preRequests)
      .innerJoin(clients, eq(clients.id, preRequests.clientId))
      .innerJoin(agreements, eq(agreements.id, preRequests.agreementId))
      .innerJoin(agreementProducts, eq(agreementProducts.id, preRequests.productId))
      .leftJoin(users, eq(users.id, preRequests.createdBy)),
);
const select = (db: Db) => preRequestList.in(db);

const SORT: SortMap = {
  folio: preRequests.number,
  createdAt: preRequests.createdAt,
  amount: preRequests.amount,
  status: preRequests.status,
};

type Row = Awaited<ReturnType<typeof select>>[number];

function toPreRequest({ request, client, agreement, product, createdBy }: Row): PreRequest {
  return {
    id: request.id,
    folio: preRequestFolio(request.number),
    status: request.status,
    // The pre-request stores the loan; its client, the CURP and names.
    ...preRequestInputOf({ ...request, ...client }),
    agreement,
    product,
    result: request.result,
    reasons: request.reasons as PreRequest['reasons'],
    capacity: request.capacity,
    installment: request.installment,
    cat: request.cat,
    createdBy,
    createdAt: request.createdAt.toISOString(),
    version: request.version,
  };
}

export async function loadPreRequest(db: Db, id: string): Promise<PreRequest> {
  const [row] = await select(db).where(eq(preRequests.id, id));
  if (!row) throw new HttpProblem(404, 'Pre-solicitud no encontrada', 'La pre-solicitud no existe.');
  return toPreRequest(row);
}

const preRequestCount = fixedCount((select) => select.from(preRequests));

/** The clerk's own pre-requests, newest first by default. */
export function listPreRequests(
  db: Db,
  userId: string,
  query: { page: number; pageSize: number; status?: PreRequestStatus; sort?: string },
): Promise<Paged<PreRequest>> {
  const where: SQL | undefined = and(eq(preRequests.createdBy, userId), query.status ? eq(preRequests.status, query.status) : undefined);
  const order = listOrder(SORT, query.sort, { field: 'createdAt', descending: true }, preRequests.number);
  return pagedList(
    query,
    select(db)
      .where(where)
      .orderBy(...order),
    preRequestCount.in(db).where(where),
    toPreRequest,
  );
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
