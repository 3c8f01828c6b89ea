import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import fastifyMultipart from '@fastify/multipart';
import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { isValidRfc } from '@portal/lending';
import {
  FREQUENCY_LABELS,
  SECTOR_LABELS,
  agreementDetailSchema,
  agreementInputSchema,
  agreementListItemSchema,
  agreementListQuerySchema,
  agreementUpdateSchema,
  layoutSchema,
  layoutTestResultSchema,
  type AgreementDetail,
  type AgreementListQuery,
} from '@portal/contract';
import type { Db, Tx } from '../../db/client';
import { agreementProducts, agreements, companies } from '../../db/schema';
import { productRows } from '../../db/seed-agreements';
import { trimNumeric } from '../../db/numeric';
import { HttpProblem, readMultipart } from '../../http/errors';
import { sendXlsx } from '../../lib/xlsx-export';
import { containsPattern } from '../../db/like';
import type { AppDeps } from '../../deps';
import { auditHistory, recordAudit } from '../audit/audit';
import { LayoutFileError, parsePaymentFile } from './layout-parser';
import { SpreadsheetLimitError } from '../../lib/xlsx-read';
import { toProduct } from './products';

const idParams = z.object({ id: z.uuid('Identificador no válido.') });
const SAMPLE_ROWS = 20;
const CODE_TAKEN = { field: 'code', message: 'Ya existe un convenio con esa clave.' };

const activeProducts = sql<number>`(select count(*)::int from ${agreementProducts} where ${agreementProducts.agreementId} = ${agreements.id} and ${agreementProducts.active})`;

const SORT: Record<string, AnyPgColumn> = {
  code: agreements.code,
  name: agreements.name,
  employerName: agreements.employerName,
  sector: agreements.sector,
  frequency: agreements.frequency,
  company: companies.name,
  active: agreements.active,
};

function filters(query: Omit<AgreementListQuery, 'page' | 'pageSize'>): SQL | undefined {
  const pattern = query.q ? containsPattern(query.q) : null;
  return and(
    pattern ? or(ilike(agreements.code, pattern), ilike(agreements.name, pattern), ilike(agreements.employerName, pattern)) : undefined,
    query.companyId ? eq(agreements.companyId, query.companyId) : undefined,
    query.sector ? eq(agreements.sector, query.sector) : undefined,
    query.frequency ? eq(agreements.frequency, query.frequency) : undefined,
    query.status ? eq(agreements.active, query.status === 'active') : undefined,
  );
}

function order(sort: string | undefined): SQL[] {
  const column = SORT[sort?.replace(/^-/, '') ?? 'code'] ?? agreements.code;
  return sort?.startsWith('-') ? [desc(column), desc(agreements.id)] : [asc(column), asc(agreements.id)];
}

const listSelect = (db: Db) =>
  db
    .select({
      id: agreements.id,
      code: agreements.code,
      name: agreements.name,
      employerName: agreements.employerName,
      sector: agreements.sector,
      frequency: agreements.frequency,
      companyId: agreements.companyId,
      company: companies.name,
      activeProducts,
      active: agreements.active,
      version: agreements.version,
    })
    .from(agreements)
    .innerJoin(companies, eq(companies.id, agreements.companyId));

/** The employer's RFC must be well formed with a real date; a failing check digit only warns (DOMAIN.md). */
function rfcProblems(rfc: string) {
  if (!isValidRfc(rfc)) {
    throw new HttpProblem(400, 'Datos inválidos', 'Revisa los campos marcados.', [
      { field: 'employerRfc', message: 'RFC del patrón no válido: revisa la fecha y las letras.' },
    ]);
  }
  return isValidRfc(rfc, { checkDigit: true })
    ? []
    : [{ field: 'employerRfc', message: 'El dígito verificador del RFC no coincide; se aceptó, pero confírmalo con el patrón.' }];
}

