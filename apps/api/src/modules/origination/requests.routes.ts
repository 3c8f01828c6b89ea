import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import fastifyMultipart, { type MultipartFile } from '@fastify/multipart';
import { and, asc, count, desc, eq, gte, ilike, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { bankForCode } from '@portal/lending';
import {
  DOCUMENT_KINDS,
  DOCUMENT_MAX_BYTES,
  REQUEST_ACTIONS,
  disbursementResultSchema,
  requestActionBodySchemas,
  requestCreateSchema,
  requestInputSchema,
  requestListQuerySchema,
  requestSchema,
  requestSummarySchema,
  simulationSchema,
  type FieldError,
  type Request,
  type RequestAction,
  type RequestSummary,
} from '@portal/contract';
import { agreementProducts, agreements, clients, credits, preRequests, requestDocuments, requests, users } from '../../db/schema';
import { HttpProblem, readMultipart } from '../../http/errors';
import { assertSafeText } from '../../http/input-hygiene';
import type { AppDeps } from '../../deps';
import { auditHistory } from '../audit/audit';
import { containsPattern, prefixPattern } from '../../db/like';
import type { Db } from '../../db/client';
import { creditFolio, folio, requestFolio } from './pre-requests.service';
import { checkDocument, createRequest, isDocumentKind, replaceDocument, runAction, updateRequest, type UploadedDocument } from './requests.service';
import { actorOf } from '../audit/audit';

const idParams = z.object({ id: z.uuid('Identificador no válido.') });
const documentParams = idParams.extend({ kind: z.enum(DOCUMENT_KINDS, 'Tipo de documento no válido.') });
const captureAccess = { permission: '/origination/request-new' } as const;
const listAccess = { permission: '/origination/request-list' } as const;
/** The request itself and its documents: whoever captures it or works the Capturas list. */
const workAccess = { anyPermission: ['/origination/request-new', '/origination/request-list'] } as const;
const tags = ['originación'];

const capturer = alias(users, 'capturer');
const decider = alias(users, 'decider');

const clientName = sql<string>`concat_ws(' ', ${requests.firstNames}, ${requests.lastName1}, ${requests.lastName2})`;
const documentCount = sql<number>`(select count(*)::int from ${requestDocuments} where ${requestDocuments.requestId} = ${requests.id})`;

const SORT: Record<string, AnyPgColumn | SQL> = {
  folio: requests.number,
  createdAt: requests.createdAt,
  updatedAt: requests.updatedAt,
  amount: requests.amount,
  status: requests.status,
  clientName,
};

const summaryFields = {
  request: requests,
  curp: clients.curp,
  agreement: agreements.name,
  product: agreementProducts.name,
  createdBy: capturer.email,
  documents: documentCount,
};

function summaryQuery(db: Db) {
  return db
    .select(summaryFields)
    .from(requests)
    .innerJoin(clients, eq(clients.id, requests.clientId))
    .innerJoin(agreements, eq(agreements.id, requests.agreementId))
    .innerJoin(agreementProducts, eq(agreementProducts.id, requests.productId))
    .leftJoin(capturer, eq(capturer.id, requests.createdBy));
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaryQuery>['execute']>>[number];

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


/** Reads the multipart parts into the `data` field and the checked documents; every bad file is reported. */
async function readCapture(request: FastifyRequest): Promise<{ data: unknown; documents: UploadedDocument[] }> {
  if (!request.isMultipart()) throw new HttpProblem(415, 'Tipo de contenido no admitido', 'Envía la solicitud como formulario (multipart/form-data).');
  let data: unknown = undefined;
  const documents: UploadedDocument[] = [];
  const errors: FieldError[] = [];
  await readMultipart(async () => {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'data') data = part.value;
        continue;
      }
      const checked = await readFilePart(part, part.fieldname);
      if ('field' in checked) errors.push(checked);
      else documents.push(checked);
    }
  });
  if (errors.length > 0) throw new HttpProblem(400, 'Documentos no válidos', 'Revisa los documentos marcados; no se guardó nada.', errors);
  return { data, documents };
}

async function readFilePart(part: MultipartFile, kind: string): Promise<UploadedDocument | FieldError> {
  if (!isDocumentKind(kind)) {
    await part.toBuffer().catch(() => undefined);
    return { field: `documents.${kind}`, message: `«${kind}» no es un documento de la solicitud (INE, comprobante de domicilio o recibo de nómina).` };
  }
  const content = await part.toBuffer();
  return checkDocument(kind, part.filename, content, part.file.truncated);
}

