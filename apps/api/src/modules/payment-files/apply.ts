import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { allocatePayment, parseCents, type AllocationResult, type Frequency } from '@portal/lending';
import { APPLIED_OUTCOMES, percentToFraction, type RowOutcome } from '@portal/contract';
import { pipelines, type Db, type Tx } from '../../db/client';
import { anyOf } from '../../db/any-of';
import { arrayParam, jsonElements, jsonParam, unnestRows } from '../../db/array-param';
import { rowsOf } from '../../db/rows';
import { breathe, Pipeline } from '../../db/pipeline';
import { withScope } from '../../db/scope';
import { trimNumeric } from '../../db/numeric';
import { credits, installments } from '../../db/schema/credits';
import { paymentApplications, paymentFileRows, paymentFiles } from '../../db/schema/payments';
import { auditEvents } from '../../db/schema/audit';
import { HttpProblem } from '../../http/errors';
import { knownAging, type KnownAging, type OwedRow } from '../portfolio/aging';
import { changePortfolio, type PortfolioChange } from '../portfolio/change-portfolio';
import { chargedThrough } from '../portfolio/late-charges';
import {
  changedFrom,
  outstandingCents,
  scheduleFromText,
  SCHEDULE_TEXT,
  scheduleRowsSql,
  stored,
  storedAfter,
  toInstallmentState,
  type InstallmentRow,
  type StoredRow,
} from '../portfolio/schedule-rows';
import { creditFolio } from '../shared/folios';
import { longDate, pesos } from '../shared/es-mx';
import { allocationSplit } from '../shared/payment-split';
import { summarize } from './payment-files.queries';

/**
 * Applying a payment file (DOMAIN.md Algorithm 2 through packages/lending `allocatePayment`): every accepted row, in
 * one transaction, under the company's portfolio lock (a day close or another file of the same company waits). Rows
 * are handled a batch of credits at a time — read their schedules, allocate in memory, write back only what changed
 * with one statement per table, refresh the credits' aging — so a 100,000-row file never holds the whole portfolio in
 * memory. The statements are queued ahead of the work that needs them (db/pipeline.ts): the database reads the next
 * batch and writes the last one while this process allocates (decision 0018), and on PostgreSQL each is sent when
 * queued, so that the database finds the next one waiting when it ends one instead of waiting for this process to take
 * the answer (docs/measurements.md, "Stop 65").
 */

const BATCH = 2_000;
/** Rows allocated between two turns of the event loop (a few milliseconds of work): see Pipeline. */
const BREATHE_EVERY = 25;

/** What a payment changed, kept on it so that a revert puts back exactly this. */
export interface PaymentBefore {
  installment: string;
  rows: StoredRow[];
  deduction: { period: number; state: string } | null;
}

const cents = (value: string | undefined) => (value === undefined ? 0n : parseCents(value, 'importe'));
const sameAmount = (a: string, b: string) => cents(a) === cents(b);

/** The application's record (progress, outcome), written in its own short transaction so the screen sees it move. */
export async function markApplication(
  db: Db,
  companyId: string,
  applicationId: string,
  values: Partial<typeof paymentApplications.$inferInsert>,
): Promise<void> {
  await withScope(db, { companyId }, (tx) => tx.update(paymentApplications).set(values).where(eq(paymentApplications.id, applicationId)));
}

export interface BatchCredit {
  credit: {
    id: string;
    number: number;
    status: string;
    disbursementDate: string;
    frequency: Frequency;
    installment: string;
    annualRatePct: string;
    ivaRatePct: string;
    moratoryRatePct: string;
  };
  /** Its schedule, parsed when its row is allocated. */
  schedule: () => InstallmentRow[];
  /** Its expected deduction of the file's discount date, if it has one. */
  deduction: { period: number; state: string } | null;
}

/**
 * The schedule rows of credit `c` an allocation at `valueDate` over the closed day `closedDay` can read or change: from
 * the row before the first one that owes anything, falls due after the value date, has late charges that ran through
 * the closed day (chargedThrough rewrites it) or half an accrual (the write-back clears it); every row when none does.
 * Those before it owe nothing (no component is paid beyond its charge: packages/lending refuses such a row) and are due
 * by the value date, so the allocation pays, waives and rebuilds none of them and writes each back as it was — its
 * balance is what the schedule owes of principal after it, which the allocation never changes in total — and the
 * aging (knownAging) skips them; the row before the first needed one is the start of the current period
 * (packages/lending `periodStart`). A schedule's due dates follow its numbers (buildSchedule).
 * payment-files/schedule-read.test.ts holds the allocations and their writes equal with and without them.
 */
