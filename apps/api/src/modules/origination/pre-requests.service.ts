import { and, eq, inArray, lt, ne, notInArray, sql } from 'drizzle-orm';
import {
  LAST_DAY_OF_MONTH,
  LendingInputError,
  assessEligibility,
  checkCurp,
  firstPayday,
  otherDeductionsAfterRenewal,
} from '@portal/lending';
import {
  PRE_REQUEST_VALID_DAYS,
  percentToFraction,
  preRequestInputOf,
  type PreRequest,
  type PreRequestInput,
  type Simulation,
} from '@portal/contract';
import type { Db, Tx } from '../../db/client';
import { agreementProducts, agreements } from '../../db/schema/agreements';
import { auditEvents } from '../../db/schema/audit';
import { credits } from '../../db/schema/credits';
import { clients, preRequests, requests } from '../../db/schema/origination';
import { HttpProblem } from '../../http/errors';
import { businessDateOf, mexicoToday } from '../shared/business-date';
import { loadRenewed, renewalVerdict } from './renewals';
import { trimNumeric } from '../../db/numeric';
import { loanPricing, payrollCalendarOf } from '../shared/products';
import { creditFolio, preRequestFolio, requestFolio } from '../shared/folios';
import { recordAudit, type Actor } from '../audit/audit';
import { lockAtVersion } from '../../http/locking';
import { loadPreRequest } from './pre-requests.queries';

type Values = {
  [K in keyof PreRequestInput]: K extends 'term' ? number : K extends 'renews' ? string[] : string;
};

const invalid = (field: string, message: string) =>
  new HttpProblem(400, 'Datos inválidos', 'Revisa los campos marcados.', [{ field, message }]);

type AgreementRow = typeof agreements.$inferSelect;
type ProductRow = typeof agreementProducts.$inferSelect;

/**
 * The verdict that needs no other record: the CURP's facts, capacity, product limits, age at the end of the term
 * and the agreement's and product's validity, with packages/lending. `dailyMinimumWage` is the configured figure of the
 * year (DAILY_MINIMUM_WAGE): the pay left after all deductions may not fall below it times the period's days. `simulate` adds the checks against other
 * requests and credits; the demo seed uses this alone for its history.
 */
export function judge(agreement: AgreementRow, product: ProductRow, input: Values, today: string, dailyMinimumWage: string): Simulation {
  const curp = checkCurp(input.curp, today);
  if (!curp.ok) throw invalid('curp', curp.message);
  // Quoted as if contracted and disbursed today: the first payday after the agreement's cut-off, the first period by days.
  const calendar = payrollCalendarOf(agreement);
  const first = firstPayday(calendar, today);
  const firstDueDate = first.dueDate;
  let assessment;
  try {
    assessment = assessEligibility({
      ...loanPricing(product),
      amount: input.amount,
      term: input.term,
      frequency: agreement.frequency,
      firstDueDate: first.nominal,
      payDay: calendar.payDay ?? LAST_DAY_OF_MONTH,
      nonWorkingDays: agreement.nonWorkingDays,
      disbursementDate: today,
      contractDate: today,
      dailyMinimumWage,
      birthDate: curp.birthDate,
      netSalary: input.netSalary,
      otherDeductions: input.otherDeductions,
      maxDeductionRate: percentToFraction(trimNumeric(agreement.maxDeductionPct)),
      product: { terms: product.terms, minAmount: product.minAmount, maxAmount: product.maxAmount, maxAgeAtEnd: product.maxAgeAtEnd },
    });
  } catch (error) {
    if (error instanceof LendingInputError) throw invalid(error.field === 'openingFeeRate' ? 'amount' : error.field, error.message);
    throw error;
  }
  const reasons: { code: string; message: string }[] = [...assessment.reasons];
  if (!agreement.active || agreement.validFrom > today || (agreement.validTo !== null && agreement.validTo < today)) {
    reasons.unshift({ code: 'agreement', message: `El convenio ${agreement.code} no está vigente o está desactivado.` });
  }
  if (!product.active) reasons.unshift({ code: 'product', message: `El producto ${product.name} ya no se ofrece.` });
  return {
    birthDate: curp.birthDate,
    sex: curp.sex,
    capacity: assessment.capacity,
    installment: assessment.quote.schedule.installment,
    cat: assessment.quote.cat,
    openingFee: assessment.quote.openingFee,
    openingFeeIva: assessment.quote.openingFeeIva,
    netDisbursement: assessment.quote.netDisbursement,
    firstDueDate,
    firstPeriodDays: assessment.quote.schedule.firstPeriodDays ?? 0,
    firstPeriodByDays: assessment.quote.schedule.firstPeriodByDays ?? false,
    lastDueDate: assessment.lastDueDate,
    ageAtEnd: assessment.ageAtEnd,
    result: reasons.length === 0 ? 'pre-aprobada' : 'rechazada',
    reasons,
    schedule: assessment.quote.schedule.rows,
  };
}

