import type { FastifyPluginAsync } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { AGREEMENT_COLUMNS, FREQUENCY_LABELS, SECTOR_LABELS, agreementRoutes } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { HttpProblem, readMultipart } from '../../http/errors';
import { register } from '../../http/register';
import { sendXlsx, sheetColumns } from '../../lib/xlsx-export';
import { actorOf } from '../audit/audit';
import { agreementFilters, agreementListSelect, agreementOrder, listAgreements, loadAgreementDetail } from './agreements.queries';
import {
  createAgreement,
  loadRenewalMinimum,
  setAgreementStatus,
  setRenewalMinimum,
  testLayout,
  updateAgreement,
} from './agreements.service';

/** Convenios over HTTP: each route of the contract's table bound to its query or service. */
export function agreementsRoutes(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    await app.register(fastifyMultipart, { limits: { fileSize: 5 * 1024 * 1024, files: 1, fields: 5 } });

    register(app, agreementRoutes.list, async (request) => listAgreements(request.db, request.query));

    register(
      app,
      agreementRoutes.export,
      async (request, reply) => {
        const where = agreementFilters(request.query);
        return sendXlsx(request, reply, {
          filename: `convenios-${deps.clock.now().toISOString().slice(0, 10)}.xlsx`,
          sheet: 'Convenios',
          columns: sheetColumns(AGREEMENT_COLUMNS),
          read: ({ offset }, limit) =>
            request.inScope((tx) =>
              agreementListSelect(tx)
                .where(where)
                .orderBy(...agreementOrder(request.query.sort))
                .limit(limit)
                .offset(offset),
            ),
          toCells: (row) => ({
            ...row,
            sector: SECTOR_LABELS[row.sector],
            frequency: FREQUENCY_LABELS[row.frequency],
            status: row.active ? 'Activo' : 'Inactivo',
          }),
        });
      },
      { streamsAnswer: true },
    );

    register(app, agreementRoutes.renewalMinimum, async (request) => loadRenewalMinimum(request.db, actorOf(request).principal.companyId));

    register(app, agreementRoutes.setRenewalMinimum, async (request) =>
      setRenewalMinimum(request.db, actorOf(request), deps.clock.now(), request.body),
    );

    register(app, agreementRoutes.get, async (request) => loadAgreementDetail(request.db, request.params.id));

    register(app, agreementRoutes.create, async (request, reply) => {
      const created = await createAgreement(request.db, actorOf(request), deps.clock.now(), request.body);
      reply.code(201);
      return created;
    });

    register(app, agreementRoutes.update, async (request) =>
      updateAgreement(request.db, actorOf(request), deps.clock.now(), request.params.id, request.body),
    );

    register(app, agreementRoutes.setStatus, async (request) =>
      setAgreementStatus(request.db, actorOf(request), deps.clock.now(), request.params.id, request.body),
    );

    register(app, agreementRoutes.layoutTest, async (request) => {
      if (!request.isMultipart())
        throw new HttpProblem(415, 'Tipo de contenido no admitido', 'Envía el layout y el archivo como formulario (multipart/form-data).');
      const part = await readMultipart(() => request.file());
      if (!part) throw new HttpProblem(400, 'Falta el archivo', 'Adjunta un archivo de muestra.');
      const layoutField = part.fields.layout;
      const layoutText = layoutField && 'value' in layoutField ? String(layoutField.value) : '';
      return testLayout(layoutText, async () => {
        const content = await readMultipart(() => part.toBuffer());
        if (part.file.truncated) throw new HttpProblem(413, 'Archivo demasiado grande', 'La muestra puede pesar hasta 5 MB.');
        return content;
      });
    });
  };
}