const neededRows = (valueDate: string, closedDay: string) => sql`
  select coalesce(min(j.number) - 1, 0) from installments j
  where j.credit_id = c.id
    and (j.outstanding <> 0 or j.due_date > ${valueDate}::date or j.accrues_from <= ${closedDay}::date
         or (j.accrual_through is null) <> (j.accrual_cent_days is null))`;

/**
 * A batch's credits with their schedules and the deduction of the discount date, in one statement (it was three): each
 * schedule as one text (SCHEDULE_TEXT) instead of a row per installment, parsed field by field by node-postgres and
 * mapped by Drizzle, and only from the rows the allocation needs (neededRows): the settled start of a schedule is most
 * of what a paying credit holds, and writing each row's columns as text is most of what the read costs the database.
 * The text is parsed credit by credit as each is allocated, so the schedules' objects die young: a batch's rows parsed
 * at once outlived V8's young generation, and collecting them took more of the process than allocating.
 */
export async function readBatch(
  pipeline: Pipeline,
  tx: Tx,
  companyId: string,
  ids: readonly string[],
  discountDate: string,
  closedDay: string,
): Promise<Map<string, BatchCredit>> {
  const result = await pipeline.send(() =>
    tx.execute(sql`
    select c.id, c.number, c.status, c.disbursement_date::text as "disbursementDate", c.frequency, c.installment::text as installment,
           c.annual_rate_pct::text as "annualRatePct", c.iva_rate_pct::text as "ivaRatePct", c.moratory_rate_pct::text as "moratoryRatePct",
           d.period, d.state,
           (select string_agg(${SCHEDULE_TEXT}, ';' order by ${installments.number}) from ${installments}
            where ${installments.creditId} = c.id and ${installments.number} >= (${neededRows(discountDate, closedDay)})) as schedule
    from credits c left join expected_deductions d on d.credit_id = c.id and d.discount_date = ${discountDate}::date
    where ${anyOf(sql`c.id`, ids)}`),
  );
  // node-postgres reads a bigint (the folio's number) as text.
  type Row = Omit<BatchCredit['credit'], 'number'> & {
    number: string;
    period: number | null;
    state: string | null;
    schedule: string | null;
  };
  const batch = new Map<string, BatchCredit>();
  for (const { period, state, schedule, number, ...stored } of rowsOf<Row>(result)) {
    const credit = { ...stored, number: Number(number) };
    batch.set(credit.id, {
      credit,
      schedule: () => scheduleFromText(schedule, credit.id, companyId),
      deduction: period === null ? null : { period, state: state! },
    });
  }
  return batch;
}

export interface ApplyOptions {
  fileId: string;
  companyId: string;
  appliedBy: string | null;
  now: Date;
  today: string;
  /** Rows applied so far (progress); called between batches. */
  onProgress?: (done: number) => Promise<void>;
  /** Credits per batch (default 2,000); tests take small ones to cross batches with a few rows. */
  batchSize?: number;
}

type AcceptedRow = { line: number; creditId: string | null; amount: string | null; outcome: RowOutcome; message: string | null };

/** The amounts a payment stores, as its columns are named. */
const PAYMENT_AMOUNTS = [
  'amount',
  'principal',
  'interest',
  'iva',
  'moratory_interest',
  'moratory_iva',
  'fees',
  'fees_iva',
  'overpayment',
] as const;

/**
 * A batch's payments, a list per column (what the company, the file, the date and who applied it give each is written
 * once in the statement). The allocation and the record of what was before as JSON text at once: the batch keeps
 * strings, which the collector does not trace, not object trees.
 */
type PaymentColumns = { id: string[]; credit_id: string[]; file_line: number[]; allocation: string[]; before: string[] } & Record<
  (typeof PAYMENT_AMOUNTS)[number],
  string[]
