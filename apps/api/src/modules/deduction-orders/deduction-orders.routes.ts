import type { FastifyPluginAsync } from 'fastify';
import { deductionOrderRoutes } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { register } from '../../http/register';
import { actorOf } from '../audit/audit';
import { mexicoToday } from '../shared/business-date';
import { sendDeductionOrderFile } from './deduction-order-file';
import { deductionOrderDifferences, listDeductionOrderLines, listDeductionOrders, loadDeductionOrder } from './deduction-orders.queries';
import {
  deductionOrderOptions,
  generateDeductionOrder,
  issueDeductionOrder,
  sendDeductionOrder,
  substituteDeductionOrder,
} from './deduction-orders.service';

/** Cartera → Cédulas de descuento over HTTP. */
export function deductionOrdersRoutes(deps: AppDeps): FastifyPluginAsync {
  const clocked = () => {
    const now = deps.clock.now();
    return { now, today: mexicoToday(now) };
  };
  return async (app) => {
    register(app, deductionOrderRoutes.options, async (request) => deductionOrderOptions(request.db, clocked().today));
    register(app, deductionOrderRoutes.list, async (request) => listDeductionOrders(request.db, request.query));
    register(app, deductionOrderRoutes.get, async (request) => loadDeductionOrder(request.db, request.params.id));
    register(app, deductionOrderRoutes.lines, async (request) => listDeductionOrderLines(request.db, request.params.id, request.query));
    register(app, deductionOrderRoutes.differences, async (request) => ({
      items: await deductionOrderDifferences(request.db, request.params.id),
    }));
    register(app, deductionOrderRoutes.generate, async (request, reply) => {
      const order = await generateDeductionOrder(request.db, actorOf(request), { ...clocked(), agreementId: request.body.agreementId });
      reply.code(201);
      return order;
    });
    register(app, deductionOrderRoutes.issue, async (request) =>
      issueDeductionOrder(request.db, actorOf(request), { ...clocked(), id: request.params.id }),
    );
    register(app, deductionOrderRoutes.send, async (request) =>
      sendDeductionOrder(request.db, actorOf(request), { ...clocked(), id: request.params.id, body: request.body }),
    );
    register(app, deductionOrderRoutes.download, async (request, reply) => sendDeductionOrderFile(request, reply), { streamsAnswer: true });
    register(app, deductionOrderRoutes.substitute, async (request, reply) => {
      const order = await substituteDeductionOrder(request.db, actorOf(request), { ...clocked(), id: request.params.id });
      reply.code(201);
      return order;
    });
  };
}
