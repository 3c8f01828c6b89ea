import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { PAYMENT_FILE_MAX_BYTES, isAppliedOutcome, layoutSchema, type PaymentFile, type PaymentFileStatus } from '@portal/contract';
import { addDays, formatCents, parseCents } from '@portal/lending';
import type { Db, Tx } from '../../db/client';
import { unnestColumns } from '../../db/array-param';
import { rowsOf } from '../../db/rows';
import { withScope } from '../../db/scope';
import { agreements } from '../../db/schema/agreements';
import { paymentApplications, paymentFileRows, paymentFiles } from '../../db/schema/payments';
import { HttpProblem, pgErrorCode } from '../../http/errors';
import type { JobQueue } from '../../jobs/job-queue';
import { runTrackedJob, type FailureLog, type TrackedJob } from '../../jobs/tracked-job';
import { SpreadsheetLimitError } from '../../lib/xlsx-read';
import { LayoutFileError, parsePaymentFile } from '../shared/layout-parser';
import { recordAudit, type Actor } from '../audit/audit';
import { businessDateOf } from '../shared/business-date';
import { longDate } from '../shared/es-mx';
import { allocationsAt, applyPaymentFile, markApplication, overpaymentMessage } from './apply';
import { lookupCredits } from './credit-lookup';
import { classifyRows, noteInstructedAmounts, type ClassifiedRow, type CreditLookup, type ReadRow } from './matching';
import { paydayInstruction } from '../shared/payday-instruction';
import { isPendingPayday, loadPaymentFile, paidByOtherFiles, pendingPaydays, summarize, type RowFigures } from './payment-files.queries';

export const PAYMENT_APPLY_QUEUE = 'payment-file-apply';

export interface ApplyJob {
  applicationId: string;
  fileId: string;
  companyId: string;
  requestedBy: string | null;
}

export interface UploadInput {
  agreementId: string;
  discountDate: string;
  fileName: string;
  contentType: string;
  content: Buffer;
  today: string;
  now: Date;
}

const ROW_BATCH = 5_000;
/** A rejected or reverted file no longer counts: the same bytes may be loaded again. */
const SET_ASIDE: PaymentFileStatus[] = ['rechazado', 'revertido'];

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');
const mexicanDate = (date: Date) =>
  date.toLocaleString('es-MX', { timeZone: 'America/Mexico_City', dateStyle: 'long', timeStyle: 'short' });

/**
 * The preview's sobrepago, exact. The credit's balance that classifyRows compares with counts interest not yet earned,
 * which a payoff waives: a row between the payoff and that balance pays the credit off with money left. The rows that
 * may pay off (above the credit's installment, or above its balance) are allocated as the application will allocate
 * them, at the discount date over the credit as the last close left it; the rest pay at most an installment.
 */
async function settlePayoffs(
  tx: Tx,
  companyId: string,
  lookup: CreditLookup,
  classified: ClassifiedRow[],
  rows: readonly ReadRow[],
  discountDate: string,
  closedDay: string,
): Promise<void> {
  const creditOf = new Map([...lookup.byNumber.values(), ...[...lookup.byEmployee.values()].flat()].map((credit) => [credit.id, credit]));
  const candidates = classified.flatMap((row, index) => {
    if ((row.outcome !== 'válido' && row.outcome !== 'sobrepago') || row.creditId === null) return [];
    const amount = rows[index]!.fields.amount!;
    const mayPayOff =
      row.outcome === 'sobrepago' || parseCents(amount, 'importe') > parseCents(creditOf.get(row.creditId)!.installment, 'pago');
    return mayPayOff ? [{ index, creditId: row.creditId, amount }] : [];
  });
  const allocations = await allocationsAt(tx, companyId, candidates, discountDate, closedDay);
  for (const { index, creditId } of candidates) {
    const result = allocations.get(creditId)!;
    const paysOff = parseCents(result.overpayment, 'sobrepago') > 0n;
    classified[index] = {
      ...classified[index]!,
      outcome: paysOff ? 'sobrepago' : 'válido',
      message: paysOff ? overpaymentMessage(result, discountDate) : null,
    };
  }
}

/**
 * A row paying a credit whose deduction of the date an applied file already paid (an employer's second file of the
 * payroll, or the same one saved again): accepted — the money arrived — but the preview says where the deduction was
 * received, so that a file sent twice is seen before it is applied and rejected.
 */
