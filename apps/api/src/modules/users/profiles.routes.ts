import type { FastifyPluginAsync } from 'fastify';
import { profileRoutes } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { register } from '../../http/register';
import { actorOf } from '../audit/audit';
import { listCompanies, listProfiles } from './profiles.queries';
import { createProfile, deleteProfile, updateProfile } from './profiles.service';

/** Profiles (role code + permission paths) and the companies a user can belong to: the user form's catalogues. */
export function profilesRoutes(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    register(app, profileRoutes.list, async (request) => ({ items: await listProfiles(request.db) }));

    register(app, profileRoutes.companies, async (request) => ({ items: await listCompanies(request.db) }));

    register(app, profileRoutes.create, async (request, reply) => {
      const created = await createProfile(request.db, actorOf(request), deps.clock.now(), request.body);
      reply.code(201);
      return created;
    });

    register(app, profileRoutes.update, async (request) =>
      updateProfile(request.db, actorOf(request), deps.clock.now(), request.params.id, request.body),
    );

    register(app, profileRoutes.remove, async (request, reply) => {
      await deleteProfile(request.db, actorOf(request), deps.clock.now(), request.params.id);
      reply.code(204);
      return null;
    });
  };
}