/**
 * The pre-request's verdict, computed on the server with packages/lending (the browser shows the same numbers, but
 * this is the one that is kept): `judge`, plus an open pre-request or request, or an active credit, for the same CURP.
 */
export async function simulate(
  db: Db | Tx,
  input: Values,
  now: Date,
  dailyMinimumWage: string,
  except: { preRequestId?: string | null; requestId?: string } = {},
  renews: readonly string[] = [],
): Promise<Simulation> {
  const companyId = await agreementCompany(db, input.agreementId);
  const [row] = await db
    .select({ agreement: agreements, product: agreementProducts })
    .from(agreementProducts)
    .innerJoin(agreements, eq(agreements.id, agreementProducts.agreementId))
    .where(and(eq(agreementProducts.id, input.productId), eq(agreementProducts.agreementId, input.agreementId)));
  if (!row) throw invalid('productId', 'El producto no pertenece al convenio elegido.');
  const today = mexicoToday(now);
  // A renewal (docs/domain.md, "Renewals"): the renewed credits' installments stop, so the capacity test frees them.
  const renewed = renews.length > 0 ? await loadRenewed(db, companyId, input.curp, renews) : [];
  const otherDeductions =
    renewed.length > 0
      ? otherDeductionsAfterRenewal(
          input.otherDeductions,
          renewed.map((credit) => credit.installment),
        )
      : input.otherDeductions;
  const judged = judge(row.agreement, row.product, { ...input, otherDeductions }, today, dailyMinimumWage);
  const reasons = [...judged.reasons];
  let verdict: Simulation = judged;
  if (renewed.length > 0) {
    const renewal = await renewalVerdict(db, renewed, {
      companyId,
      payoffDate: await businessDateOf(db as Tx, companyId, today),
      amount: input.amount,
      openingFee: judged.openingFee,
      openingFeeIva: judged.openingFeeIva ?? '0.00',
      openingFeeFinanced: row.product.openingFeeFinanced,
      rule: { minPaidInstallments: row.product.renewalMinPaid, maxDaysPastDue: row.product.renewalMaxDaysPastDue },
      otherDeductionsAfter: otherDeductions,
    });
    reasons.push(...renewal.reasons);
    verdict = { ...judged, renewal: renewal.renewal };
  }
  const [open] = await db
    .select({ number: preRequests.number })
    .from(preRequests)
    .innerJoin(clients, eq(clients.id, preRequests.clientId))
    .where(
      and(
        eq(clients.curp, input.curp),
        eq(preRequests.status, 'enviada'),
        except.preRequestId ? ne(preRequests.id, except.preRequestId) : undefined,
      ),
    );
  if (open)
    reasons.push({ code: 'open-request', message: `Esta CURP ya tiene una pre-solicitud enviada (${preRequestFolio(open.number)}).` });
  const [inProgress] = await db
    .select({ number: requests.number, status: requests.status })
    .from(requests)
    .innerJoin(clients, eq(clients.id, requests.clientId))
    .where(
      and(
        eq(clients.curp, input.curp),
        inArray(requests.status, OPEN_REQUEST_STATUSES),
        except.requestId ? ne(requests.id, except.requestId) : undefined,
      ),
    );
  if (inProgress) {
    reasons.push({
      code: 'open-request',
      message: `Esta CURP ya tiene una solicitud en curso (${requestFolio(inProgress.number)}, ${inProgress.status}).`,
    });
  }
  const [active] = await db
    .select({ number: credits.number })
    .from(credits)
    .innerJoin(clients, eq(clients.id, credits.clientId))
    .where(
      and(
        eq(clients.curp, input.curp),
        inArray(credits.status, ['vigente', 'vencido']),
        // The credits it renews are the point of the request; another active credit still stops it.
        renews.length > 0 ? notInArray(credits.id, [...renews]) : undefined,
      ),
    );
  if (active) reasons.push({ code: 'active-credit', message: `Esta CURP ya tiene un crédito activo (${creditFolio(active.number)}).` });

  return { ...verdict, result: reasons.length === 0 ? 'pre-aprobada' : 'rechazada', reasons };
}

