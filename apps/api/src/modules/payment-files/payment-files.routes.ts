import type { FastifyPluginAsync } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { z } from 'zod';
import {
  PAYMENT_COLUMNS,
  PAYMENT_FILE_MAX_BYTES,
  PAYMENT_FILE_RESULT_COLUMNS,
  PAYMENT_SPLIT_COLUMNS,
  dateField,
  paymentFileRoutes,
  paymentRoutes,
} from '@portal/contract';
import type { AppDeps } from '../../deps';
import { HttpProblem, readMultipart } from '../../http/errors';
import { assertSafeText, uploadedFileName } from '../../http/input-hygiene';
import { pagedList } from '../../http/pagination';
import { register } from '../../http/register';
import { excelSerialDay, sendXlsx, sheetColumns } from '../../lib/xlsx-export';
import { actorOf } from '../audit/audit';
import { creditFolio } from '../shared/folios';
import { mexicoToday } from '../shared/business-date';
import {
  listPaymentFiles,
  loadPaymentFile,
  missingDeductions,
  paymentCount,
  paymentFileRowsPage,
  paymentFilters,
  paymentListSelect,
  paymentOrder,
  paymentTotals,
  resultRows,
  toPayment,
  uploadOptions,
} from './payment-files.queries';
import { rejectPaymentFile, requestApply, uploadPaymentFile } from './payment-files.service';
import { revertCheck, revertPaymentFile } from './revert';
import { paymentFiles } from '../../db/schema/payments';
import { eq } from 'drizzle-orm';

const uploadFields = z.object({
  agreementId: z.uuid('Elige el convenio.'),
  discountDate: dateField('Fecha de descuento'),
});

const splitCells = (split: Record<string, string | null> | null) =>
  Object.fromEntries(
    PAYMENT_SPLIT_COLUMNS.map(({ key }) => [key, split?.[key] === null || split?.[key] === undefined ? null : Number(split[key])]),
  );