export function agreementsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyMultipart, { limits: { fileSize: 5 * 1024 * 1024, files: 1, fields: 5 } });

    async function loadDetail(db: Db, id: string): Promise<AgreementDetail> {
      const [row] = await db
        .select({ agreement: agreements, company: companies.name })
        .from(agreements)
        .innerJoin(companies, eq(companies.id, agreements.companyId))
        .where(eq(agreements.id, id));
      if (!row) throw new HttpProblem(404, 'Convenio no encontrado', 'El convenio no existe.');
      const products = await db
        .select()
        .from(agreementProducts)
        .where(eq(agreementProducts.agreementId, id))
        .orderBy(asc(agreementProducts.position));
      const { agreement } = row;
      return {
        ...agreement,
        company: row.company,
        maxDeductionPct: trimNumeric(agreement.maxDeductionPct),
        contacts: agreement.contacts as AgreementDetail['contacts'],
        layout: agreement.layout as AgreementDetail['layout'],
        products: products.map(toProduct),
        warnings: isValidRfc(agreement.employerRfc, { checkDigit: true })
          ? []
          : [{ field: 'employerRfc', message: 'El dígito verificador del RFC no coincide; confírmalo con el patrón.' }],
        history: await auditHistory(db, 'agreement', id),
      };
    }

    /** The agreement as it is now, locked for this transaction; 404 when gone, 409 (with `staleMessage`) when edited since `version`. */
    async function lockAgreement(tx: Tx, id: string, version: number, staleMessage: string) {
      const [current] = await tx.select().from(agreements).where(eq(agreements.id, id)).for('update');
      if (!current) throw new HttpProblem(404, 'Convenio no encontrado', 'El convenio no existe.');
      if (current.version !== version) throw new HttpProblem(409, 'El convenio cambió', staleMessage);
      return current;
    }

    async function assertCompany(tx: Tx, companyId: string) {
      const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
      if (!company) throw new HttpProblem(400, 'Datos inválidos', 'Revisa los campos marcados.', [{ field: 'companyId', message: 'La empresa elegida no existe.' }]);
    }

    async function assertCodeFree(tx: Tx, code: string, exceptId?: string) {
      const [taken] = await tx
        .select({ id: agreements.id })
        .from(agreements)
        .where(and(sql`upper(${agreements.code}) = ${code.toUpperCase()}`, exceptId ? sql`${agreements.id} <> ${exceptId}` : undefined));
      if (taken) throw new HttpProblem(409, 'Clave ya registrada', CODE_TAKEN.message, [CODE_TAKEN]);
    }

    app.get(
      '/agreements',
      {
        config: { access: { permission: '/catalog/contract-list' } },
        schema: { tags: ['convenios'], summary: 'Lista de convenios', querystring: agreementListQuerySchema, response: { 200: z.object({ items: z.array(agreementListItemSchema), total: z.number().int() }) } },
      },
      async (request) => {
        const where = filters(request.query);
        const [items, [totals]] = await Promise.all([
          listSelect(request.db).where(where).orderBy(...order(request.query.sort)).limit(request.query.pageSize).offset((request.query.page - 1) * request.query.pageSize),
          request.db.select({ total: count() }).from(agreements).where(where),
        ]);
        return { items, total: totals?.total ?? 0 };
      },
    );

    app.get(
      '/agreements/export.xlsx',
      {
        config: { streamsAnswer: true, access: { permission: '/catalog/contract-list' } },
        schema: { tags: ['convenios'], summary: 'Exporta a Excel la lista con el filtro actual', querystring: agreementListQuerySchema.omit({ page: true, pageSize: true }) },
      },
      async (request, reply) => {
        const where = filters(request.query);
        return sendXlsx(request, reply, {
          filename: `convenios-${deps.clock.now().toISOString().slice(0, 10)}.xlsx`,
          sheet: 'Convenios',
          columns: [
            { header: 'Clave', key: 'code', width: 14 },
            { header: 'Convenio', key: 'name', width: 40 },
            { header: 'Patrón', key: 'employerName', width: 40 },
            { header: 'Sector', key: 'sector', width: 12 },
            { header: 'Periodicidad', key: 'frequency', width: 14 },
            { header: 'Empresa', key: 'company', width: 24 },
            { header: 'Productos activos', key: 'activeProducts', width: 16 },
            { header: 'Estado', key: 'status', width: 10 },
          ],
          read: (offset, limit) => request.inScope((tx) => listSelect(tx).where(where).orderBy(...order(request.query.sort)).limit(limit).offset(offset)),
          toCells: (row) => ({ ...row, sector: SECTOR_LABELS[row.sector], frequency: FREQUENCY_LABELS[row.frequency], status: row.active ? 'Activo' : 'Inactivo' }),
        });
      },
    );

    app.get(
      '/agreements/:id',
      {
        config: { access: { permission: '/catalog/contract-list' } },
        schema: { tags: ['convenios'], summary: 'Un convenio con sus productos, layout e historial', params: idParams, response: { 200: agreementDetailSchema } },
      },
      async (request) => loadDetail(request.db, request.params.id),
    );

    app.post(
      '/agreements',
      {
        config: { access: { permission: '/catalog/contract-new' } },
        schema: { tags: ['convenios'], summary: 'Crea un convenio con sus productos y su layout', body: agreementInputSchema, response: { 201: agreementDetailSchema } },
      },
      async (request, reply) => {
        const { products, ...fields } = request.body;
        rfcProblems(fields.employerRfc);
        const now = deps.clock.now();
        const tx = request.db;
        await assertCompany(tx, fields.companyId);
        await assertCodeFree(tx, fields.code);
        const [created] = await tx.insert(agreements).values({ ...fields, createdAt: now, updatedAt: now }).returning({ id: agreements.id });
        await tx.insert(agreementProducts).values(productRows({ id: created!.id, companyId: fields.companyId }, products.map(({ id: _ignored, ...product }) => product)));
        await recordAudit(tx, request, { action: 'agreement.create', entity: 'agreement', entityId: created!.id, after: request.body, occurredAt: now });
        reply.code(201);
        return await loadDetail(tx, created!.id);
      },
    );

    app.put(
      '/agreements/:id',
      {
        config: { access: { permission: '/catalog/contract-list' } },
        schema: { tags: ['convenios'], summary: 'Edita un convenio (rechaza ediciones sobre una versión vieja)', params: idParams, body: agreementUpdateSchema, response: { 200: agreementDetailSchema } },
      },
      async (request) => {
        const { version, products, ...fields } = request.body;
        const id = request.params.id;
        rfcProblems(fields.employerRfc);
        const now = deps.clock.now();
        const tx = request.db;
        const current = await lockAgreement(tx, id, version, 'Otra persona modificó este convenio mientras lo editabas. Recarga la página para ver sus cambios y vuelve a intentarlo.');
        if (fields.companyId !== current.companyId) {
          // Its products, requests and credits belong to that company: an agreement does not change hands.
          throw new HttpProblem(409, 'Cambio no permitido', 'La empresa de un convenio no se cambia; da de alta el convenio en la otra empresa.', [
            { field: 'companyId', message: 'La empresa de un convenio no se cambia.' },
          ]);
        }
        // Read under the lock: the audit's "before" and the product reconciliation see the row as it is replaced.
        const before = await tx.select().from(agreementProducts).where(eq(agreementProducts.agreementId, id)).orderBy(asc(agreementProducts.position));
        await assertCompany(tx, fields.companyId);
        await assertCodeFree(tx, fields.code, id);
        await tx
          .update(agreements)
          .set({ ...fields, updatedAt: now, version: sql`${agreements.version} + 1` })
          .where(eq(agreements.id, id));
        // Products keep their id: credits will point at them and keep their own snapshot of the terms.
        const existing = new Set(before.map((product) => product.id));
        const unknown = products.find((product) => product.id && !existing.has(product.id));
        if (unknown) throw new HttpProblem(400, 'Datos inválidos', 'Un producto no pertenece a este convenio.');
        const kept = new Set(products.map((product) => product.id).filter(Boolean));
        for (const row of productRows({ id, companyId: fields.companyId }, products)) {
          if (row.id) await tx.update(agreementProducts).set(row).where(eq(agreementProducts.id, row.id));
          else await tx.insert(agreementProducts).values(row);
        }
        for (const product of before) {
          if (!kept.has(product.id)) await tx.update(agreementProducts).set({ active: false }).where(eq(agreementProducts.id, product.id));
        }
        const { version: _version, createdAt: _createdAt, updatedAt: _updatedAt, ...agreement } = current;
        await recordAudit(tx, request, {
          action: 'agreement.update',
          entity: 'agreement',
          entityId: id,
          before: { ...agreement, maxDeductionPct: trimNumeric(agreement.maxDeductionPct), products: before.map(toProduct) },
          after: request.body,
          occurredAt: now,
        });
        return loadDetail(tx, id);
      },
    );

    app.post(
      '/agreements/:id/status',
      {
        config: { access: { permission: '/catalog/contract-list' } },
        schema: {
          tags: ['convenios'],
          summary: 'Activa o desactiva un convenio (sus créditos siguen; solo deja de recibir solicitudes)',
          params: idParams,
          body: z.object({ active: z.boolean(), version: z.number().int().min(1) }),
          response: { 200: agreementDetailSchema },
        },
      },
      async (request) => {
        const id = request.params.id;
        const now = deps.clock.now();
        const tx = request.db;
        const current = await lockAgreement(tx, id, request.body.version, 'Otra persona modificó este convenio. Recarga la página y vuelve a intentarlo.');
        await tx.update(agreements).set({ active: request.body.active, updatedAt: now, version: sql`${agreements.version} + 1` }).where(eq(agreements.id, id));
        await recordAudit(tx, request, {
          action: request.body.active ? 'agreement.activate' : 'agreement.deactivate',
          entity: 'agreement',
          entityId: id,
          before: { active: current.active },
          after: { active: request.body.active },
          occurredAt: now,
        });
        return loadDetail(tx, id);
      },
    );

    app.post(
      '/agreements/layout-test',
      {
        config: { access: { anyPermission: ['/catalog/contract-new', '/catalog/contract-list'] } },
        schema: {
          tags: ['convenios'],
          summary: 'Probar layout: lee un archivo de muestra (multipart: layout JSON y archivo) y devuelve sus primeras filas',
          response: { 200: layoutTestResultSchema },
        },
      },
      async (request) => {
        if (!request.isMultipart()) throw new HttpProblem(415, 'Tipo de contenido no admitido', 'Envía el layout y el archivo como formulario (multipart/form-data).');
        const part = await readMultipart(() => request.file());
        if (!part) throw new HttpProblem(400, 'Falta el archivo', 'Adjunta un archivo de muestra.');
        const layoutField = part.fields.layout;
        const layoutText = layoutField && 'value' in layoutField ? String(layoutField.value) : '';
        let layoutJson: unknown;
        try {
          layoutJson = JSON.parse(layoutText);
        } catch {
          throw new HttpProblem(400, 'Layout no válido', 'Envía el layout (campo "layout") antes del archivo, como JSON.');
        }
        const layout = layoutSchema.safeParse(layoutJson);
        if (!layout.success) {
          throw new HttpProblem(
            400,
            'Layout no válido',
            'Revisa la definición del layout.',
            layout.error.issues.map((issue) => ({ field: ['layout', ...issue.path].join('.'), message: issue.message })),
          );
        }
        const content = await readMultipart(() => part.toBuffer());
        if (part.file.truncated) throw new HttpProblem(413, 'Archivo demasiado grande', 'La muestra puede pesar hasta 5 MB.');
        try {
          const rows = await parsePaymentFile(content, layout.data);
          return { rows: rows.slice(0, SAMPLE_ROWS), totalRows: rows.length, errorRows: rows.filter((row) => row.errors.length > 0).length };
        } catch (error) {
          if (error instanceof LayoutFileError) throw new HttpProblem(400, 'Archivo no legible', error.message);
          if (error instanceof SpreadsheetLimitError) throw new HttpProblem(400, 'Archivo fuera de los límites de lectura', error.message);
          throw error;
        }
      },
    );
  };
}
