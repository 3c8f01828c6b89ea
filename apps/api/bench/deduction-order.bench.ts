/**
 * `BENCH_DATABASE=<kept database> npx tsx bench/deduction-order.bench.ts` (issue 46, Scale): on a kept large database
 * (loadtest-database.ts builds one of 1,000,000 credits), for the agreement with the most credits and its payday with
 * the most installments due: Generar's time (the service, one INSERT … SELECT), the download's lines read in the
 * download's batches and written as its csv with the peak RSS over the start, and the payday statement's p95 over
 * STATEMENT_CALLS calls. Everything runs in one transaction that is rolled back: the kept database is left as it was
 * (and is not migrated: the statements read tables the older numbering already has).
 */
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client';
import { withScope } from '../src/db/scope';
import type { AuditActor } from '../src/modules/audit/audit';
import { generateDeductionOrder, issueDeductionOrder } from '../src/modules/deduction-orders/deduction-orders.service';
import { lineFields, readBatch } from '../src/modules/deduction-orders/deduction-order-file';
import { employerStatementOf } from '../src/modules/employer-statement/employer-statement.queries';

const name = process.env.BENCH_DATABASE ?? 'portal_bench_11929';
const url = `${process.env.BENCH_SERVER ?? 'postgres://postgres@127.0.0.1:5432'}/${name}`;
const STATEMENT_CALLS = Number(process.env.STATEMENT_CALLS ?? 50);

class Rollback extends Error {}

const database = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
const db = database.db;
const rows = <Row>(result: unknown) => (result as { rows: Row[] }).rows;
const [target] = rows<{ agreement_id: string; company_id: string; credits: number }>(
  await withScope(db, 'all-companies', (tx) =>
    tx.execute(sql`select agreement_id, company_id, count(*)::int as credits from credits group by 1, 2 order by 3 desc limit 1`),
  ),
);
if (!target) throw new Error('La base no tiene créditos.');
const companyId = target.company_id;

try {
  await withScope(db, { companyId }, async (tx) => {
    const [payday] = rows<{ due_date: string; due: number }>(
      await tx.execute(sql`
        select i.due_date::text as due_date, count(*)::int as due from installments i join credits c on c.id = i.credit_id
        where c.agreement_id = ${target.agreement_id} and i.payment > 0 group by 1 order by 2 desc, 1 limit 1`),
    );
    const [user] = rows<{ id: string }>(await tx.execute(sql`select id from users where company_id = ${companyId} limit 1`));
    const actor = { id: 'bench', principal: { userId: user?.id ?? null } } as unknown as AuditActor;
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    console.log(
      `Convenio con ${target.credits.toLocaleString('es-MX')} créditos; día de pago ${payday!.due_date} con ${payday!.due.toLocaleString('es-MX')} cuotas`,
    );

    let started = performance.now();
    const draft = await generateDeductionOrder(tx, actor, { agreementId: target.agreement_id, payday: payday!.due_date, today, now });
    const generateMs = performance.now() - started;
    const lines = draft.altas.count + draft.bajas.count + draft.cambios.count + draft.continuing.count;
    console.log(`Generar: ${lines.toLocaleString('es-MX')} líneas en ${(generateMs / 1000).toFixed(1)} s`);
    await issueDeductionOrder(tx, actor, { id: draft.id, pastCutOff: true, today, now });

    // The download: the route's batches, each turned into csv lines and written to a sink, as the route streams them.
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    let bytes = 0;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done();
      },
    });
    started = performance.now();
    let after = 0;
    let written = 0;
    for (;;) {
      const batch = await readBatch(tx, draft.id, after);
      const text = batch.map((line) => Object.values(lineFields(line, draft.payday)).join(',') + '\r\n').join('');
      if (!sink.write(text)) await new Promise((resolve) => sink.once('drain', resolve));
      written += batch.length;
      peak = Math.max(peak, process.memoryUsage().rss);
      if (batch.length === 0) break;
      after = batch.at(-1)!.line;
    }
    clearInterval(sample);
    console.log(
      `Descarga: ${written.toLocaleString('es-MX')} líneas, ${(bytes / 1e6).toFixed(1)} MB en ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `RSS máximo ${(peak / 1e6).toFixed(0)} MB (${((peak - baseline) / 1e6).toFixed(0)} MB sobre el inicio)`,
    );

    const month = draft.payday.slice(0, 7);
    const times: number[] = [];
    for (let call = 0; call < STATEMENT_CALLS; call++) {
      started = performance.now();
      await employerStatementOf(tx, { month, agreementId: target.agreement_id });
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!.toFixed(0);
    console.log(`Estado de cuenta del mes ${month}: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, máx ${at(1)} ms (${STATEMENT_CALLS} llamadas)`);
    throw new Rollback();
  });
} catch (error) {
  if (!(error instanceof Rollback)) throw error;
  console.log('Transacción deshecha: la base queda como estaba.');
} finally {
  await database.close();
}