>;
const paymentColumns = (): PaymentColumns => ({
  id: [],
  credit_id: [],
  file_line: [],
  amount: [],
  principal: [],
  interest: [],
  iva: [],
  moratory_interest: [],
  moratory_iva: [],
  fees: [],
  fees_iva: [],
  overpayment: [],
  allocation: [],
  before: [],
});

/** What a batch's allocation writes: one statement per table. */
interface BatchWrites {
  rowUpdates: StoredRow[];
  payments: PaymentColumns;
  creditUpdates: { id: string; installment: string; overpayment: string }[];
  received: { credit_id: string; period: number }[];
  outcomes: { line: number; outcome: RowOutcome; message: string | null }[];
  /** The credits paid, each with its aging as the allocation tells it (knownAging): written, not aged from their rows again. */
  known: KnownAging[];
}

interface FileContext {
  file: { id: string; discountDate: string };
  companyId: string;
  closedDay: string;
  options: ApplyOptions;
  /** The statements that age paid credits at the closed day (the portfolio's door). */
  refreshStatements: PortfolioChange['refreshStatements'];
}

/**
 * A row's allocation through packages/lending, as the application makes it: from the schedule as the last close left it
 * (`asStored`), with the late charges that ran through `closedDay` written in — what the allocation pays from, and
 * what the write keeps, the charges running again from the next day.
 */
function allocateRow(
  credit: BatchCredit['credit'],
  asStored: readonly InstallmentRow[],
  amount: string,
  valueDate: string,
  closedDay: string,
) {
  const schedule = asStored.map((stored) => chargedThrough(stored, credit, closedDay));
  const result = allocatePayment({
    amount,
    valueDate,
    disbursementDate: credit.disbursementDate,
    ivaRate: percentToFraction(trimNumeric(credit.ivaRatePct)),
    annualRate: percentToFraction(trimNumeric(credit.annualRatePct)),
    frequency: credit.frequency,
    installment: credit.installment,
    installments: schedule.map(toInstallmentState),
  });
  return { schedule, result };
}

/**
 * A credit's payment as the application writes it: its allocation, the rows it changed (`written`, and `before` them
 * for a revert) and the credit's aging as the allocation tells it (knownAging).
 */
export function allocateCredit(
  credit: BatchCredit['credit'],
  asStored: readonly InstallmentRow[],
  amount: string,
  valueDate: string,
  closedDay: string,
): { result: AllocationResult; written: StoredRow[]; before: StoredRow[]; aging: KnownAging } {
  const { schedule, result } = allocateRow(credit, asStored, amount, valueDate, closedDay);
  const after = storedAfter(schedule, result.installments);
  const written: StoredRow[] = [];
  const before: StoredRow[] = [];
  // What each row owes after the payment and whether its charges run: a row it left as stored is as the table says.
  const owed: OwedRow[] = [];
  asStored.forEach((row, index) => {
    const next = after[index]!;
    const changed = changedFrom(row, next);
    owed.push({
      number: row.number,
      dueDate: row.dueDate,
      owed: changed ? outstandingCents(next) : cents(row.outstanding),
      running: (changed ? next.accrues_from : row.accruesFrom) !== null,
    });
    if (!changed) return;
    before.push(stored(row));
    written.push(next);
  });
  return { result, written, before, aging: knownAging(credit.id, owed, closedDay) };
}

/** A sobrepago row's message: what pays the credit off at the date, and what is left as saldo a favor. */
export const overpaymentMessage = (result: Pick<AllocationResult, 'applied' | 'overpayment'>, valueDate: string) =>
  `Liquida el crédito (${pesos(result.applied)} al ${longDate(valueDate)}); sobran ${pesos(result.overpayment)} que quedan como saldo a favor.`;

/**
 * The allocation each row would have if applied now (the preview's sobrepago): rows read and allocated a batch at a
 * time as the application does, over the credits as the last close left them at `closedDay`.
 */
export async function allocationsAt(
  tx: Tx,
  companyId: string,
  rows: readonly { creditId: string; amount: string }[],
  discountDate: string,
  closedDay: string,
): Promise<Map<string, AllocationResult>> {
  const results = new Map<string, AllocationResult>();
  const pipeline = new Pipeline();
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    const creditOf = await readBatch(
      pipeline,
      tx,
      companyId,
      batch.map((row) => row.creditId),
      discountDate,
      closedDay,
    );
    for (const row of batch) {
      const { credit, schedule } = creditOf.get(row.creditId)!;
      results.set(row.creditId, allocateRow(credit, schedule(), row.amount, discountDate, closedDay).result);
    }
  }
  await pipeline.drain();
  return results;
}