async function noteReceivedElsewhere(
  tx: Tx,
  agreementId: string,
  discountDate: string,
  classified: ClassifiedRow[],
): Promise<ReadonlySet<string>> {
  const paid = new Map(
    rowsOf<{ credit_id: string; file_name: string }>(await tx.execute(paidByOtherFiles(null, agreementId, discountDate))).map((row) => [
      row.credit_id,
      row.file_name,
    ]),
  );
  classified.forEach((row, index) => {
    const fileName = row.creditId === null ? undefined : paid.get(row.creditId);
    if (fileName === undefined || (row.outcome !== 'válido' && row.outcome !== 'sobrepago')) return;
    const note = `Su descuento del ${longDate(discountDate)} ya se recibió en el archivo «${fileName}»: este importe se aplicará como un pago más.`;
    classified[index] = { ...row, message: row.message === null ? note : `${row.message} ${note}` };
  });
  return new Set(paid.keys());
}

/**
 * The file's row figures counted from its rows as written (summarize counts the same from the table): every row; the
 * accepted (válido, sobrepago), the sobrepagos and the accepted whose credit an applied file of the date paid; the
 * amounts read whole (a row's amount is kept only then), of all rows and of the accepted.
 */
export function countRows(rows: readonly ReadRow[], classified: readonly ClassifiedRow[], paidElsewhere: ReadonlySet<string>): RowFigures {
  let valid = 0;
  let overpaying = 0;
  let paid = 0;
  let amount = 0n;
  let amountValid = 0n;
  rows.forEach((row, index) => {
    const { outcome, creditId } = classified[index]!;
    const cents = row.amountInvalid || row.fields.amount === undefined ? null : parseCents(row.fields.amount, 'importe');
    if (cents !== null) amount += cents;
    if (!isAppliedOutcome(outcome)) return;
    valid += 1;
    if (outcome === 'sobrepago') overpaying += 1;
    if (creditId !== null && paidElsewhere.has(creditId)) paid += 1;
    if (cents !== null) amountValid += cents;
  });
  return { total: rows.length, valid, overpaying, paidElsewhere: paid, amount: formatCents(amount), amountValid: formatCents(amountValid) };
}

/**
 * "Carga archivos de pagos": reads the file with the agreement's layout, decides every row's outcome and keeps the
 * file, its bytes and every row (validado: the preview). The same bytes loaded while an earlier upload still counts
 * are refused, naming it. Nothing is written for a file that cannot be read: the clerk still has it and gets why.
 */
