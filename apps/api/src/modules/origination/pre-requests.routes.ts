import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { originationCatalogSchema, preRequestInputSchema, preRequestListQuerySchema, preRequestSchema, simulationSchema, type PreRequest } from '@portal/contract';
import { agreementProducts, agreements, clients, preRequests, users } from '../../db/schema';
import { HttpProblem } from '../../http/errors';
import type { AppDeps } from '../../deps';
import { recordAudit } from '../audit/audit';
import { agreementCompany, expirePreRequests, folio, loanColumns, mexicoToday, simulate, upsertClient, verdictColumns } from './pre-requests.service';
import type { Db } from '../../db/client';
import { toProduct } from '../agreements/products';
import { trimNumeric } from '../../db/numeric';

const idParams = z.object({ id: z.uuid('Identificador no válido.') });
const versionBody = z.object({ version: z.number().int().min(1) });
const access = { permission: '/origination/pre-request-new' } as const;
/** The request form reads the same catalog and the clerk's sent pre-requests, to convert one. */
const readAccess = { anyPermission: ['/origination/pre-request-new', '/origination/request-new'] } as const;
/** Capturas filters by the same agreements and dates disbursements from the same business "today". */
const catalogAccess = { anyPermission: [...readAccess.anyPermission, '/origination/request-list'] } as const;

const SORT: Record<string, AnyPgColumn> = { folio: preRequests.number, createdAt: preRequests.createdAt, amount: preRequests.amount, status: preRequests.status };

function select(db: Db) {
  return db
    .select({ request: preRequests, client: clients, agreement: agreements.name, product: agreementProducts.name, createdBy: users.email })
    .from(preRequests)
    .innerJoin(clients, eq(clients.id, preRequests.clientId))
    .innerJoin(agreements, eq(agreements.id, preRequests.agreementId))
    .innerJoin(agreementProducts, eq(agreementProducts.id, preRequests.productId))
    .leftJoin(users, eq(users.id, preRequests.createdBy));
}

type Row = Awaited<ReturnType<ReturnType<typeof select>['execute']>>[number];

function toPreRequest({ request, client, agreement, product, createdBy }: Row): PreRequest {
  return {
    id: request.id,
    folio: folio(request.number),
    status: request.status,
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
    version: request.version,
  };
}