/**
 * Allocates a batch's rows through packages/lending, as the credits stand (`creditOf`, read under the lock), letting
 * the event loop turn every BREATHE_EVERY rows so that the connection's answers are taken (the next batch's rows, which
 * the server cannot send faster than they are read) and its statements written meanwhile.
 */
async function allocateBatch(
  batch: readonly AcceptedRow[],
  creditOf: Map<string, BatchCredit>,
  { file, closedDay }: FileContext,
): Promise<BatchWrites> {
  const writes: BatchWrites = {
    rowUpdates: [],
    payments: paymentColumns(),
    creditUpdates: [],
    received: [],
    outcomes: [],
    known: [],
  };
  for (const [position, row] of batch.entries()) {
    if (position % BREATHE_EVERY === BREATHE_EVERY - 1) await breathe();
    const { credit, schedule: scheduleOf, deduction } = creditOf.get(row.creditId!)!;
    // Under the lock, as it is now: another file may have paid it off since the preview.
    if (credit.status === 'liquidado') {
      writes.outcomes.push({
        line: row.line,
        outcome: 'crédito liquidado',
        message: `El crédito ${creditFolio(credit.number)} ya estaba liquidado al aplicar.`,
      });
      continue;
    }
    const { result, written, before, aging } = allocateCredit(credit, scheduleOf(), row.amount!, file.discountDate, closedDay);
    writes.rowUpdates.push(...written);
    if (deduction && deduction.state !== 'recibido') writes.received.push({ credit_id: credit.id, period: deduction.period });
    const split = allocationSplit(result);
    const record: PaymentBefore = {
      installment: credit.installment,
      rows: before,
      deduction: deduction && deduction.state !== 'recibido' ? { period: deduction.period, state: deduction.state } : null,
    };
    const payment = writes.payments;
    payment.id.push(crypto.randomUUID());
    payment.credit_id.push(credit.id);
    payment.file_line.push(row.line);
    payment.amount.push(result.amount);
    payment.principal.push(split.principal);
    payment.interest.push(split.interest);
    payment.iva.push(split.iva);
    payment.moratory_interest.push(split.moratoryInterest);
    payment.moratory_iva.push(split.moratoryIva);
    payment.fees.push(split.fees);
    payment.fees_iva.push(split.feesIva);
    payment.overpayment.push(split.overpayment);
    payment.allocation.push(JSON.stringify({ lines: result.lines, waived: result.waived }));
    payment.before.push(JSON.stringify(record));
    if (cents(result.overpayment) > 0n || !sameAmount(result.installment, credit.installment)) {
      writes.creditUpdates.push({ id: credit.id, installment: result.installment, overpayment: result.overpayment });
    }
    // What the preview said, unless the application found otherwise: a close since may have changed what pays the
    // credit off, and so a sobrepago's message.
    const outcome: RowOutcome = cents(result.overpayment) > 0n ? 'sobrepago' : 'válido';
    // A sobrepago's message as the application computes it; the preview's notes after it (another file's receipt, the
    // cédula's instructed amount) stay while the payoff is the one the preview told.
    const paysOff = outcome === 'sobrepago' ? overpaymentMessage(result, file.discountDate) : null;
    const message =
      paysOff !== null ? (row.message?.startsWith(paysOff) ? row.message : paysOff) : outcome === row.outcome ? row.message : null;
    if (outcome !== row.outcome || message !== row.message) writes.outcomes.push({ line: row.line, outcome, message });
    writes.known.push(aging);
  }
  return writes;
}

/**
 * Queues a batch's writes, then the refresh of its paid credits, which reads them. Each table's rows go as a typed array
 * per column (unnest; db/array-param.ts), not as JSON objects: PostgreSQL matched each object's keys and read every
 * value twice, as JSON and as its type, and a payment's allocation and record were parsed as part of the record and
 * again as JSON values; now once (json_array_elements keeps each element's text as written).
 */
