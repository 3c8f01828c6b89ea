import { and, asc, eq, gte, ilike, lte, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { bankForCode } from '@portal/lending';
import {
  preRequestInputOf,
  simulationSchema,
  type DocumentKind,
  type Request,
  type RequestSummary,
  type requestListQuerySchema,
} from '@portal/contract';
import type { Db } from '../../db/client';
import { fixedSelect } from '../../db/fixed-select';
import { containsPattern, prefixPattern, searchMatches } from '../../db/like';
import { anyOf } from '../../db/any-of';
import { matchingIds } from '../../db/company-search';
import { agreementProducts, agreements } from '../../db/schema/agreements';
import { credits } from '../../db/schema/credits';
import { clients, preRequests, requestDocuments, requests } from '../../db/schema/origination';
import { users } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { fixedCount, listOrder, type Paged, pagedList, searchCount, type SortMap } from '../../http/pagination';
import { auditHistory } from '../audit/audit';
import { creditFolio, preRequestFolio, requestFolio } from '../shared/folios';

/** Solicitudes' selects and mappers: the Capturas list, a request's detail, a stored document. */

type RequestListValues = z.output<typeof requestListQuerySchema>;

const capturer = alias(users, 'capturer');
const decider = alias(users, 'decider');

const clientName = sql<string>`concat_ws(' ', ${requests.firstNames}, ${requests.lastName1}, ${requests.lastName2})`;
const documentCount = sql<number>`(select count(*)::int from ${requestDocuments} where ${requestDocuments.requestId} = ${requests.id})`;

const SORT: SortMap = {
  folio: requests.number,
  createdAt: requests.createdAt,
  updatedAt: requests.updatedAt,
  amount: requests.amount,
  status: requests.status,
  clientName,
};

/** What a summary shows of the request itself: the list reads these, not the whole application and its simulation. */
const summaryColumns = {
  id: requests.id,
  number: requests.number,
  status: requests.status,
  firstNames: requests.firstNames,
  lastName1: requests.lastName1,
  lastName2: requests.lastName2,
  agreementId: requests.agreementId,
  amount: requests.amount,
  term: requests.term,
  installment: requests.installment,
  createdAt: requests.createdAt,
  updatedAt: requests.updatedAt,
};

const summaryFields = {
  curp: clients.curp,
  agreement: agreements.name,
  product: agreementProducts.name,
  createdBy: capturer.email,
  documents: documentCount,
};

const summaryList = fixedSelect({ request: summaryColumns, ...summaryFields }, (select) =>
  select
    .from(requests)
    .innerJoin(clients, eq(clients.id, requests.clientId))
    .innerJoin(agreements, eq(agreements.id, requests.agreementId))
    .innerJoin(agreementProducts, eq(agreementProducts.id, requests.productId))
    .leftJoin(capturer, eq(capturer.id, requests.createdBy)),
);

type SummaryRow = Awaited<ReturnType<typeof summaryList.in>>[number];

/** Who captured the request or changed its capture (data or documents), the capturer first: none of them may decide it. */
export const capturersOf = (request: { createdBy: string | null; capturedBy: string[] }): string[] => [
  ...new Set([request.createdBy, ...request.capturedBy].filter((id): id is string => id !== null)),
];

function toSummary({ request, curp, agreement, product, createdBy, documents }: SummaryRow): RequestSummary {
  return {
    id: request.id,
    folio: requestFolio(request.number),
    status: request.status,
    curp,
    clientName: [request.firstNames, request.lastName1, request.lastName2].filter(Boolean).join(' '),
    agreementId: request.agreementId,
    agreement,
    product,
    amount: request.amount,
    term: request.term,
    installment: request.installment,
    documents,
    createdBy,
    createdAt: request.createdAt.toISOString(),
    updatedAt: request.updatedAt.toISOString(),
  };
}

export async function loadRequest(db: Db, id: string): Promise<Request> {
  const [row] = await db
    .select({
      request: requests,
      ...summaryFields,
      decidedBy: decider.email,
      preRequestNumber: preRequests.number,
      creditId: credits.id,
      creditNumber: credits.number,
    })
    .from(requests)
    .innerJoin(clients, eq(clients.id, requests.clientId))
    .innerJoin(agreements, eq(agreements.id, requests.agreementId))
    .innerJoin(agreementProducts, eq(agreementProducts.id, requests.productId))
    .leftJoin(capturer, eq(capturer.id, requests.createdBy))
    .leftJoin(decider, eq(decider.id, requests.decidedBy))
    .leftJoin(preRequests, eq(preRequests.id, requests.preRequestId))
    .leftJoin(credits, eq(credits.requestId, requests.id))
    .where(eq(requests.id, id));
  if (!row) throw new HttpProblem(404, 'Solicitud no encontrada', 'La solicitud no existe.');
  const documentList = await db
    .select({
      kind: requestDocuments.kind,
      fileName: requestDocuments.fileName,
      contentType: requestDocuments.contentType,
      size: requestDocuments.size,
      uploadedAt: requestDocuments.uploadedAt,
      uploadedBy: users.email,
    })
    .from(requestDocuments)
    .leftJoin(users, eq(users.id, requestDocuments.uploadedBy))
    .where(eq(requestDocuments.requestId, id))
    .orderBy(asc(requestDocuments.kind));
  const history = await auditHistory(db, 'request', id);
  const { request: stored } = row;
  return {
    ...toSummary(row),
    ...preRequestInputOf({ ...stored, curp: row.curp }),
    street: stored.street,
    exteriorNumber: stored.exteriorNumber,
    interiorNumber: stored.interiorNumber,
    neighborhood: stored.neighborhood,
    municipality: stored.municipality,
    state: stored.state,
    postalCode: stored.postalCode,
    phone: stored.phone,
    email: stored.email,
    references: stored.references as Request['references'],
    clabe: stored.clabe,
    bank: bankForCode(stored.clabe.slice(0, 3))?.name ?? 'Banco no identificado',
    preRequestId: stored.preRequestId,
    preRequestFolio: row.preRequestNumber ? preRequestFolio(row.preRequestNumber) : null,
    companyId: stored.companyId,
    simulation: simulationSchema.parse(stored.simulation),
    documentList: documentList.map((document) => ({ ...document, uploadedAt: document.uploadedAt.toISOString() })),
    rejectionReason: stored.rejectionReason,
    cancellationReason: stored.cancellationReason,
    decidedBy: row.decidedBy,
    decidedAt: stored.decidedAt?.toISOString() ?? null,
    creditId: row.creditId,
    creditFolio: row.creditNumber ? creditFolio(row.creditNumber) : null,
    capturedByIds: capturersOf(stored),
    renews: stored.renews,
    history,
    version: stored.version,
  };
}

/**
 * The Capturas count, by the tables its filters read: it joins the capturer only when a filter reads it, and never the
 * client (the search reads a CURP through a subquery). Every request has its client (a foreign key), and on a large
 * portfolio the joins made the count several times slower (docs/measurements.md).
 */
const REQUEST_COUNTS = {
  requests: fixedCount((select) => select.from(requests)),
  capturer: fixedCount((select) => select.from(requests).leftJoin(capturer, eq(capturer.id, requests.createdBy))),
};

/** What each of a CURP's 18 characters can be (4 letters, the birth date, H or M, 5 letters, a letter or digit, a digit). */
const CURP_CHARACTERS = [
  ...Array<RegExp>(4).fill(/[A-Z]/),
  ...Array<RegExp>(6).fill(/\d/),
  /[HM]/,
  ...Array<RegExp>(5).fill(/[A-Z]/),
  /[0-9A-Z]/,
  /\d/,
];

/** Whether `text` (upper case) is the start of some CURP: `MARIA` is not (a CURP's fifth character is a digit). */
export const couldStartCurp = (text: string): boolean =>
  text.length <= CURP_CHARACTERS.length && [...text].every((character, index) => CURP_CHARACTERS[index]!.test(character));

/** Capturas: requests filtered (folio, CURP or name; status, agreement, dates, capturer), sorted and paged in SQL. */
export async function listRequests(db: Db, query: RequestListValues, twoSteps = false): Promise<Paged<RequestSummary>> {
  const { sort, q, status, agreementId, from, to, capturer: capturedBy } = query;
  const createdOn = sql`(${requests.createdAt} at time zone 'America/Mexico_City')::date`;
  const search = q?.trim();
  // A search by name asks the matching requests first, up to SEARCH_COUNT_CAP (decisions 0034, 0035); null: more, read in the filter.
  const requestIds = twoSteps && search ? await matchingIds(db, 'requests', search) : undefined;
  const folioNumber = search?.toUpperCase().match(/^(?:SOL-?)?0*(\d{1,12})$/)?.[1];
  const where = and(
    status ? eq(requests.status, status) : undefined,
    agreementId ? eq(requests.agreementId, agreementId) : undefined,
    from ? gte(createdOn, from) : undefined,
    to ? lte(createdOn, to) : undefined,
    capturedBy ? ilike(capturer.email, containsPattern(capturedBy)) : undefined,
    search
      ? or(
          folioNumber ? eq(requests.number, Number(folioNumber)) : undefined,
          // The start of a CURP, only for a text that can be one (a name is not): each alternative has its index, so
          // PostgreSQL combines them (bitmap OR) instead of reading every request (decision 0031).
          couldStartCurp(search.toUpperCase())
            ? sql`${requests.clientId} = any(array(select ${clients.id} from ${clients} where ${clients.curp} like ${prefixPattern(search.toUpperCase())}))`
            : undefined,
          requestIds ? anyOf(requests.id, requestIds) : searchMatches(requests.searchText, search),
        )
      : undefined,
  );
  const rows = summaryList
    .in(db)
    .where(where)
    .orderBy(...listOrder(SORT, sort, { field: 'createdAt', descending: true }, requests.number));
  const total = searchCount(requestIds, query, () => REQUEST_COUNTS[capturedBy ? 'capturer' : 'requests'].in(db).where(where));
  return pagedList(query, rows, total, toSummary);
}

/** A stored document, read through its request: shown only with a request the user may see. */
export async function loadDocument(db: Db, id: string, kind: DocumentKind) {
  const [document] = await db
    .select({ fileName: requestDocuments.fileName, contentType: requestDocuments.contentType, content: requestDocuments.content })
    .from(requestDocuments)
    .innerJoin(requests, eq(requests.id, requestDocuments.requestId))
    .where(and(eq(requestDocuments.requestId, id), eq(requestDocuments.kind, kind)));
  if (!document) throw new HttpProblem(404, 'Documento no encontrado', 'La solicitud no tiene ese documento.');
  return document;
}
