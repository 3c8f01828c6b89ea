import type { FastifyPluginAsync } from 'fastify';
import { paymentOrderRoutes, refundRoutes } from '@portal/contract';
import { formatCents, parseCents } from '@portal/lending';
import type { AppDeps } from '../../deps';
import { HttpProblem } from '../../http/errors';
import { register } from '../../http/register';
import { actorOf } from '../audit/audit';
import { mexicoToday } from '../shared/business-date';
import { SPEI_PORTAL_V1, renderCsv, renderFixed } from './bank-layout';
import {
  batchFolio,
  batchLineRows,
  listBatchLines,
  listPaymentBatches,
  listPaymentOrders,
  listRefundCandidates,
  listRefunds,
  loadBatch,
} from './treasury.queries';
import { authorizeBatch, decideRefund, generateBatch, recordResults, requestRefund } from './treasury.service';

/** Tesorería → Órdenes de pago and Cartera → Devoluciones over HTTP. */
export function treasuryRoutes(deps: AppDeps): FastifyPluginAsync {
  const clocked = () => {
    const now = deps.clock.now();
    return { now, today: mexicoToday(now) };
  };
  return async (app) => {
    register(app, paymentOrderRoutes.orders, async (request) => listPaymentOrders(request.db, request.query));
    register(app, paymentOrderRoutes.batches, async (request) => listPaymentBatches(request.db, request.query));
    register(app, paymentOrderRoutes.batch, async (request) => loadBatch(request.db, request.params.id));
    register(app, paymentOrderRoutes.lines, async (request) => listBatchLines(request.db, request.params.id));
    register(app, paymentOrderRoutes.generate, async (request, reply) => {
      const batch = await generateBatch(request.db, actorOf(request), { ...clocked(), sourceAccount: request.body.sourceAccount });
      reply.code(201);
      return batch;
    });
    register(app, paymentOrderRoutes.authorize, async (request) =>
      authorizeBatch(request.db, actorOf(request), { ...clocked(), id: request.params.id }),
    );
    register(app, paymentOrderRoutes.results, async (request) =>
      recordResults(request.db, actorOf(request), { ...clocked(), id: request.params.id, ...request.body }),
    );
    register(app, paymentOrderRoutes.file, async (request, reply) => {
      const batch = await loadBatch(request.db, request.params.id);
      if (batch.status === 'por autorizar') {
        throw new HttpProblem(409, 'Lote sin autorizar', 'El archivo del banco se descarga cuando otra persona autoriza el lote.');
      }
      // A refund cancelled at authorization (its saldo a favor no longer covered it) never goes to the bank.
      const lines = (await batchLineRows(request.db, batch.id)).filter((line) => line.order_status !== 'cancelada');
      const content = {
        sourceAccount: batch.sourceAccount,
        date: mexicoToday(new Date(batch.authorizedAt ?? batch.generatedAt)),
        folioNumber: Number(batch.folio.slice(3)),
        total: formatCents(lines.reduce((sum, line) => sum + parseCents(line.amount, 'importe'), 0n)),
        lines: lines.map((line) => ({
          line: line.line,
          trackingKey: line.tracking_key,
          clabe: line.clabe,
          beneficiary: line.beneficiary,
          beneficiaryId: line.beneficiary_id,
          amount: line.amount,
          concept: line.concept,
          reference: line.reference,
        })),
      };
      const csv = request.query.format === 'csv';
      reply
        .header('content-type', csv ? 'text/csv; charset=utf-8' : 'text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="${batchFolio(content.folioNumber)}.${csv ? 'csv' : 'txt'}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store');
      return csv ? renderCsv(SPEI_PORTAL_V1, content) : renderFixed(SPEI_PORTAL_V1, content);
    });

    register(app, refundRoutes.candidates, async (request) => listRefundCandidates(request.db, request.query));
    register(app, refundRoutes.list, async (request) => listRefunds(request.db, request.query));
    register(app, refundRoutes.request, async (request, reply) => {
      const refund = await requestRefund(request.db, actorOf(request), { ...clocked(), body: request.body });
      reply.code(201);
      return refund;
    });
    register(app, refundRoutes.decide, async (request) =>
      decideRefund(request.db, actorOf(request), { ...clocked(), id: request.params.id, body: request.body }),
    );
  };
}