function queueBatchWrites(
  pipeline: Pipeline,
  tx: Tx,
  writes: BatchWrites,
  { file, companyId, options, refreshStatements }: FileContext,
): void {
  const { rowUpdates, payments, received, creditUpdates, outcomes, known } = writes;
  // Each statement one query sent when the pipeline calls it (db/pipeline.ts: on PostgreSQL they all go at once).
  if (rowUpdates.length > 0) pipeline.queue(() => tx.execute(scheduleRowsSql(companyId, rowUpdates)));
  if (payments.id.length > 0) {
    const amounts = PAYMENT_AMOUNTS.map((column) => sql`unnest(${arrayParam('numeric', payments[column])})`);
    pipeline.queue(() =>
      tx.execute(sql`
      insert into payments (id, company_id, credit_id, file_id, file_line, value_date, amount, principal, interest, iva, moratory_interest,
                            moratory_iva, fees, fees_iva, overpayment, allocation, before, applied_by, applied_at)
      select x.id, ${companyId}::uuid, x.credit_id, ${file.id}::uuid, x.file_line, ${file.discountDate}::date, x.amount, x.principal,
             x.interest, x.iva, x.moratory_interest, x.moratory_iva, x.fees, x.fees_iva, x.overpayment, x.allocation, x.before,
             ${options.appliedBy}::uuid, ${options.now.toISOString()}::timestamptz
      from rows from (unnest(${arrayParam('uuid', payments.id)}), unnest(${arrayParam('uuid', payments.credit_id)}),
                      unnest(${arrayParam('int', payments.file_line)}), ${sql.join(amounts, sql`, `)},
                      ${jsonElements(payments.allocation)}, ${jsonElements(payments.before)})
        as x(id, credit_id, file_line, ${sql.raw(PAYMENT_AMOUNTS.join(', '))}, allocation, before)`),
    );
  }
  if (received.length > 0) {
    pipeline.queue(() =>
      tx.execute(sql`
      update expected_deductions e set state = 'recibido'
      from ${unnestRows(received, [
        ['credit_id', 'uuid'],
        ['period', 'int'],
      ])}
      where e.company_id = ${companyId} and e.credit_id = x.credit_id and e.period = x.period`),
    );
  }
  if (creditUpdates.length > 0) {
    pipeline.queue(() =>
      tx.execute(sql`
      update credits c set installment = x.installment, credit_balance = c.credit_balance + x.overpayment
      from ${unnestRows(creditUpdates, [
        ['id', 'uuid'],
        ['installment', 'numeric'],
        ['overpayment', 'numeric'],
      ])}
      where c.company_id = ${companyId} and c.id = x.id`),
    );
  }
  if (outcomes.length > 0) {
    pipeline.queue(() =>
      tx.execute(sql`
      update payment_file_rows r set outcome = x.outcome, message = x.message
      from json_to_recordset(${jsonParam(outcomes)}) as x(line int, outcome text, message text)
      where r.file_id = ${file.id} and r.line = x.line`),
    );
  }
  // Installment statuses, days past due, bucket, balances and status (liquidado) of the paid credits, as the last
  // close left the rest of the portfolio: at the day before the business date. Their ids go as one array: the payments
  // written in this transaction have no statistics yet, and a subquery on them was planned as one row and re-scanned
  // per credit (minutes at 12,000 rows; bench/payment-file.bench.ts).
  if (known.length > 0) {
    const paid = known.map((credit) => credit.id);
    for (const statement of refreshStatements(paid, known)) pipeline.queue(() => tx.execute(statement));
  }
}