/** A request in one of these is still on its way to becoming a credit. */
const OPEN_REQUEST_STATUSES = ['capturada', 'en validación', 'aprobada'] as const;

/**
 * Sent pre-requests not converted within PRE_REQUEST_VALID_DAYS become vencida (the quote's salary and terms are
 * stale by then), each expiry audited as the system's. Run before reading or converting them: a cheap indexed check
 * (pre_requests_sent_idx) finds whether any is due, and only then does it write, so a read writes nothing on the
 * days when nothing lapsed.
 */
export async function expirePreRequests(tx: Db | Tx, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - PRE_REQUEST_VALID_DAYS * 86_400_000);
  const lapsed = and(eq(preRequests.status, 'enviada'), lt(preRequests.sentAt, cutoff));
  const [due] = await tx.select({ id: preRequests.id }).from(preRequests).where(lapsed).limit(1);
  if (!due) return;
  const expired = await tx
    .update(preRequests)
    .set({ status: 'vencida', updatedAt: now, version: sql`${preRequests.version} + 1` })
    .where(lapsed)
    .returning({ id: preRequests.id });
  if (expired.length === 0) return;
  await tx.insert(auditEvents).values(
    expired.map(({ id }) => ({
      occurredAt: now,
      action: 'pre-request.expire',
      entity: 'pre-request',
      entityId: id,
      before: { status: 'enviada' },
      after: { status: 'vencida', validDays: PRE_REQUEST_VALID_DAYS },
    })),
  );
}

/** The client's RFC and names as stored: an optional field left empty is null. */
export const identityColumns = (input: Values) => ({
  rfc: input.rfc || null,
  firstNames: input.firstNames,
  lastName1: input.lastName1,
  lastName2: input.lastName2 || null,
});

/** The loan asked for, as a pre-request and a request both store it. */
export const loanColumns = (input: Values) => ({
  agreementId: input.agreementId,
  productId: input.productId,
  employeeNumber: input.employeeNumber,
  netSalary: input.netSalary,
  otherDeductions: input.otherDeductions,
  amount: input.amount,
  term: input.term,
});

/** The verdict as a pre-request keeps it. */
export const verdictColumns = (result: Simulation) => ({
  capacity: result.capacity,
  installment: result.installment,
  cat: result.cat,
  result: result.result,
  reasons: result.reasons,
});

/** The company that owns an agreement the user can see (row-level security hides the others). */
export async function agreementCompany(tx: Db | Tx, agreementId: string): Promise<string> {
  const [row] = await tx.select({ companyId: agreements.companyId }).from(agreements).where(eq(agreements.id, agreementId));
  if (!row) throw invalid('agreementId', 'El convenio no existe o no es de tu empresa.');
  return row.companyId;
}

/** The company's client of a CURP, created or refreshed with what the pre-request captured. */
export async function upsertClient(tx: Db | Tx, companyId: string, input: Values, simulation: Simulation, now: Date): Promise<string> {
  const values = {
    companyId,
    curp: input.curp,
    ...identityColumns(input),
    birthDate: simulation.birthDate,
    sex: simulation.sex,
    updatedAt: now,
  };
  const [client] = await tx
    .insert(clients)
    .values({ ...values, createdAt: now })
    .onConflictDoUpdate({ target: [clients.companyId, clients.curp], set: { ...values, updatedAt: sql`excluded.updated_at` } })
    .returning({ id: clients.id });
  return client!.id;
}

