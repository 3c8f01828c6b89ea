import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { preRequestRoutes } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { register } from '../../http/register';
import { actorOf } from '../audit/audit';
import { listPreRequests, loadPreRequest, originationCatalog } from './pre-requests.queries';
import { createPreRequest, expirePreRequests, sendPreRequest, simulate, updatePreRequest } from './pre-requests.service';
import { mexicoToday } from '../shared/business-date';

/** Pre-solicitudes over HTTP: simulate, save as draft, edit a draft, send. Conversion into a request comes with requests. */
export function preRequestsRoutes(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    const context = (request: FastifyRequest) => ({
      actor: actorOf(request),
      now: deps.clock.now(),
      dailyMinimumWage: deps.dailyMinimumWage,
    });

    register(app, preRequestRoutes.catalog, async (request) =>
      originationCatalog(request.db, mexicoToday(deps.clock.now()), deps.dailyMinimumWage),
    );

    register(app, preRequestRoutes.simulate, async (request) =>
      simulate(request.db, request.body, deps.clock.now(), deps.dailyMinimumWage, {}, request.body.renews),
    );

    register(app, preRequestRoutes.list, async (request) => {
      await expirePreRequests(request.db, deps.clock.now());
      return listPreRequests(request.db, request.principal!.userId, request.query);
    });

    register(app, preRequestRoutes.get, async (request) => {
      await expirePreRequests(request.db, deps.clock.now());
      return loadPreRequest(request.db, request.params.id);
    });

    register(app, preRequestRoutes.create, async (request, reply) => {
      const created = await createPreRequest(request.db, context(request), request.body);
      reply.code(201);
      return created;
    });

    register(app, preRequestRoutes.update, async (request) =>
      updatePreRequest(request.db, context(request), request.params.id, request.body),
    );

    register(app, preRequestRoutes.send, async (request) =>
      sendPreRequest(request.db, context(request), request.params.id, request.body.version),
    );
  };
}
