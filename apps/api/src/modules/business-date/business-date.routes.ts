import type { FastifyPluginAsync } from 'fastify';
import { businessDateRoutes } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { register } from '../../http/register';
import { actorOf } from '../audit/audit';
import { mexicoToday } from '../shared/business-date';
import { dayCloseHistory, loadDayCloseRun } from './business-date.queries';
import { listBusinessDates, requestDayClose } from './business-date.service';

/** Admin Fecha Flujo over HTTP: the business dates, the closes so far, "Cerrar día" and a run's progress. */
export function businessDatesRoutes(deps: AppDeps): FastifyPluginAsync {
  const today = () => mexicoToday(deps.clock.now());
  return async (app) => {
    register(app, businessDateRoutes.businessDates, async (request) => listBusinessDates(request.db, today()));

    register(app, businessDateRoutes.closes, async (request) => dayCloseHistory(request.db, request.query));

    register(app, businessDateRoutes.closeDay, async (request, reply) => {
      const actor = actorOf(request);
      // The user's own company unless another is named (SA); the service refuses one the user cannot see.
      const companyId = request.body.companyId ?? actor.principal.companyId;
      reply.code(202);
      return requestDayClose(request.db, deps.jobs, actor, {
        companyId,
        throughDate: request.body.throughDate,
        today: today(),
        now: deps.clock.now(),
      });
    });

    register(app, businessDateRoutes.run, async (request) => loadDayCloseRun(request.db, request.params.id));
  };
}