export async function uploadPaymentFile(tx: Tx, actor: Actor, input: UploadInput): Promise<PaymentFile> {
  // Row-level security: an agreement of another company is not found.
  const [agreement] = await tx.select().from(agreements).where(eq(agreements.id, input.agreementId));
  if (!agreement) throw new HttpProblem(404, 'Convenio no encontrado', 'El convenio no existe o no es de tu empresa.');
  if (input.content.length === 0) throw new HttpProblem(400, 'Archivo vacío', 'El archivo no tiene contenido.');
  if (input.content.length > PAYMENT_FILE_MAX_BYTES)
    throw new HttpProblem(
      413,
      'Archivo demasiado grande',
      `El archivo de pagos puede pesar hasta ${PAYMENT_FILE_MAX_BYTES / (1024 * 1024)} MB.`,
    );
  const businessDate = await businessDateOf(tx, agreement.companyId, input.today);
  if (input.discountDate > businessDate) {
    throw new HttpProblem(
      400,
      'Fecha de descuento por venir',
      `La fecha de descuento (${longDate(input.discountDate)}) es posterior a la fecha flujo (${longDate(businessDate)}): esa nómina todavía no se paga.`,
      [{ field: 'discountDate', message: 'Elige una fecha de descuento que ya pasó.' }],
    );
  }
  // A file pays the deductions of one payday: on another date it would find none of them, every row would be taken as a
  // prepayment, and the payday's deductions would stay unpaid. The paydays taken are those the form offers: still owed.
  if (!(await isPendingPayday(tx, agreement, businessDate, input.discountDate))) {
    const recent = (await pendingPaydays(tx, agreement, businessDate)).slice(0, 3);
    throw new HttpProblem(
      400,
      'Fecha sin descuentos por recibir',
      `El ${longDate(input.discountDate)} no es una fecha de descuento del convenio ${agreement.name} con descuentos por recibir${recent.length > 0 ? `; las más recientes son ${recent.map(longDate).join(', ')}` : ''}.`,
      [{ field: 'discountDate', message: 'Elige una de las fechas de descuento que se ofrecen.' }],
    );
  }
  const hash = sha256(input.content);
  await refuseSameFile(tx, agreement.companyId, hash);

  // The agreement screens keep a layout valid; one stored by an older version or by hand is the agreement's to fix.
  const stored = layoutSchema.safeParse(agreement.layout);
  if (!stored.success) {
    throw new HttpProblem(
      409,
      'Layout del convenio no válido',
      `El layout de archivos de pagos del convenio ${agreement.name} no es válido; corrígelo en el convenio y vuelve a cargar el archivo.`,
    );
  }
  const layout = stored.data;
  let parsed: Awaited<ReturnType<typeof parsePaymentFile>>;
  try {
    parsed = await parsePaymentFile(input.content, layout);
  } catch (error) {
    if (error instanceof LayoutFileError || error instanceof SpreadsheetLimitError) {
      throw new HttpProblem(400, 'Archivo no legible con el layout del convenio', error.message);
    }
    throw error;
  }
  const rows = parsed.rows;
  const lookup = await lookupCredits(tx, agreement.companyId, agreement.id, rows);
  // The file answers the payday's emitted cédula (when there is one): a row for a credit in baja is refused, an amount
  // other than the instructed one is noted.
  const candidates = [...lookup.byNumber.values(), ...[...lookup.byEmployee.values()].flat()].map((credit) => credit.id);
  const instruction = await paydayInstruction(tx, agreement.id, input.discountDate, candidates);
  const classified = classifyRows(rows, lookup, { agreementId: agreement.id, discountDate: input.discountDate, instruction });
  await settlePayoffs(tx, agreement.companyId, lookup, classified, rows, input.discountDate, addDays(businessDate, -1));
  const paidElsewhere = await noteReceivedElsewhere(tx, agreement.id, input.discountDate, classified);
  noteInstructedAmounts(classified, rows, instruction);

  // Its id only: the whole row would bring the file's bytes back, hex-encoded (twice their size).
  let file: { id: string };
  try {
    [file] = (await tx
      .insert(paymentFiles)
      .values({
        companyId: agreement.companyId,
        agreementId: agreement.id,
        discountDate: input.discountDate,
        fileName: input.fileName,
        contentType: input.contentType,
        size: input.content.length,
        sha256: hash,
        content: input.content,
        encoding: parsed.encoding,
        layout,
        status: 'validado',
        uploadedBy: actor.principal.userId,
        uploadedAt: input.now,
      })
      .returning({ id: paymentFiles.id })) as [{ id: string }];
  } catch (error) {
    // Two uploads of the same bytes at the same moment: the unique index lets one through.
    if (pgErrorCode(error) === '23505')
      throw new HttpProblem(
        409,
        'Archivo ya cargado',
        'Este mismo archivo se acaba de cargar; búscalo en el Listado de archivos de pagos.',
      );
    throw error;
  }
  // Each chunk's columns built as it is written, not the whole file's at once beside the parsed rows and the credits
  // looked up: the upload's peak RSS (bench/payment-file.bench.ts, docs/measurements.md). One typed array per column
  // (db/array-param.ts): PostgreSQL reads them for less than the same rows as JSON objects, whose keys it matches
  // object by object (docs/measurements.md, stop 65); the file and the company are one value each.
  for (let start = 0; start < rows.length; start += ROW_BATCH) {
    const chunk = rows.slice(start, start + ROW_BATCH);
    const outcome = (index: number) => classified[start + index]!;
    await tx.execute(sql`
      insert into ${paymentFileRows} (file_id, line, company_id, raw, credit_ref, employee_number, curp_rfc, amount, period, reference, outcome, message, credit_id)
      select ${file.id}::uuid, line, ${agreement.companyId}::uuid, raw, credit_ref, employee_number, curp_rfc, amount, period, reference, outcome, message, credit_id
      from ${unnestColumns(chunk, [
        ['line', 'int', (row) => row.line],
        ['raw', 'text', (row) => row.raw],
        ['credit_ref', 'text', (row) => row.fields.creditId ?? null],
        ['employee_number', 'text', (row) => row.fields.employeeNumber ?? null],
        ['curp_rfc', 'text', (row) => row.fields.curpRfc ?? null],
        ['amount', 'numeric', (row) => (row.amountInvalid ? null : (row.fields.amount ?? null))],
        ['period', 'text', (row) => row.fields.period ?? null],
        ['reference', 'text', (row) => row.fields.reference ?? null],
        ['outcome', 'text', (_, index) => outcome(index).outcome],
        ['message', 'text', (_, index) => outcome(index).message],
        ['credit_id', 'uuid', (_, index) => outcome(index).creditId],
      ])}`);
  }
  await summarize(tx, file.id, agreement.id, input.discountDate, countRows(rows, classified, paidElsewhere));
  await recordAudit(tx, actor, {
    action: 'payment-file.upload',
    entity: 'payment_file',
    entityId: file.id,
    after: { fileName: input.fileName, agreementId: agreement.id, discountDate: input.discountDate, sha256: hash, rows: rows.length },
    occurredAt: input.now,
  });
  return loadPaymentFile(tx, file.id);
}

