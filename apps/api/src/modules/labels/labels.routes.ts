import type { FastifyPluginAsync } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { LABEL_FILE_MAX_BYTES, labelRoutes } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { HttpProblem, readMultipart } from '../../http/errors';
import { uploadedFileName } from '../../http/input-hygiene';
import { register } from '../../http/register';
import { actorOf } from '../audit/audit';
import { LabelFileError, readLabelFile } from './label-file';
import { labelCatalogue } from './labels.queries';
import { applyLabelUpdate, previewLabelUpdate } from './labels.service';

/** Créditos → Actualizar Etiqueta over HTTP: the catalogue, reading a file, the preview and the application. */
export function labelsRoutes(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    await app.register(fastifyMultipart, { throwFileSizeLimit: false, limits: { fileSize: LABEL_FILE_MAX_BYTES, files: 1, fields: 0 } });

    register(app, labelRoutes.catalogue, async (request) => ({ items: await labelCatalogue(request.db) }));

    register(app, labelRoutes.readFile, async (request) => {
      if (!request.isMultipart())
        throw new HttpProblem(415, 'Tipo de contenido no admitido', 'Envía el archivo como formulario (multipart/form-data).');
      const part = await readMultipart(() => request.file());
      if (!part) throw new HttpProblem(400, 'Falta el archivo', 'Adjunta el archivo con las columnas folio, etiqueta y acción.');
      const content = await readMultipart(() => part.toBuffer());
      if (part.file.truncated)
        throw new HttpProblem(
          413,
          'Archivo demasiado grande',
          `El archivo de etiquetas puede pesar hasta ${LABEL_FILE_MAX_BYTES / (1024 * 1024)} MB.`,
        );
      try {
        return { fileName: uploadedFileName(part.filename, 'archivo'), rows: await readLabelFile(content) };
      } catch (error) {
        if (error instanceof LabelFileError) throw new HttpProblem(400, 'Archivo no legible', error.message);
        throw error;
      }
    });

    register(app, labelRoutes.preview, async (request) => previewLabelUpdate(request.db, request.body));

    register(app, labelRoutes.apply, async (request, reply) => {
      const result = await applyLabelUpdate(request.db, actorOf(request), request.body, deps.clock.now());
      reply.code(201);
      return result;
    });
  };
}