function parseData(data: unknown) {
  let json: unknown;
  try {
    json = typeof data === 'string' ? JSON.parse(data) : undefined;
  } catch {
    json = undefined;
  }
  if (json === undefined) throw new HttpProblem(400, 'Datos inválidos', 'Envía los datos de la solicitud (campo "data", JSON) antes de los documentos.');
  assertSafeText(json);
  const parsed = requestCreateSchema.safeParse(json);
  if (!parsed.success) {
    throw new HttpProblem(
      400,
      'Datos inválidos',
      'Revisa los campos marcados.',
      parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message })),
    );
  }
  return parsed.data;
}

/** Solicitudes and Capturas: capture with documents, the status machine, and disbursement into a credit. */
export function requestsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // A file over the limit arrives truncated and is refused with its document's name, instead of a bare 413.
    await app.register(fastifyMultipart, { throwFileSizeLimit: false, limits: { fileSize: DOCUMENT_MAX_BYTES, files: DOCUMENT_KINDS.length, fields: 2, fieldSize: 64 * 1024 } });

    async function load(request: FastifyRequest, id: string): Promise<Request> {
      const [row] = await request.db
        .select({ ...summaryFields, decidedBy: decider.email, preRequestNumber: preRequests.number, creditId: credits.id, creditNumber: credits.number })
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
      const [documentList, history] = await Promise.all([
        request.db
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
          .orderBy(asc(requestDocuments.kind)),
        auditHistory(request.db, 'request', id),
      ]);
      const { request: stored } = row;
      return {
        ...toSummary(row),
        rfc: stored.rfc ?? '',
        firstNames: stored.firstNames,
        lastName1: stored.lastName1,
        lastName2: stored.lastName2 ?? '',
        productId: stored.productId,
        employeeNumber: stored.employeeNumber,
        netSalary: stored.netSalary,
        otherDeductions: stored.otherDeductions,
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
        preRequestFolio: row.preRequestNumber ? folio(row.preRequestNumber) : null,
        companyId: stored.companyId,
        simulation: simulationSchema.parse(stored.simulation),
        documentList: documentList.map((document) => ({ ...document, uploadedAt: document.uploadedAt.toISOString() })),
        rejectionReason: stored.rejectionReason,
        cancellationReason: stored.cancellationReason,
        decidedBy: row.decidedBy,
        decidedAt: stored.decidedAt?.toISOString() ?? null,
        creditId: row.creditId,
        creditFolio: row.creditNumber ? creditFolio(row.creditNumber) : null,
        createdById: stored.createdBy,
        history,
        version: stored.version,
      };
    }

    app.get(
      '/requests',
      {
        config: { access: listAccess },
        schema: {
          tags,
          summary: 'Capturas: solicitudes paginadas, filtradas y ordenadas',
          querystring: requestListQuerySchema,
          response: { 200: z.object({ items: z.array(requestSummarySchema), total: z.number().int() }) },
        },
      },
      async (request) => {
        const { page, pageSize, sort, q, status, agreementId, from, to, capturer: capturedBy } = request.query;
        const createdOn = sql`(${requests.createdAt} at time zone 'America/Mexico_City')::date`;
        const search = q?.trim();
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
                ilike(clients.curp, prefixPattern(search.toUpperCase())),
                ilike(clientName, containsPattern(search)),
              )
            : undefined,
        );
        const key = sort?.replace(/^-/, '') ?? 'createdAt';
        const column = SORT[key] ?? requests.createdAt;
        const descending = sort ? sort.startsWith('-') : true;
        const [rows, [totals]] = await Promise.all([
          summaryQuery(request.db)
            .where(where)
            .orderBy(descending ? desc(column) : asc(column), descending ? desc(requests.number) : asc(requests.number))
            .limit(pageSize)
            .offset((page - 1) * pageSize),
          request.db
            .select({ total: count() })
            .from(requests)
            .innerJoin(clients, eq(clients.id, requests.clientId))
            .leftJoin(capturer, eq(capturer.id, requests.createdBy))
            .where(where),
        ]);
        return { items: rows.map(toSummary), total: totals?.total ?? 0 };
      },
    );

    app.get(
      '/requests/:id',
      { config: { access: workAccess }, schema: { tags, summary: 'Una solicitud: datos, documentos, simulación e historial', params: idParams, response: { 200: requestSchema } } },
      async (request) => load(request, request.params.id),
    );

    app.post(
      '/requests',
      {
        config: { access: captureAccess },
        schema: {
          tags,
          summary: 'Captura una solicitud (multipart: campo "data" con JSON y los archivos ine, comprobante, recibo); queda capturada',
          response: { 201: requestSchema },
        },
      },
      async (request, reply) => {
        const { data, documents } = await readCapture(request);
        const input = parseData(data);
        const now = deps.clock.now();
        const id = await createRequest(request.db, actorOf(request), input, documents, now, deps.dailyMinimumWage);
        reply.code(201);
        return await load(request, id);
      },
    );

    app.put(
      '/requests/:id',
      {
        config: { access: captureAccess },
        schema: {
          tags,
          summary: 'Edita una solicitud capturada (vuelve a dictaminar)',
          params: idParams,
          body: requestInputSchema.extend({ version: z.number().int().min(1) }),
          response: { 200: requestSchema },
        },
      },
      async (request) => {
        const { version, ...input } = request.body;
        const now = deps.clock.now();
        await updateRequest(request.db, actorOf(request), request.params.id, version, input, now, deps.dailyMinimumWage);
        return load(request, request.params.id);
      },
    );

    app.put(
      '/requests/:id/documents/:kind',
      {
        config: { access: workAccess },
        schema: { tags, summary: 'Sube o reemplaza un documento (multipart: campo "file")', params: documentParams, response: { 200: requestSchema } },
      },
      async (request) => {
        if (!request.isMultipart()) throw new HttpProblem(415, 'Tipo de contenido no admitido', 'Envía el documento como formulario (multipart/form-data).');
        const part = await request.file();
        if (!part) throw new HttpProblem(400, 'Falta el archivo', 'Adjunta el documento.');
        const checked = await readFilePart(part, request.params.kind);
        if ('field' in checked) throw new HttpProblem(400, 'Documento no válido', checked.message, [checked]);
        const now = deps.clock.now();
        await replaceDocument(request.db, actorOf(request), request.params.id, checked, now);
        return load(request, request.params.id);
      },
    );

    app.get(
      '/requests/:id/documents/:kind',
      { config: { access: workAccess }, schema: { tags, summary: 'El archivo de un documento', params: documentParams } },
      async (request, reply) => {
        const [document] = await request.db
          .select({ fileName: requestDocuments.fileName, contentType: requestDocuments.contentType, content: requestDocuments.content })
          .from(requestDocuments)
          // Through its request: a document is shown only with a request the user may see.
          .innerJoin(requests, eq(requests.id, requestDocuments.requestId))
          .where(and(eq(requestDocuments.requestId, request.params.id), eq(requestDocuments.kind, request.params.kind)));
        if (!document) throw new HttpProblem(404, 'Documento no encontrado', 'La solicitud no tiene ese documento.');
        reply
          .header('content-type', document.contentType)
          .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(document.fileName)}`)
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store');
        return document.content;
      },
    );

    const actionAccess = (action: RequestAction) => {
      const permission = REQUEST_ACTIONS[action].permission;
      return permission ? ({ permission } as const) : workAccess;
    };

    for (const action of ['submit', 'approve', 'reject', 'cancel'] as const) {
      app.post(
        `/requests/:id/${action}`,
        {
          config: { access: actionAccess(action) },
          schema: { tags, summary: `${REQUEST_ACTIONS[action].label}: ${REQUEST_ACTIONS[action].from.join(' o ')} → ${REQUEST_ACTIONS[action].to}`, params: idParams, body: requestActionBodySchemas[action], response: { 200: requestSchema } },
        },
        async (request) => {
          const now = deps.clock.now();
          await runAction(request.db, actorOf(request), request.params.id, action, request.body, now, deps.dailyMinimumWage);
          return load(request, request.params.id);
        },
      );
    }

    app.post(
      '/requests/:id/disburse',
      {
        config: { access: actionAccess('disburse') },
        schema: {
          tags,
          summary: 'Dispersa una solicitud aprobada: crea el crédito, su tabla y sus descuentos esperados en una transacción',
          params: idParams,
          body: requestActionBodySchemas.disburse,
          response: { 200: disbursementResultSchema },
        },
      },
      async (request) => {
        const now = deps.clock.now();
        const result = await runAction(request.db, actorOf(request), request.params.id, 'disburse', request.body, now, deps.dailyMinimumWage);
        return { request: await load(request, request.params.id), creditId: result.creditId!, creditFolio: result.creditFolio! };
      },
    );
  };
}