/** 409 naming the earlier upload of the same bytes, while it still counts (not rejected, not reverted). */
async function refuseSameFile(tx: Tx, companyId: string, hash: string): Promise<void> {
  const [earlier] = await tx
    .select({
      fileName: paymentFiles.fileName,
      uploadedAt: paymentFiles.uploadedAt,
      discountDate: paymentFiles.discountDate,
      status: paymentFiles.status,
      agreement: agreements.name,
    })
    .from(paymentFiles)
    .innerJoin(agreements, eq(agreements.id, paymentFiles.agreementId))
    .where(and(eq(paymentFiles.companyId, companyId), eq(paymentFiles.sha256, hash), notInArray(paymentFiles.status, SET_ASIDE)));
  if (earlier) {
    throw new HttpProblem(
      409,
      'Archivo ya cargado',
      `Este mismo archivo ya se cargó el ${mexicanDate(earlier.uploadedAt)} como "${earlier.fileName}" (${earlier.agreement}, descuento del ${longDate(earlier.discountDate)}, ${earlier.status}).`,
    );
  }
}

/**
 * "Aplicar": queues the application of a validated file (the job exists exactly when its record does). The file's row
 * is taken without waiting: an application holding it is still running. One found 'en curso' while nothing holds
 * the row was interrupted (its process stopped; its transaction left nothing behind) and may be queued again.
 */
export async function requestApply(tx: Tx, jobs: JobQueue | undefined, actor: Actor, fileId: string, now: Date): Promise<PaymentFile> {
  const [visible] = await tx.select({ id: paymentFiles.id }).from(paymentFiles).where(eq(paymentFiles.id, fileId));
  if (!visible) throw new HttpProblem(404, 'Archivo no encontrado', 'El archivo no existe o no es de tu empresa.');
  const file = await lockFileNow(tx, fileId);
  if (file.status !== 'validado')
    throw new HttpProblem(409, 'El archivo no se puede aplicar', `El archivo está ${file.status}: solo se aplica un archivo validado.`);
  if (file.rowsValid === 0)
    throw new HttpProblem(409, 'Nada que aplicar', 'El archivo no tiene filas válidas: recházalo y carga uno corregido.');
  if (!jobs) throw new HttpProblem(503, 'Cola de trabajos no disponible', 'El servidor no tiene cola de trabajos; intenta más tarde.');
  const [last] = await tx
    .select()
    .from(paymentApplications)
    .where(eq(paymentApplications.fileId, fileId))
    .orderBy(desc(paymentApplications.requestedAt))
    .limit(1);
  if (last?.status === 'en espera')
    throw new HttpProblem(409, 'Aplicación en espera', 'La aplicación de este archivo ya está en la cola; espera a que empiece.');
  if (last?.status === 'en curso') {
    await tx
      .update(paymentApplications)
      .set({ status: 'fallido', error: 'La aplicación se interrumpió (el servidor se detuvo): no se aplicó nada.', finishedAt: now })
      .where(eq(paymentApplications.id, last.id));
  }
  const [application] = await tx
    .insert(paymentApplications)
    .values({ fileId, companyId: file.companyId, rowsTotal: file.rowsValid, requestedBy: actor.principal.userId, requestedAt: now })
    .returning();
  const job: ApplyJob = { applicationId: application!.id, fileId, companyId: file.companyId, requestedBy: actor.principal.userId };
  const jobId = await jobs.send(PAYMENT_APPLY_QUEUE, job, tx);
  await tx.update(paymentApplications).set({ jobId }).where(eq(paymentApplications.id, application!.id));
  await recordAudit(tx, actor, {
    action: 'payment-file.apply.request',
    entity: 'payment_file',
    entityId: fileId,
    after: { applicationId: application!.id },
    occurredAt: now,
  });
  return loadPaymentFile(tx, fileId);
}

