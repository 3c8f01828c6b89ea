import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { searchesInTwoSteps } from '../../http/company-scope';
import fastifyMultipart, { type MultipartFile } from '@fastify/multipart';
import { DOCUMENT_KINDS, DOCUMENT_MAX_BYTES, requestCreateSchema, requestRoutes, type FieldError } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { HttpProblem, readMultipart } from '../../http/errors';
import { assertSafeText } from '../../http/input-hygiene';
import { register } from '../../http/register';
import { actorOf } from '../audit/audit';
import { listRequests, loadDocument, loadRequest } from './requests.queries';
import { renewableCredits } from './renewals';
import { mexicoToday } from '../shared/business-date';
import {
  checkDocument,
  createRequest,
  isDocumentKind,
  replaceDocument,
  runAction,
  updateRequest,
  type UploadedDocument,
} from './requests.service';

/** Reads the multipart parts into the `data` field and the checked documents; every bad file is reported. */
async function readCapture(request: FastifyRequest): Promise<{ data: unknown; documents: UploadedDocument[] }> {
  if (!request.isMultipart())
    throw new HttpProblem(415, 'Tipo de contenido no admitido', 'Envía la solicitud como formulario (multipart/form-data).');
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
    return {
      field: `documents.${kind}`,
      message: `«${kind}» no es un documento de la solicitud (INE, comprobante de domicilio o recibo de nómina).`,
    };
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
  if (json === undefined)
    throw new HttpProblem(400, 'Datos inválidos', 'Envía los datos de la solicitud (campo "data", JSON) antes de los documentos.');
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

/** Solicitudes and Capturas over HTTP: capture with documents, the status machine, and disbursement into a credit. */
export function requestsRoutes(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    // A file over the limit arrives truncated and is refused with its document's name, instead of a bare 413.
    await app.register(fastifyMultipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: DOCUMENT_MAX_BYTES, files: DOCUMENT_KINDS.length, fields: 2, fieldSize: 64 * 1024 },
    });

    // A search by name asks the matching requests first: two statements, the second on the first's answer (decisions 0034, 0035).
    register(app, requestRoutes.list, async (request) => listRequests(request.db, request.query, searchesInTwoSteps(request)), {
      readsInOneTurn: (request) => !searchesInTwoSteps(request),
    });

    register(app, requestRoutes.renewable, async (request) =>
      renewableCredits(request.db, request.query.curp, mexicoToday(deps.clock.now())),
    );

    register(app, requestRoutes.get, async (request) => loadRequest(request.db, request.params.id));

    register(app, requestRoutes.create, async (request, reply) => {
      const { data, documents } = await readCapture(request);
      const input = parseData(data);
      const now = deps.clock.now();
      const id = await createRequest(request.db, actorOf(request), input, documents, now, deps.dailyMinimumWage);
      reply.code(201);
      return await loadRequest(request.db, id);
    });

    register(app, requestRoutes.update, async (request) => {
      const { version, ...input } = request.body;
      const now = deps.clock.now();
      await updateRequest(request.db, actorOf(request), request.params.id, version, input, now, deps.dailyMinimumWage);
      return loadRequest(request.db, request.params.id);
    });

    register(app, requestRoutes.putDocument, async (request) => {
      if (!request.isMultipart())
        throw new HttpProblem(415, 'Tipo de contenido no admitido', 'Envía el documento como formulario (multipart/form-data).');
      const checked = await readMultipart(async () => {
        const part = await request.file();
        if (!part) throw new HttpProblem(400, 'Falta el archivo', 'Adjunta el documento.');
        return readFilePart(part, request.params.kind);
      });
      if ('field' in checked) throw new HttpProblem(400, 'Documento no válido', checked.message, [checked]);
      const now = deps.clock.now();
      await replaceDocument(request.db, actorOf(request), request.params.id, checked, now);
      return loadRequest(request.db, request.params.id);
    });

    register(app, requestRoutes.getDocument, async (request, reply) => {
      const document = await loadDocument(request.db, request.params.id, request.params.kind);
      reply
        .header('content-type', document.contentType)
        .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(document.fileName)}`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store');
      return document.content;
    });

    for (const action of ['submit', 'approve', 'reject', 'cancel'] as const) {
      register(app, requestRoutes[action], async (request) => {
        const now = deps.clock.now();
        await runAction(request.db, actorOf(request), request.params.id, action, request.body, now, deps.dailyMinimumWage);
        return loadRequest(request.db, request.params.id);
      });
    }

    register(app, requestRoutes.disburse, async (request) => {
      const now = deps.clock.now();
      const result = await runAction(request.db, actorOf(request), request.params.id, 'disburse', request.body, now, deps.dailyMinimumWage);
      return {
        request: await loadRequest(request.db, request.params.id),
        creditId: result.creditId!,
        creditFolio: result.creditFolio!,
        amountToTransfer: result.amountToTransfer!,
      };
    });
  };
}
