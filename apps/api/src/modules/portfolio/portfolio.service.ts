import { and, asc, eq, inArray } from 'drizzle-orm';
import { daysBetween, formatCents, parseCents, payoffQuote, type InstallmentState } from '@portal/lending';
import type { BusinessDate, CreditView, DayCloseRun, PayoffQuoteView } from '@portal/contract';
import type { Db, Tx } from '../../db/client';
import { agreements, clients, companies, credits, dayCloseRuns, expectedDeductions, installments } from '../../db/schema';
import { HttpProblem } from '../../plugins/errors';
import { auditHistory, recordAudit, type AuditActor } from '../audit/audit';
import type { JobQueue } from '../../jobs/job-queue';
import { creditFolio } from '../origination/pre-requests.service';
import { businessDateOf, closeDays, markRun } from './day-close.service';
import { toDayCloseRun } from './portfolio.queries';

export const DAY_CLOSE_QUEUE = 'day-close';

export interface DayCloseJob {
  runId: string;
  companyId: string;
  throughDate: string;
  requestedBy: string | null;
}

/** The business date of every company the user sees, with the close in progress if any. */
export async function businessDates(tx: Tx, today: string): Promise<BusinessDate[]> {
  const visible = await tx.select({ id: companies.id, name: companies.name }).from(companies).orderBy(asc(companies.name));
  const active = await tx.select().from(dayCloseRuns).where(inArray(dayCloseRuns.status, ['en espera', 'en curso']));
  return Promise.all(
    visible.map(async (company) => {
      const run = active.find((r) => r.companyId === company.id);
      return { companyId: company.id, company: company.name, businessDate: await businessDateOf(tx, company.id, today), activeRun: run ? toDayCloseRun(run) : null };
    }),
  );
}

/**
 * "Cerrar día": records the run and queues its job in the same transaction (the job exists exactly when the run
 * does). Closes the company's business date, or every day through `throughDate`; a day already closed is refused.
 */
export async function requestDayClose(
  tx: Tx,
  jobs: JobQueue,
  actor: AuditActor,
  input: { companyId: string; throughDate?: string | undefined; today: string; now: Date },
): Promise<DayCloseRun> {
  const current = await businessDateOf(tx, input.companyId, input.today);
  const through = input.throughDate ?? current;
  if (through < current) {
    throw new HttpProblem(409, 'Día ya cerrado', `El día ${through} ya está cerrado: la fecha flujo es ${current}.`);
  }
  const [running] = await tx.select({ id: dayCloseRuns.id }).from(dayCloseRuns).where(and(eq(dayCloseRuns.companyId, input.companyId), inArray(dayCloseRuns.status, ['en espera', 'en curso'])));
  if (running) throw new HttpProblem(409, 'Cierre en curso', 'Ya hay un cierre de día en curso para esta empresa; espera a que termine.');
  const [run] = await tx
    .insert(dayCloseRuns)
    .values({ companyId: input.companyId, fromDate: current, throughDate: through, daysTotal: daysBetween(current, through) + 1, requestedBy: actor.principal?.userId ?? null, requestedAt: input.now })
    .returning();
  const job: DayCloseJob = { runId: run!.id, companyId: input.companyId, throughDate: through, requestedBy: run!.requestedBy };
  const jobId = await jobs.send(DAY_CLOSE_QUEUE, job, tx);
  const [queued] = await tx.update(dayCloseRuns).set({ jobId }).where(eq(dayCloseRuns.id, run!.id)).returning();
  await recordAudit(tx, actor, { action: 'day.close.request', entity: 'business_date', entityId: input.companyId, after: { from: current, through, runId: run!.id }, occurredAt: input.now });
  return toDayCloseRun(queued!);
}

/**
 * The day-close job: closes day after day, one transaction each, writing progress to the run. A failure marks the
 * run fallido with the reason; the days already closed stay closed and the failed one left nothing behind.
 */
export async function runDayCloseJob(db: Db, job: DayCloseJob, now: () => Date): Promise<void> {
  await markRun(db, job.runId, { status: 'en curso' });
  try {
    await closeDays(db, job.companyId, job.throughDate, {
      runId: job.runId,
      closedBy: job.requestedBy,
      now,
      onDay: (_figures, done) => markRun(db, job.runId, { daysDone: done }),
    });
    await markRun(db, job.runId, { status: 'completado', finishedAt: now() });
  } catch (error) {
    const reason = error instanceof HttpProblem ? (error.detail ?? error.title) : `Error interno: ${(error as Error).message}`;
    await markRun(db, job.runId, { status: 'fallido', error: reason, finishedAt: now() });
  }
}

export async function dayCloseRun(tx: Tx, id: string): Promise<DayCloseRun> {
  const [run] = await tx.select().from(dayCloseRuns).where(eq(dayCloseRuns.id, id));
  if (!run) throw new HttpProblem(404, 'Cierre no encontrado', 'El cierre de día no existe.');
  return toDayCloseRun(run);
}

const sum = (...values: string[]) => formatCents(values.reduce((total, v) => total + parseCents(v, 'importe'), 0n));

