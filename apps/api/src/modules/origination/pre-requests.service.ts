import { and, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import { LAST_DAY_OF_MONTH, LendingInputError, assessEligibility, checkCurp, firstPayday } from '@portal/lending';
import { PRE_REQUEST_VALID_DAYS, percentToFraction, type PreRequestInput, type Simulation } from '@portal/contract';
import type { Db, Tx } from '../../db/client';
import { agreementProducts, agreements, auditEvents, clients, credits, preRequests, requests } from '../../db/schema';
import { HttpProblem } from '../../http/errors';
import { trimNumeric } from '../../db/numeric';
import { loanPricing, payrollCalendarOf } from '../agreements/products';

type Values = {
  [K in keyof PreRequestInput]: K extends 'term' ? number : string;
};

const invalid = (field: string, message: string) => new HttpProblem(400, 'Datos inválidos', 'Revisa los campos marcados.', [{ field, message }]);

/** One formatter for every call: `toLocaleDateString` with options builds a new one each time, which is slow. */
const MEXICO_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' });

/** Today in the company's time zone (YYYY-MM-DD): payroll dates are civil dates in Mexico. */
export const mexicoToday = (now: Date) => MEXICO_DATE.format(now);

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
  today: string,
  dailyMinimumWage: string,
  except: { preRequestId?: string | null; requestId?: string } = {},
): Promise<Simulation> {
  await agreementCompany(db, input.agreementId);
  const [row] = await db
    .select({ agreement: agreements, product: agreementProducts })
    .from(agreementProducts)
    .innerJoin(agreements, eq(agreements.id, agreementProducts.agreementId))
    .where(and(eq(agreementProducts.id, input.productId), eq(agreementProducts.agreementId, input.agreementId)));
  if (!row) throw invalid('productId', 'El producto no pertenece al convenio elegido.');
  const verdict = judge(row.agreement, row.product, input, today, dailyMinimumWage);
  const reasons = [...verdict.reasons];
  const [open] = await db
    .select({ number: preRequests.number })
    .from(preRequests)
    .innerJoin(clients, eq(clients.id, preRequests.clientId))
    .where(and(eq(clients.curp, input.curp), eq(preRequests.status, 'enviada'), except.preRequestId ? ne(preRequests.id, except.preRequestId) : undefined));
  if (open) reasons.push({ code: 'open-request', message: `Esta CURP ya tiene una pre-solicitud enviada (${folio(open.number)}).` });
  const [inProgress] = await db
    .select({ number: requests.number, status: requests.status })
    .from(requests)
    .innerJoin(clients, eq(clients.id, requests.clientId))
    .where(and(eq(clients.curp, input.curp), inArray(requests.status, OPEN_REQUEST_STATUSES), except.requestId ? ne(requests.id, except.requestId) : undefined));
  if (inProgress) {
    reasons.push({ code: 'open-request', message: `Esta CURP ya tiene una solicitud en curso (${requestFolio(inProgress.number)}, ${inProgress.status}).` });
  }
  const [active] = await db
    .select({ number: credits.number })
    .from(credits)
    .innerJoin(clients, eq(clients.id, credits.clientId))
    .where(and(eq(clients.curp, input.curp), inArray(credits.status, ['vigente', 'vencido'])));
  if (active) reasons.push({ code: 'active-credit', message: `Esta CURP ya tiene un crédito activo (${creditFolio(active.number)}).` });

  return { ...verdict, result: reasons.length === 0 ? 'pre-aprobada' : 'rechazada', reasons };
}

export const folio = (number: number) => `PS-${String(number).padStart(6, '0')}`;
export const requestFolio = (number: number) => `SOL-${String(number).padStart(6, '0')}`;
export const creditFolio = (number: number) => `CR-${String(number).padStart(8, '0')}`;

/** A request in one of these is still on its way to becoming a credit. */
const OPEN_REQUEST_STATUSES = ['capturada', 'en validación', 'aprobada'] as const;

/**
 * Sent pre-requests not converted within PRE_REQUEST_VALID_DAYS become vencida (the quote's salary and terms are
 * stale by then). Run before reading or converting them; each expiry is audited as the system's.
 */
export async function expirePreRequests(tx: Db | Tx, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - PRE_REQUEST_VALID_DAYS * 86_400_000);
  const expired = await tx
    .update(preRequests)
    .set({ status: 'vencida', updatedAt: now, version: sql`${preRequests.version} + 1` })
    .where(and(eq(preRequests.status, 'enviada'), lt(preRequests.sentAt, cutoff)))
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