/** Applies a validated file; answers how many rows were applied. Throws (and the caller's transaction rolls back) on anything else. */
export async function applyPaymentFile(tx: Tx, options: ApplyOptions): Promise<number> {
  const { fileId, companyId } = options;
  // The file's row first, then the company's lock: while the application waits behind a day close or another file,
  // "Aplicar" again finds the row held (still applying), not an application 'en curso' that nothing holds (interrupted).
  const [file] = await tx
    .select()
    .from(paymentFiles)
    .where(and(eq(paymentFiles.id, fileId), eq(paymentFiles.companyId, companyId)))
    .for('update');
  if (!file) throw new HttpProblem(404, 'Archivo no encontrado', 'El archivo no existe o no es de tu empresa.');
  // Through the portfolio's door: its lock, the business date under it, the company's figures once the rows are in.
  const applied = await changePortfolio(tx, companyId, { today: options.today, now: options.now }, async (change) => {
    if (file.status !== 'validado') throw new HttpProblem(409, 'El archivo no se puede aplicar', `El archivo ya está ${file.status}.`);
    const context: FileContext = { file, companyId, closedDay: change.closedDay, options, refreshStatements: change.refreshStatements };
    // By folio, however the employer listed its payroll: a batch is then credits disbursed together, whose rows lie
    // together on disk, so each batch reads and rewrites fewer pages (docs/measurements.md; bench/payment-file.bench.ts
    // with BENCH_FILE_ORDER=shuffled). Rows never share a credit, so the order changes nothing of what each is paid.
    const accepted: AcceptedRow[] = await tx
      .select({
        line: paymentFileRows.line,
        creditId: paymentFileRows.creditId,
        amount: paymentFileRows.amount,
        outcome: paymentFileRows.outcome,
        message: paymentFileRows.message,
      })
      .from(paymentFileRows)
      .innerJoin(credits, eq(credits.id, paymentFileRows.creditId))
      .where(and(eq(paymentFileRows.fileId, fileId), inArray(paymentFileRows.outcome, APPLIED_OUTCOMES)))
      .orderBy(asc(credits.number));
    // What lets batches overlap: the upload rejects a credit's second row ("duplicado en archivo").
    if (new Set(accepted.map((row) => row.creditId)).size !== accepted.length)
      throw new Error(`El archivo ${fileId} paga un crédito en dos filas aceptadas.`);

    const size = options.batchSize ?? BATCH;
    const batches: AcceptedRow[][] = [];
    for (let start = 0; start < accepted.length; start += size) batches.push(accepted.slice(start, start + size));
    const pipeline = new Pipeline({ atOnce: pipelines(tx) });
    const read = (batch: readonly AcceptedRow[]) => {
      const reading = readBatch(
        pipeline,
        tx,
        companyId,
        batch.map((row) => row.creditId!),
        file.discountDate,
        change.closedDay,
      );
      reading.catch(() => undefined); // Awaited in its turn; a failure meanwhile is the pipeline's to report.
      return reading;
    };
    let applied = 0;
    try {
      let reading = batches.length > 0 ? read(batches[0]!) : undefined;
      for (let index = 0; index < batches.length; index++) {
        const creditOf = await reading!;
        // The next batch is read while this one is allocated, and this one is written while the next one is: the server
        // and this process work at the same time. Batches never share a credit, so neither reads the other's writes.
        reading = index + 1 < batches.length ? read(batches[index + 1]!) : undefined;
        const writes = await allocateBatch(batches[index]!, creditOf, context);
        queueBatchWrites(pipeline, tx, writes, context);
        applied += writes.known.length;
        if (options.onProgress) await options.onProgress(applied);
      }
      await pipeline.drain();
    } catch (error) {
      // The transaction ends after this: nothing queued may reach the connection after its ROLLBACK.
      await pipeline.halt(error);
      throw error;
    }

    return applied;
  });
  await summarize(tx, fileId, file.agreementId, file.discountDate);
  const sums = await tx.execute(sql`
    select coalesce(sum(amount), 0)::text as amount, coalesce(sum(overpayment), 0)::text as overpayment
    from payments where file_id = ${fileId} and status = 'aplicado'`);
  const figures = rowsOf<{ amount: string; overpayment: string }>(sums)[0]!;
  await tx
    .update(paymentFiles)
    .set({
      status: 'aplicado',
      amountApplied: figures.amount,
      overpayment: figures.overpayment,
      appliedBy: options.appliedBy,
      appliedAt: options.now,
    })
    .where(eq(paymentFiles.id, fileId));
  await tx.insert(auditEvents).values({
    occurredAt: options.now,
    actorId: options.appliedBy,
    action: 'payment-file.apply',
    entity: 'payment_file',
    entityId: fileId,
    before: { status: 'validado' },
    after: { status: 'aplicado', rowsApplied: applied, amountApplied: figures.amount, overpayment: figures.overpayment },
  });
  return applied;
}