/** The draft as it is, locked; refused when gone, edited since `version`, or no longer a draft. */
async function lockDraft(tx: Tx, id: string, version: number, action: string) {
  const current = await lockAtVersion(tx.select().from(preRequests).where(eq(preRequests.id, id)), version, {
    notFound: { title: 'Pre-solicitud no encontrada', detail: 'La pre-solicitud no existe.' },
    stale: {
      title: 'La pre-solicitud cambió',
      detail: 'Otra persona modificó esta pre-solicitud. Recarga la página y vuelve a intentarlo.',
    },
  });
  if (current.status !== 'borrador') {
    throw new HttpProblem(
      409,
      'Acción no permitida',
      `No se puede ${action} una pre-solicitud en estado ${current.status}; solo los borradores.`,
    );
  }
  return current;
}

type Context = { actor: Actor; now: Date; dailyMinimumWage: string };

/** The verdict on `input` and the columns a pre-request stores with it (its client created or refreshed). */
async function judgedColumns(tx: Tx, { now, dailyMinimumWage }: Context, input: Values, preRequestId?: string) {
  const result = await simulate(tx, input, now, dailyMinimumWage, { preRequestId }, input.renews);
  const companyId = await agreementCompany(tx, input.agreementId);
  const clientId = await upsertClient(tx, companyId, input, result, now);
  return { result, columns: { clientId, companyId, ...loanColumns(input), renews: input.renews ?? [], ...verdictColumns(result) } };
}

/** Saves a pre-request as a draft, with its verdict. */
export async function createPreRequest(tx: Tx, context: Context, input: Values): Promise<PreRequest> {
  const { actor, now } = context;
  const { result, columns } = await judgedColumns(tx, context, input);
  const [created] = await tx
    .insert(preRequests)
    .values({ ...columns, createdBy: actor.principal.userId, createdAt: now, updatedAt: now })
    .returning({ id: preRequests.id });
  await recordAudit(tx, actor, {
    action: 'pre-request.create',
    entity: 'pre-request',
    entityId: created!.id,
    after: { ...input, result: result.result, reasons: result.reasons },
    occurredAt: now,
  });
  return loadPreRequest(tx, created!.id);
}

/** Edits a draft; the verdict is taken again. */
export async function updatePreRequest(
  tx: Tx,
  context: Context,
  id: string,
  { version, ...input }: Values & { version: number },
): Promise<PreRequest> {
  const { actor, now } = context;
  const current = await lockDraft(tx, id, version, 'editar');
  const { result, columns } = await judgedColumns(tx, context, input, id);
  await tx
    .update(preRequests)
    .set({ ...columns, updatedAt: now, version: sql`${preRequests.version} + 1` })
    .where(eq(preRequests.id, id));
  await recordAudit(tx, actor, {
    action: 'pre-request.update',
    entity: 'pre-request',
    entityId: id,
    before: current,
    after: { ...input, result: result.result },
    occurredAt: now,
  });
  return loadPreRequest(tx, id);
}

/** Sends a pre-approved draft; the verdict is taken again at the moment of sending (the agreement or another request may have changed). */
export async function sendPreRequest(tx: Tx, { actor, now, dailyMinimumWage }: Context, id: string, version: number): Promise<PreRequest> {
  const current = await lockDraft(tx, id, version, 'enviar');
  const [client] = await tx.select().from(clients).where(eq(clients.id, current.clientId));
  // The draft stores the loan; its client, the CURP and names.
  const input = preRequestInputOf({ ...current, ...client! });
  const result = await simulate(tx, input, now, dailyMinimumWage, { preRequestId: id }, current.renews);
  if (result.result !== 'pre-aprobada') {
    throw new HttpProblem(
      409,
      'Pre-solicitud rechazada',
      `Solo se envían pre-solicitudes pre-aprobadas. ${result.reasons.map((reason) => reason.message).join(' ')}`,
    );
  }
  await tx
    .update(preRequests)
    .set({ status: 'enviada', sentAt: now, updatedAt: now, version: sql`${preRequests.version} + 1` })
    .where(eq(preRequests.id, id));
  await recordAudit(tx, actor, {
    action: 'pre-request.send',
    entity: 'pre-request',
    entityId: id,
    before: { status: 'borrador' },
    after: { status: 'enviada' },
    occurredAt: now,
  });
  return loadPreRequest(tx, id);
}