/** Carga y listado de archivos de pagos, and the Reporte de pagos, over HTTP. */
export function paymentFilesRoutes(deps: AppDeps): FastifyPluginAsync {
  const today = () => mexicoToday(deps.clock.now());
  return async (app) => {
    // A file over the limit arrives truncated and is refused with the limit, instead of a bare 413.
    await app.register(fastifyMultipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: PAYMENT_FILE_MAX_BYTES, files: 1, fields: 2, fieldSize: 1024 },
    });

    register(app, paymentFileRoutes.uploadOptions, async (request) => uploadOptions(request.db, today()));

    register(app, paymentFileRoutes.upload, async (request, reply) => {
      if (!request.isMultipart())
        throw new HttpProblem(415, 'Tipo de contenido no admitido', 'Envía el archivo como formulario (multipart/form-data).');
      const part = await readMultipart(() => request.file());
      if (!part) throw new HttpProblem(400, 'Falta el archivo', 'Adjunta el archivo de pagos.');
      const fileName = uploadedFileName(part.filename, 'archivo');
      assertSafeText(part.mimetype, ['contentType']);
      const value = (name: string) => {
        const field = part.fields[name];
        return field && !Array.isArray(field) && 'value' in field ? String(field.value) : undefined;
      };
      const fields = uploadFields.safeParse({ agreementId: value('agreementId'), discountDate: value('discountDate') });
      if (!fields.success) {
        throw new HttpProblem(
          400,
          'Datos inválidos',
          'Envía el convenio y la fecha de descuento antes del archivo.',
          fields.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message })),
        );
      }
      const content = await readMultipart(() => part.toBuffer());
      if (part.file.truncated)
        throw new HttpProblem(
          413,
          'Archivo demasiado grande',
          `El archivo de pagos puede pesar hasta ${PAYMENT_FILE_MAX_BYTES / (1024 * 1024)} MB.`,
        );
      const created = await uploadPaymentFile(request.db, actorOf(request), {
        ...fields.data,
        fileName,
        contentType: part.mimetype,
        content,
        today: today(),
        now: deps.clock.now(),
      });
      reply.code(201);
      return created;
    });

    register(app, paymentFileRoutes.list, async (request) => listPaymentFiles(request.db, request.query));

    register(app, paymentFileRoutes.get, async (request) => loadPaymentFile(request.db, request.params.id));

    register(app, paymentFileRoutes.rows, async (request) => paymentFileRowsPage(request.db, request.params.id, request.query));

    register(app, paymentFileRoutes.missing, async (request) => missingDeductions(request.db, request.params.id, request.query));

    register(app, paymentFileRoutes.apply, async (request, reply) => {
      reply.code(202);
      return requestApply(request.db, deps.jobs, actorOf(request), request.params.id, deps.clock.now());
    });

    register(app, paymentFileRoutes.reject, async (request) =>
      rejectPaymentFile(request.db, actorOf(request), request.params.id, request.body.reason, deps.clock.now()),
    );

    register(app, paymentFileRoutes.revert, async (request) =>
      revertPaymentFile(request.db, actorOf(request), request.params.id, request.body.reason, today(), deps.clock.now()),
    );

    register(app, paymentFileRoutes.laterPayments, async (request) => revertCheck(request.db, request.params.id));

    register(app, paymentFileRoutes.original, async (request, reply) => {
      const [file] = await request.db
        .select({ fileName: paymentFiles.fileName, contentType: paymentFiles.contentType, content: paymentFiles.content })
        .from(paymentFiles)
        .where(eq(paymentFiles.id, request.params.id));
      if (!file) throw new HttpProblem(404, 'Archivo no encontrado', 'El archivo no existe o no es de tu empresa.');
      reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store');
      return file.content;
    });

    register(
      app,
      paymentFileRoutes.result,
      async (request, reply) => {
        // A streamed answer has no request transaction: the file is read in the user's scope like the rows after it.
        const file = await request.inScope((tx) => loadPaymentFile(tx, request.params.id));
        return sendXlsx(request, reply, {
          filename: `resultado-${file.fileName.replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '_')}.xlsx`,
          sheet: 'Resultado',
          columns: sheetColumns(PAYMENT_FILE_RESULT_COLUMNS),
          read: ({ offset }, limit) => request.inScope((tx) => resultRows(tx, file.id, offset, limit)),
          toCells: ({ row, creditNumber, payment }) => ({
            line: row.line,
            raw: row.raw,
            creditRef: row.creditRef,
            employeeNumber: row.employeeNumber,
            curpRfc: row.curpRfc,
            amount: row.amount === null ? null : Number(row.amount),
            period: row.period,
            reference: row.reference,
            outcome: row.outcome,
            message: row.message,
            credit: creditNumber === null ? null : creditFolio(creditNumber),
            ...splitCells(payment),
          }),
        });
      },
      { streamsAnswer: true },
    );

    register(app, paymentRoutes.list, async (request) => {
      const { page, pageSize, sort, ...filters } = request.query;
      return pagedList(
        { page, pageSize },
        paymentListSelect(request.db)
          .where(paymentFilters(filters))
          .orderBy(...paymentOrder(sort)),
        paymentCount(request.db, filters),
        toPayment,
      );
    });

    register(app, paymentRoutes.totals, async (request) => paymentTotals(request.db, request.query));

    register(
      app,
      paymentRoutes.export,
      async (request, reply) => {
        const { sort, ...filters } = request.query;
        const where = paymentFilters(filters);
        return sendXlsx(request, reply, {
          filename: `pagos-${today()}.xlsx`,
          sheet: 'Pagos',
          columns: sheetColumns(PAYMENT_COLUMNS),
          read: ({ offset }, limit) =>
            request.inScope((tx) =>
              paymentListSelect(tx)
                .where(where)
                .orderBy(...paymentOrder(sort))
                .limit(limit)
                .offset(offset),
            ),
          toCells: (row) => {
            const payment = toPayment(row);
            return {
              ...payment,
              valueDate: excelSerialDay(payment.valueDate),
              amount: Number(payment.amount),
              ...splitCells(payment.split),
            };
          },
        });
      },
      { streamsAnswer: true },
    );
  };
}
