import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { ReportRun } from '@portal/contract';
import type { FailureLog } from '../../jobs/tracked-job';
import { APP_ROLE } from '../../db/client';
import { reportRuns } from '../../db/schema/reports';
import { users } from '../../db/schema/users';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { createTestApp, type TestContext } from '../../test/test-app';
import { runReportJob } from './reports.service';

/**
 * Issue 44, item 1: a report run whose query the database refuses (here the table it reads is missing while it
 * works) ends fallido showing its requester a Spanish sentence and a reference — never
 * the statement, its parameters or an id — and the process log has the statement under that reference.
 */
describe('a report run that fails', () => {
  let ctx: TestContext;
  /** DDL as the tables' owner, which the application's role is not (PGlite has one connection: leave the role, take it back). */
  async function asOwner(statement: string): Promise<void> {
    await ctx.db.execute(sql`reset role`);
    try {
      await ctx.db.execute(sql.raw(statement));
    } finally {
      await ctx.db.execute(sql.raw(`set role ${APP_ROLE}`));
    }
  }
  beforeAll(async () => {
    // The demo portfolio brings the report definitions and a finished run to copy.
    ctx = await createTestApp('pglite', { seed: (db, now) => seedDemoPortfolio(db, now, 5) });
  });
  afterAll(() => ctx?.close());

  it('shows a sentence and a reference, and logs the detail under it', async () => {
    const [seeded] = await ctx.system((tx) => tx.select().from(reportRuns).limit(1));
    const [cartera] = await ctx.system((tx) => tx.select({ id: users.id }).from(users).where(eq(users.email, 'cartera@demo.mx')));
    const definition = seeded!.definition as { filters: unknown[] };
    const [run] = await ctx.system((tx) =>
      tx
        .insert(reportRuns)
        .values({
          companyId: seeded!.companyId,
          definitionId: seeded!.definitionId,
          definitionVersion: seeded!.definitionVersion,
          definition: { ...definition, filters: [{ field: 'disbursementDate', type: 'dateRange' }] },
          parameters: { disbursementDate: { from: '2026-01-01' } },
          requestedBy: cartera!.id,
          requestedAt: ctx.clock.now(),
        })
        .returning(),
    );
    const logged: Parameters<FailureLog>[0][] = [];
    // Dates out of range no longer reach SQL (the contract refuses them), so the database is made to refuse the
    // statement itself: the credits it reads are renamed away while the run works, and put back before it is read.
    await asOwner('alter table credits rename to credits_away');
    await runReportJob(
      ctx.db,
      { runId: run!.id, companyId: run!.companyId, retentionDays: 7 },
      { now: () => ctx.clock.now(), concurrentProgress: false },
      (entry) => logged.push(entry),
    );

    await asOwner('alter table credits_away rename to credits');

    const response = await ctx.app.inject({ method: 'GET', url: `/api/report-runs/${run!.id}`, headers: await ctx.as('cartera@demo.mx') });
    expect(response.statusCode).toBe(200);
    const shown = response.json<ReportRun>();
    expect(shown.status).toBe('fallido');
    const reference =
      /^No se pudo completar el reporte por un error interno\. Si se repite, comunícate con soporte y menciona la referencia (REF-[0-9A-F]{8})\.$/.exec(
        shown.error ?? '',
      )?.[1];
    expect(reference, shown.error ?? '').toBeDefined();
    for (const leak of ['query', 'declare', 'params', 'credits', '2026-01-01', run!.companyId, run!.id])
      expect(shown.error).not.toContain(leak);

    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ reference, runId: run!.id });
    const error = logged[0]!.error as Error & { cause?: Error };
    expect(`${error.message} ${error.cause?.message ?? ''}`).toContain('credits');
  });
});
