import type { FastifyRequest } from 'fastify';
import { and, desc, eq, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { jsonList, type JsonPart } from '../../db/json-list';
import { auditEvents } from '../../db/schema/audit';
import type { AuditEntry } from '@portal/contract';
import type { Principal } from '../../http/auth';

/** Who did it: the HTTP request (its principal and id), or a process acting with a principal (seed, bench). */
export type AuditActor = Pick<FastifyRequest, 'id' | 'principal' | 'identity'>;

/** A signed-in user's request acting on data: what a service needs to check rules and record the audit. */
export type Actor = AuditActor & { principal: Principal };

/** The request of a route that requires a permission: the access hook (http/auth.ts) has set its principal. */
export const actorOf = (request: FastifyRequest): Actor => request as Actor;

type AuditEvent = { action: string; entity: string; entityId: string; before?: unknown; after?: unknown; occurredAt: Date };

/** Records one write, inside the caller's transaction: who (from the request), what, before and after. */
export async function recordAudit(tx: Tx, request: AuditActor, ...events: AuditEvent[]): Promise<void> {
  await tx.insert(auditEvents).values(
    events.map((event) => ({
      occurredAt: event.occurredAt,
      actorId: request.principal?.userId ?? null,
      actorEmail: request.principal?.email ?? request.identity?.email ?? null,
      action: event.action,
      entity: event.entity,
      entityId: event.entityId,
      before: event.before ?? null,
      after: event.after ?? null,
      requestId: request.id,
    })),
  );
}

const auditEntryFields = {
  id: auditEvents.id,
  occurredAt: auditEvents.occurredAt,
  actorEmail: auditEvents.actorEmail,
  action: auditEvents.action,
  before: auditEvents.before,
  after: auditEvents.after,
};

const toAuditEntry = (row: Pick<typeof auditEvents.$inferSelect, keyof typeof auditEntryFields>): AuditEntry => ({
  id: row.id,
  occurredAt: row.occurredAt.toISOString(),
  actorEmail: row.actorEmail,
  action: row.action,
  before: row.before,
  after: row.after,
});

const HISTORY_ORDER = [desc(auditEvents.occurredAt), desc(auditEvents.id)];

/** The last `limit` audit entries of an entity, newest first. */
export async function auditHistory(db: Db, entity: string, entityId: string, limit = 50): Promise<AuditEntry[]> {
  const rows = await db
    .select(auditEntryFields)
    .from(auditEvents)
    .where(and(eq(auditEvents.entity, entity), eq(auditEvents.entityId, entityId)))
    .orderBy(...HISTORY_ORDER)
    .limit(limit);
  return rows.map(toAuditEntry);
}

/** The same history as a column of an outer select (db/json-list.ts), for an entity whose id the outer row holds. */
export const auditHistoryOf = (entity: string, entityId: SQLWrapper, limit = 50): JsonPart<AuditEntry[]> =>
  jsonList(
    auditEntryFields,
    {
      from: sql`from ${auditEvents}`,
      where: and(eq(auditEvents.entity, entity), eq(auditEvents.entityId, sql`${entityId}::text`))!,
      orderBy: HISTORY_ORDER,
      limit,
    },
    toAuditEntry,
  );
