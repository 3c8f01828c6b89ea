import type { FastifyPluginAsync } from 'fastify';
import { searchesInTwoSteps } from '../../http/company-scope';
import { USER_COLUMNS, userRoutes } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { register } from '../../http/register';
import { sendXlsx, sheetColumns } from '../../lib/xlsx-export';
import { actorOf } from '../audit/audit';
import { listUsers, loadUserDetail, userFilters, userListSelect, userOrder } from './users.queries';
import { createUser, issueAccessLink, setUserStatus, updateUser } from './users.service';

/** Usuarios over HTTP: each route of the contract's table bound to its query or service. */
export function usersRoutes(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    // A search asks the matching users first: two statements, the second on the first's answer (decisions 0034, 0035).
    register(app, userRoutes.list, async (request) => listUsers(request.db, request.query, searchesInTwoSteps(request)), {
      readsInOneTurn: (request) => !searchesInTwoSteps(request),
    });

    register(
      app,
      userRoutes.export,
      async (request, reply) => {
        const where = userFilters(request.query);
        const order = userOrder(request.query.sort);
        return sendXlsx(request, reply, {
          filename: `usuarios-${deps.clock.now().toISOString().slice(0, 10)}.xlsx`,
          sheet: 'Usuarios',
          columns: sheetColumns(USER_COLUMNS),
          read: ({ offset }, limit) =>
            request.inScope((tx) =>
              userListSelect(tx)
                .where(where)
                .orderBy(...order)
                .limit(limit)
                .offset(offset),
            ),
          toCells: (row) => ({ ...row, status: row.active ? 'Activo' : 'Inactivo', lastSignInAt: row.lastSignInAt ?? undefined }),
        });
      },
      { streamsAnswer: true },
    );

    register(app, userRoutes.get, async (request) => loadUserDetail(request.db, request.params.id));

    register(app, userRoutes.create, async (request, reply) => {
      const created = await createUser(request.db, actorOf(request), deps, request.body);
      reply.code(201);
      return created;
    });

    register(app, userRoutes.update, async (request) => updateUser(request.db, actorOf(request), deps, request.params.id, request.body));

    register(app, userRoutes.setStatus, async (request) =>
      setUserStatus(request.db, actorOf(request), deps, request.params.id, request.body),
    );

    register(app, userRoutes.accessLink, async (request) => issueAccessLink(request.db, actorOf(request), deps, request.params.id));
  };
}
