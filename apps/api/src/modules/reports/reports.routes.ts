import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { and, asc, eq, gt } from 'drizzle-orm';
import { DEFAULT_REPORT_RETENTION_DAYS, reportDefinitionRoutes, reportRunRoutes } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { reportRunChunks, reportRuns } from '../../db/schema/reports';
import { HttpProblem } from '../../http/errors';
import { register } from '../../http/register';
import { actorOf } from '../audit/audit';
import {
  RUN_NOT_FOUND,
  listDefinitions,
  listRuns,
  loadDefinitionDetail,
  loadRun,
  profileOptions,
  runnableDefinitions,
} from './reports.queries';
import { createDefinition, setDefinitionStatus, startRun, updateDefinition } from './reports.service';

/** Admon Cartera's report definitions and Cartera's report runs over HTTP. */
export function reportsRoutes(deps: AppDeps): FastifyPluginAsync {
  const retentionDays = deps.reportRetentionDays ?? DEFAULT_REPORT_RETENTION_DAYS;
  return async (app) => {
    register(app, reportDefinitionRoutes.list, async (request) => listDefinitions(request.db, request.query));

    register(app, reportDefinitionRoutes.profiles, async (request) => ({ items: await profileOptions(request.db) }));

    register(app, reportDefinitionRoutes.get, async (request) => loadDefinitionDetail(request.db, request.params.id));

    register(app, reportDefinitionRoutes.create, async (request, reply) => {
      const created = await createDefinition(request.db, actorOf(request), deps.clock.now(), request.body);
      reply.code(201);
      return created;
    });

    register(app, reportDefinitionRoutes.update, async (request) =>
      updateDefinition(request.db, actorOf(request), deps.clock.now(), request.params.id, request.body),
    );

    register(app, reportDefinitionRoutes.setStatus, async (request) =>
      setDefinitionStatus(request.db, actorOf(request), deps.clock.now(), request.params.id, request.body),
    );

    register(app, reportRunRoutes.runnable, async (request) => ({
      items: await runnableDefinitions(request.db, actorOf(request).principal.profileId),
    }));

    register(app, reportRunRoutes.list, async (request) =>
      listRuns(request.db, actorOf(request).principal.userId, request.query, deps.clock.now()),
    );

    register(app, reportRunRoutes.start, async (request, reply) => {
      reply.code(202);
      return startRun(request.db, deps.jobs, actorOf(request), { ...request.body, now: deps.clock.now(), retentionDays });
    });

    register(app, reportRunRoutes.get, async (request) =>
      loadRun(request.db, actorOf(request).principal.userId, request.params.id, deps.clock.now()),
    );

    register(
      app,
      reportRunRoutes.download,
      async (request, reply) => {
        const userId = actorOf(request).principal.userId;
        const [run] = await request.inScope((tx) =>
          tx
            .select()
            .from(reportRuns)
            .where(and(eq(reportRuns.id, request.params.id), eq(reportRuns.requestedBy, userId))),
        );
        if (!run) throw new HttpProblem(404, RUN_NOT_FOUND.title, RUN_NOT_FOUND.detail);
        if (run.status !== 'completado' || !run.fileName)
          throw new HttpProblem(
            409,
            'Archivo no disponible',
            `La ejecución está ${run.status}: solo una ejecución completada tiene archivo.`,
          );
        if (run.expiresAt && run.expiresAt <= deps.clock.now())
          throw new HttpProblem(410, 'Archivo vencido', 'El archivo ya no se conserva; ejecuta el reporte de nuevo.');
        // Piece by piece, each read in the user's scope: a 50 MB file is never held whole in memory.
        let seq = -1;
        const pieces = Readable.from(
          (async function* () {
            for (;;) {
              const [chunk] = await request.inScope((tx) =>
                tx
                  .select({ seq: reportRunChunks.seq, data: reportRunChunks.data })
                  .from(reportRunChunks)
                  .where(and(eq(reportRunChunks.runId, run.id), gt(reportRunChunks.seq, seq)))
                  .orderBy(asc(reportRunChunks.seq))
                  .limit(1),
              );
              if (!chunk) return;
              seq = chunk.seq;
              yield chunk.data;
            }
          })(),
        );
        return reply
          .type(run.contentType ?? 'application/octet-stream')
          .header('content-length', String(run.size ?? 0))
          .header('content-disposition', `attachment; filename="${run.fileName}"`)
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store')
          .send(pieces);
      },
      { streamsAnswer: true },
    );
  };
}
