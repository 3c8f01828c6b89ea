import type { FastifyPluginAsync } from 'fastify';
import { creditRoutes } from '@portal/contract';
import { register } from '../../http/register';
import { loadCredit } from './credits.queries';

/** Cartera's credits over HTTP (the wallet screens build on this). */
export const creditsRoutes: FastifyPluginAsync = async (app) => {
  register(app, creditRoutes.get, async (request) => loadCredit(request.db, request.params.id));
};
