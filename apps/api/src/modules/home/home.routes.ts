import type { FastifyPluginAsync } from 'fastify';
import { homeRoutes } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { register } from '../../http/register';
import { mexicoToday } from '../shared/business-date';
import { homeSummary } from './home.queries';

/** The home's portfolio figures over HTTP. */
export function homeSummaryRoutes(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    register(app, homeRoutes.summary, async (request) => homeSummary(request.db, mexicoToday(deps.clock.now())));
  };
}