/** Pre-solicitudes: simulate, save as draft, edit a draft, send. Conversion into a request comes with requests. */
export function preRequestsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    async function load(db: Db, id: string): Promise<PreRequest> {
      const [row] = await select(db).where(eq(preRequests.id, id));
      if (!row) throw new HttpProblem(404, 'Pre-solicitud no encontrada', 'La pre-solicitud no existe.');
      return toPreRequest(row);
    }

    app.get(
      '/pre-requests/catalog',
      {
        config: { access: catalogAccess },
        schema: { tags: ['originación'], summary: 'Convenios vigentes de la empresa y sus productos activos, para capturar', response: { 200: originationCatalogSchema } },
      },
      async (request) => {
        const today = mexicoToday(deps.clock.now());
        const rows = await request.db
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
        const byId = new Map<string, z.infer<typeof originationCatalogSchema>['agreements'][number]>();
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
        return { agreements: [...byId.values()], today, dailyMinimumWage: deps.dailyMinimumWage };
      },
    );

    app.post(
      '/pre-requests/simulate',
      {
        config: { access },
        schema: { tags: ['originación'], summary: 'Capacidad, tabla, CAT y dictamen de una pre-solicitud, sin guardarla', body: preRequestInputSchema, response: { 200: simulationSchema } },
      },
      async (request) => simulate(request.db, request.body, mexicoToday(deps.clock.now()), deps.dailyMinimumWage),
    );

    app.get(
      '/pre-requests',
      {
        config: { access: readAccess },
        schema: {
          tags: ['originación'],
          summary: 'Mis pre-solicitudes',
          querystring: preRequestListQuerySchema,
          response: { 200: z.object({ items: z.array(preRequestSchema), total: z.number().int() }) },
        },
      },
      async (request) => {
        await expirePreRequests(request.db, deps.clock.now());
        const { page, pageSize, status, sort } = request.query;
        const where: SQL | undefined = and(eq(preRequests.createdBy, request.principal!.userId), status ? eq(preRequests.status, status) : undefined);
        const column = SORT[sort?.replace(/^-/, '') ?? 'createdAt'] ?? preRequests.createdAt;
        const descending = sort ? sort.startsWith('-') : true;
        const [rows, [totals]] = await Promise.all([
          select(request.db)
            .where(where)
            .orderBy(descending ? desc(column) : asc(column), descending ? desc(preRequests.number) : asc(preRequests.number))
            .limit(pageSize)
            .offset((page - 1) * pageSize),
          request.db.select({ total: count() }).from(preRequests).where(where),
        ]);
        return { items: rows.map(toPreRequest), total: totals?.total ?? 0 };
      },
    );

    app.get(
      '/pre-requests/:id',
      { config: { access: readAccess }, schema: { tags: ['originación'], summary: 'Una pre-solicitud', params: idParams, response: { 200: preRequestSchema } } },
      async (request) => {
        await expirePreRequests(request.db, deps.clock.now());
        return load(request.db, request.params.id);
      },
    );

    app.post(
      '/pre-requests',
      {
        config: { access },
        schema: { tags: ['originación'], summary: 'Guarda una pre-solicitud como borrador, con su dictamen', body: preRequestInputSchema, response: { 201: preRequestSchema } },
      },
      async (request, reply) => {
        const now = deps.clock.now();
        const tx = request.db;
        const result = await simulate(tx, request.body, mexicoToday(now), deps.dailyMinimumWage);
        const companyId = await agreementCompany(tx, request.body.agreementId);
        const clientId = await upsertClient(tx, companyId, request.body, result, now);
        const [created] = await tx
          .insert(preRequests)
          .values({
            clientId,
            companyId,
            ...loanColumns(request.body),
            ...verdictColumns(result),
            createdBy: request.principal!.userId,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: preRequests.id });
        await recordAudit(tx, request, { action: 'pre-request.create', entity: 'pre-request', entityId: created!.id, after: { ...request.body, result: result.result, reasons: result.reasons }, occurredAt: now });
        reply.code(201);
        return await load(tx, created!.id);
      },
    );

    app.put(
      '/pre-requests/:id',
      {
        config: { access },
        schema: { tags: ['originación'], summary: 'Edita un borrador (vuelve a dictaminar)', params: idParams, body: preRequestInputSchema.extend(versionBody.shape), response: { 200: preRequestSchema } },
      },
      async (request) => {
        const { version, ...input } = request.body;
        const id = request.params.id;
        const now = deps.clock.now();
        const tx = request.db;
        const current = await lockDraft(tx, id, version, 'editar');
        const result = await simulate(tx, input, mexicoToday(now), deps.dailyMinimumWage, { preRequestId: id });
        const companyId = await agreementCompany(tx, input.agreementId);
        const clientId = await upsertClient(tx, companyId, input, result, now);
        await tx
          .update(preRequests)
          .set({
            clientId,
            companyId,
            ...loanColumns(input),
            ...verdictColumns(result),
            updatedAt: now,
            version: sql`${preRequests.version} + 1`,
          })
          .where(eq(preRequests.id, id));
        await recordAudit(tx, request, { action: 'pre-request.update', entity: 'pre-request', entityId: id, before: current, after: { ...input, result: result.result }, occurredAt: now });
        return load(tx, id);
      },
    );

    app.post(
      '/pre-requests/:id/send',
      {
        config: { access },
        schema: { tags: ['originación'], summary: 'Envía una pre-solicitud pre-aprobada', params: idParams, body: versionBody, response: { 200: preRequestSchema } },
      },
      async (request) => {
        const id = request.params.id;
        const now = deps.clock.now();
        const tx = request.db;
        const current = await lockDraft(tx, id, request.body.version, 'enviar');
        // The verdict is taken again at the moment of sending: the agreement or another request may have changed.
        const [client] = await tx.select().from(clients).where(eq(clients.id, current.clientId));
        const result = await simulate(
          tx,
          {
            curp: client!.curp,
            rfc: client!.rfc ?? '',
            firstNames: client!.firstNames,
            lastName1: client!.lastName1,
            lastName2: client!.lastName2 ?? '',
            agreementId: current.agreementId,
            productId: current.productId,
            employeeNumber: current.employeeNumber,
            netSalary: current.netSalary,
            otherDeductions: current.otherDeductions,
            amount: current.amount,
            term: current.term,
          },
          mexicoToday(now),
          deps.dailyMinimumWage,
          { preRequestId: id },
        );
        if (result.result !== 'pre-aprobada') {
          throw new HttpProblem(409, 'Pre-solicitud rechazada', `Solo se envían pre-solicitudes pre-aprobadas. ${result.reasons.map((reason) => reason.message).join(' ')}`);
        }
        await tx.update(preRequests).set({ status: 'enviada', sentAt: now, updatedAt: now, version: sql`${preRequests.version} + 1` }).where(eq(preRequests.id, id));
        await recordAudit(tx, request, { action: 'pre-request.send', entity: 'pre-request', entityId: id, before: { status: 'borrador' }, after: { status: 'enviada' }, occurredAt: now });
        return load(tx, id);
      },
    );

    /** The draft as it is, locked; refused when gone, edited since `version`, or no longer a draft. */
    async function lockDraft(tx: Db, id: string, version: number, action: string) {
      const [current] = await tx.select().from(preRequests).where(eq(preRequests.id, id)).for('update');
      if (!current) throw new HttpProblem(404, 'Pre-solicitud no encontrada', 'La pre-solicitud no existe.');
      if (current.version !== version) {
        throw new HttpProblem(409, 'La pre-solicitud cambió', 'Otra persona modificó esta pre-solicitud. Recarga la página y vuelve a intentarlo.');
      }
      if (current.status !== 'borrador') {
        throw new HttpProblem(409, 'Acción no permitida', `No se puede ${action} una pre-solicitud en estado ${current.status}; solo los borradores.`);
      }
      return current;
    }
  };
}
