import type { FastifyPluginAsync } from 'fastify';
import { sessionRoutes as sessionRouteTable } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { register } from '../../http/register';

/** Where the browser finds the identity provider: public, since it is needed before anyone signs in. */
export function sessionRoutes(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    register(app, sessionRouteTable.authConfig, async () => deps.authConfig);
  };
}
