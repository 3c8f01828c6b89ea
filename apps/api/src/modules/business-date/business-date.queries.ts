import { desc, eq } from 'drizzle-orm';
import { HttpProblem } from '../../http/errors';
import { fixedCount, type Paged, pagedList } from '../../http/pagination';
import type { DayClose, DayCloseRun } from '@portal/contract';
import type { Tx } from '../../db/client';
import { fixedSelect } from '../../db/fixed-select';
import { dayCloseRuns, dayCloses } from '../../db/schema/portfolio';
import { companies, users } from '../../db/schema/users';

export function toDayCloseRun(row: typeof dayCloseRuns.$inferSelect): DayCloseRun {
  return {
    id: row.id,
    companyId: row.companyId,
    fromDate: row.fromDate,
    throughDate: row.throughDate,
    daysTotal: row.daysTotal,
    daysDone: row.daysDone,
    status: row.status,
    jobId: row.jobId,
    error: row.error,
    requestedBy: row.requestedBy,
    requestedAt: row.requestedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

const dayCloseList = fixedSelect({ close: dayCloses, company: companies.name, closedBy: users.email }, (select) =>
  select.from(dayCloses).innerJoin(companies, eq(companies.id, dayCloses.companyId)).leftJoin(users, eq(users.id, dayCloses.closedBy)),
);

const dayCloseCount = fixedCount((select) => select.from(dayCloses));

/** Admin Fecha Flujo's history: the closed days, newest first, with who closed them. */
export function dayCloseHistory(
  tx: Tx,
  query: { companyId?: string | undefined; page: number; pageSize: number },
): Promise<Paged<DayClose>> {
  const where = query.companyId ? eq(dayCloses.companyId, query.companyId) : undefined;
  return pagedList(
    query,
    dayCloseList.in(tx).where(where).orderBy(desc(dayCloses.businessDate), desc(dayCloses.id)),
    dayCloseCount.in(tx).where(where),
    ({ close, company, closedBy }) => ({ ...close, company, closedBy, closedAt: close.closedAt.toISOString() }),
  );
}

/** One run, for the progress bar; 404 when it is another company's. */
export async function loadDayCloseRun(tx: Tx, id: string): Promise<DayCloseRun> {
  const [run] = await tx.select().from(dayCloseRuns).where(eq(dayCloseRuns.id, id));
  if (!run) throw new HttpProblem(404, 'Cierre no encontrado', 'El cierre de día no existe.');
  return toDayCloseRun(run);
}
