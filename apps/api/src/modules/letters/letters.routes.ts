import type { FastifyPluginAsync } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { LETTER_LAYOUT_MAX_BYTES, LETTER_TEMPLATE_MAX_BYTES, letterRoutes } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { HttpProblem, readMultipart } from '../../http/errors';
import { uploadedFileName } from '../../http/input-hygiene';
import { register } from '../../http/register';
import { actorOf } from '../audit/audit';
import { mexicoToday } from '../shared/business-date';
import { creditLetters, letterPdf, letterTemplateBrands } from './letters.queries';
import { issueLetter, letterQuote, uploadTemplate } from './letters.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Créditos → Carta de Liquidación Anticipada over HTTP: quote, issue, list, download, templates and their upload. */
export function lettersRoutes(deps: AppDeps): FastifyPluginAsync {
  const today = () => mexicoToday(deps.clock.now());
  return async (app) => {
    await app.register(fastifyMultipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: LETTER_TEMPLATE_MAX_BYTES, files: 2, fields: 2, fieldSize: LETTER_LAYOUT_MAX_BYTES },
    });

    register(app, letterRoutes.quote, async (request) => letterQuote(request.db, request.params.id, today(), request.query.validUntil));

    register(app, letterRoutes.issue, async (request, reply) => {
      const letter = await issueLetter(request.db, actorOf(request), request.params.id, today(), deps.clock.now(), request.body.validUntil);
      reply.code(201);
      return letter;
    });

    register(app, letterRoutes.list, async (request) => {
      return { items: await creditLetters(request.db, request.params.id) };
    });

    register(app, letterRoutes.pdf, async (request, reply) => {
      const { fileName, pdf } = await letterPdf(request.db, request.params.id);
      reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store');
      return pdf;
    });

    register(app, letterRoutes.templates, async (request) => ({ items: await letterTemplateBrands(request.db) }));

    register(app, letterRoutes.uploadTemplate, async (request, reply) => {
      if (!request.isMultipart())
        throw new HttpProblem(415, 'Tipo de contenido no admitido', 'Envía el PDF y el layout como formulario (multipart/form-data).');
      const received: { companyId?: string; background?: { name: string; content: Buffer }; layout?: string } = {};
      await readMultipart(async () => {
        for await (const part of request.parts()) {
          if (part.type === 'field') {
            if (part.fieldname === 'companyId') received.companyId = String(part.value);
            if (part.fieldname === 'layout') received.layout = String(part.value);
            continue;
          }
          const content = await part.toBuffer();
          if (part.file.truncated)
            throw new HttpProblem(
              413,
              'Archivo demasiado grande',
              `El PDF de fondo puede pesar hasta ${LETTER_TEMPLATE_MAX_BYTES / (1024 * 1024)} MB y el layout ${LETTER_LAYOUT_MAX_BYTES / 1024} KB.`,
            );
          if (part.fieldname === 'background')
            received.background = { name: uploadedFileName(part.filename, 'plantilla.pdf', 'background'), content };
          if (part.fieldname === 'layout') {
            if (content.length > LETTER_LAYOUT_MAX_BYTES)
              throw new HttpProblem(413, 'Layout demasiado grande', `El layout puede pesar hasta ${LETTER_LAYOUT_MAX_BYTES / 1024} KB.`);
            received.layout = content.toString('utf8');
          }
        }
      });
      const principal = actorOf(request).principal;
      const companyId = received.companyId?.trim() || principal.companyId;
      if (!UUID.test(companyId))
        throw new HttpProblem(400, 'Marca no válida', 'La empresa (companyId) no es un identificador válido.', [
          { field: 'companyId', message: 'Empresa no válida.' },
        ]);
      const brand = await uploadTemplate(request.db, actorOf(request), deps.clock.now(), {
        companyId,
        fileName: received.background?.name ?? 'plantilla.pdf',
        background: received.background?.content ?? Buffer.alloc(0),
        layoutText: received.layout ?? '',
      });
      reply.code(201);
      return brand;
    });
  };
}