async function creditRows(tx: Tx, id: string) {
  const [row] = await tx
    .select({ credit: credits, client: clients, agreement: agreements.name, company: companies.name })
    .from(credits)
    .innerJoin(clients, eq(clients.id, credits.clientId))
    .innerJoin(agreements, eq(agreements.id, credits.agreementId))
    .innerJoin(companies, eq(companies.id, credits.companyId))
    .where(eq(credits.id, id));
  if (!row) throw new HttpProblem(404, 'Crédito no encontrado', 'El crédito no existe.');
  const schedule = await tx.select().from(installments).where(eq(installments.creditId, id)).orderBy(asc(installments.number));
  const deductions = await tx.select().from(expectedDeductions).where(eq(expectedDeductions.creditId, id)).orderBy(asc(expectedDeductions.period));
  return { ...row, schedule, deductions };
}

/** The full credit view (Cartera → Créditos → a credit), its figures at the company's business date. */
export async function creditView(tx: Tx, id: string, today: string): Promise<CreditView> {
  const { credit, client, agreement, company, schedule, deductions } = await creditRows(tx, id);
  const businessDate = await businessDateOf(tx, credit.companyId, today);
  const rows = schedule.map((i) => {
    const charged = { principal: i.principal, interest: i.interest, iva: i.iva, moratoryInterest: i.moratoryInterest, moratoryIva: i.moratoryIva, fees: i.fees, feesIva: i.feesIva };
    const paid = { principal: i.paidPrincipal, interest: i.paidInterest, iva: i.paidIva, moratoryInterest: i.paidMoratoryInterest, moratoryIva: i.paidMoratoryIva, fees: i.paidFees, feesIva: i.paidFeesIva };
    return {
      number: i.number,
      dueDate: i.dueDate,
      charged: { ...charged, total: sum(...Object.values(charged)) },
      paid: { ...paid, total: sum(...Object.values(paid)) },
      outstanding: i.outstanding,
      status: i.status,
    };
  });
  const owed = (key: keyof (typeof rows)[number]['charged']) => formatCents(rows.reduce((t, r) => t + parseCents(r.charged[key], key) - parseCents(r.paid[key], key), 0n));
  const balances = {
    principal: owed('principal'),
    interest: owed('interest'),
    iva: owed('iva'),
    moratoryInterest: owed('moratoryInterest'),
    moratoryIva: owed('moratoryIva'),
    fees: owed('fees'),
    feesIva: owed('feesIva'),
    total: owed('total'),
  };
  return {
    id: credit.id,
    folio: creditFolio(credit.number),
    status: credit.status,
    daysPastDue: credit.daysPastDue,
    bucket: credit.agingBucket,
    businessDate,
    clientName: [client.firstNames, client.lastName1, client.lastName2].filter(Boolean).join(' '),
    curp: client.curp,
    rfc: client.rfc,
    employeeNumber: credit.employeeNumber,
    agreement,
    company,
    productName: credit.productName,
    frequency: credit.frequency,
    term: credit.term,
    principal: credit.principal,
    installment: credit.installment,
    disbursementDate: credit.disbursementDate,
    labels: credit.labels,
    balances,
    schedule: rows,
    payments: [],
    deductions: deductions.map((d) => ({ period: d.period, discountDate: d.discountDate, amount: d.amount, state: d.state })),
    letters: [],
    audit: await auditHistory(tx, 'credit', credit.id),
  };
}

/** "48.7500" % → "0.487500": the lending library takes rates as fractions. */
export function percentToFraction(pct: string): string {
  const [whole = '0', fraction = ''] = pct.split('.');
  const padded = whole.padStart(3, '0');
  return `${padded.slice(0, -2)}.${padded.slice(-2)}${fraction}`;
}

/** Payoff at a date (DOMAIN.md §3) through packages/lending, from the business date unless another is chosen. */
export async function creditPayoff(tx: Tx, id: string, today: string, query: { date?: string | undefined; validUntil?: string | undefined }): Promise<PayoffQuoteView> {
  const { credit, schedule, deductions } = await creditRows(tx, id);
  const quoteDate = query.date ?? (await businessDateOf(tx, credit.companyId, today));
  const state: InstallmentState[] = schedule.map((i) => ({
    number: i.number,
    dueDate: i.dueDate,
    principal: i.principal,
    interest: i.interest,
    iva: i.iva,
    fees: i.fees,
    feesIva: i.feesIva,
    moratoryInterest: i.moratoryInterest,
    moratoryIva: i.moratoryIva,
    paid: { principal: i.paidPrincipal, interest: i.paidInterest, iva: i.paidIva, fees: i.paidFees, feesIva: i.paidFeesIva, moratoryInterest: i.paidMoratoryInterest, moratoryIva: i.paidMoratoryIva },
  }));
  const quote = payoffQuote({
    creditAmount: credit.principal,
    installment: credit.installment,
    disbursementDate: credit.disbursementDate,
    ivaRate: percentToFraction(credit.ivaRatePct),
    installments: state,
    inTransit: deductions.filter((d) => d.state === 'en tránsito').map((d) => d.amount),
    quoteDate,
    ...(query.validUntil ? { validUntil: query.validUntil } : {}),
  });
  return quote;
}