/** The file's row, locked for this transaction; 409 at once when an application holds it. */
async function lockFileNow(tx: Tx, fileId: string): Promise<typeof paymentFiles.$inferSelect> {
  try {
    const [file] = await tx.select().from(paymentFiles).where(eq(paymentFiles.id, fileId)).for('update', { noWait: true });
    return file!;
  } catch (error) {
    if (pgErrorCode(error) === '55P03')
      throw new HttpProblem(409, 'Aplicación en curso', 'El archivo se está aplicando en este momento; espera a que termine.');
    throw error;
  }
}

/** "Rechazar archivo": a validated file is set aside unapplied, with the reason; its rows stay for the record. */
export async function rejectPaymentFile(tx: Tx, actor: Actor, fileId: string, reason: string, now: Date): Promise<PaymentFile> {
  const [visible] = await tx.select({ id: paymentFiles.id }).from(paymentFiles).where(eq(paymentFiles.id, fileId));
  if (!visible) throw new HttpProblem(404, 'Archivo no encontrado', 'El archivo no existe o no es de tu empresa.');
  const file = await lockFileNow(tx, fileId);
  if (file.status !== 'validado')
    throw new HttpProblem(
      409,
      'El archivo no se puede rechazar',
      `El archivo está ${file.status}: solo se rechaza un archivo validado sin aplicar.`,
    );
  const [waiting] = await tx
    .select({ id: paymentApplications.id })
    .from(paymentApplications)
    .where(and(eq(paymentApplications.fileId, fileId), inArray(paymentApplications.status, ['en espera'])));
  if (waiting) throw new HttpProblem(409, 'Aplicación en espera', 'El archivo está en la cola para aplicarse; espera a que termine.');
  await tx.update(paymentFiles).set({ status: 'rechazado', statusReason: reason }).where(eq(paymentFiles.id, fileId));
  await recordAudit(tx, actor, {
    action: 'payment-file.reject',
    entity: 'payment_file',
    entityId: fileId,
    before: { status: file.status },
    after: { status: 'rechazado', reason },
    occurredAt: now,
  });
  return loadPaymentFile(tx, fileId);
}

/**
 * The application job: applies the file inside its company's scope (row-level security confines it there), writing
 * progress to the application's record and its completado with the file's aplicado. A failure ends it fallido
 * (jobs/tracked-job.ts); the file stays validado and no credit changed (one transaction).
 */
export const applyJob = (db: Db, clock: ApplyClock): TrackedJob<ApplyJob & { runId: string }, typeof paymentApplications.$inferInsert> => ({
  title: 'la aplicación del archivo de pagos',
  mark: (job, values) => markApplication(db, job.companyId, job.applicationId, values),
  work: async (job, progress) => {
    await withScope(db, { companyId: job.companyId }, async (tx) => {
      const applied = await applyPaymentFile(tx, {
        fileId: job.fileId,
        companyId: job.companyId,
        appliedBy: job.requestedBy,
        now: clock.now(),
        today: clock.today(),
        // PGlite has one session, busy with the application's transaction: its progress shows at the end.
        ...(clock.concurrentProgress ? { onProgress: (done: number) => progress({ rowsDone: done }) } : {}),
      });
      // The file's aplicado and its run's completado commit together: no reader sees an applied file still applying.
      await tx
        .update(paymentApplications)
        .set({ rowsDone: applied, status: 'completado', finishedAt: clock.now() })
        .where(eq(paymentApplications.id, job.applicationId));
    });
    return 'recorded';
  },
});

type ApplyClock = { now: () => Date; today: () => string; concurrentProgress: boolean };

export const runApplyJob = (db: Db, job: ApplyJob, clock: ApplyClock, log?: FailureLog): Promise<void> =>
  runTrackedJob(applyJob(db, clock), { ...job, runId: job.applicationId }, { now: clock.now, ...(log ? { log } : {}) });

/** This process takes application jobs (main.ts; tests that apply files), whichever process queued them. */
export const workPaymentApplications = (jobs: JobQueue, db: Db, clock: ApplyClock, log?: FailureLog) =>
  jobs.work<ApplyJob>(PAYMENT_APPLY_QUEUE, (job) => runApplyJob(db, job, clock, log));
