import type { FastifyPluginAsync } from 'fastify';
import { outboxRoutes as outboxRouteTable } from '@portal/contract';
import { register } from '../../http/register';
import { listOutbox } from './outbox.queries';

/**
 * The embedded mode's mail: password-reset and invitation links, newest first, for administrators (who manage
 * users) to pass on when there is no mail server.
 */
export const outboxRoutes: FastifyPluginAsync = async (app) => {
  register(app, outboxRouteTable.list, async (request) => listOutbox(request.db, request.principal!, request.query));
};
