import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { ageOn, checkClabe, formatCents, parseCents } from '@portal/lending';
import {
  DOCUMENT_KINDS,
  DOCUMENT_LABELS,
  DOCUMENT_MAX_BYTES,
  DOCUMENT_TYPES,
  REQUEST_ACTIONS,
  preRequestInputOf,
  type DocumentKind,
  type FieldError,
  type RequestAction,
  type RequestInput,
  type RequestStatus,
  type RenewalVerdict,
} from '@portal/contract';
import type { Tx } from '../../db/client';
import { agreementProducts, agreements } from '../../db/schema/agreements';
import { clients, preRequests, requestDocuments, requests } from '../../db/schema/origination';
import { companies } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { keptFileName, unsafeTextFields } from '../../http/input-hygiene';
import { lockAtVersion, lockForUpdate } from '../../http/locking';
import { recordAudit, type Actor } from '../audit/audit';
import { changePortfolio } from '../portfolio/change-portfolio';
import { acceptedTermsFor, buildCredit, insertCredits, type AcceptedTerms, type CreditRows } from '../portfolio/disbursement';
import { createDisbursementOrder } from '../portfolio/payment-orders';
import { lockRenewedCredits, payOffRenewedCredits } from '../portfolio/renewal';
import { longDate, pesos } from '../shared/es-mx';
import { loadRenewed, renewalVerdict } from './renewals';
import { payrollCalendarOf } from '../shared/products';
import { creditFolio, preRequestFolio } from '../shared/folios';
import { agreementCompany, expirePreRequests, identityColumns, loanColumns, simulate, upsertClient } from './pre-requests.service';
import { businessDateOf, mexicoToday } from '../shared/business-date';
import { capturersOf } from './requests.queries';

/** A parsed request capture: the contract's output types (money normalised, CLABE format checked). */
export type RequestValues = {
  [K in keyof RequestInput]: K extends 'term'
    ? number
    : K extends 'references'
      ? { name: string; relationship: string; phone: string }[]
      : K extends 'renews'
        ? string[]
        : string;
};

export interface UploadedDocument {
  kind: DocumentKind;
  fileName: string;
  contentType: keyof typeof DOCUMENT_TYPES;
  content: Buffer;
}

const invalid = (errors: FieldError[]) => new HttpProblem(400, 'Datos inválidos', 'Revisa los campos marcados.', errors);

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The type a file really is, from its first bytes: a renamed .exe is not a PDF because its name says so. */
function sniff(content: Buffer): keyof typeof DOCUMENT_TYPES | null {
  if (content.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (content[0] === 0xff && content[1] === 0xd8 && content[2] === 0xff) return 'image/jpeg';
  if (content.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  return null;
}

export const isDocumentKind = (value: string): value is DocumentKind => (DOCUMENT_KINDS as readonly string[]).includes(value);

/** Checks one uploaded file against the document rules; the error names the document and says why. */
export function checkDocument(kind: DocumentKind, fileName: string, content: Buffer, truncated: boolean): UploadedDocument | FieldError {
  const label = DOCUMENT_LABELS[kind];
  const field = `documents.${kind}`;
  const limit = `${DOCUMENT_MAX_BYTES / 1024 / 1024} MB`;
  if (truncated || content.length > DOCUMENT_MAX_BYTES) return { field, message: `${label}: el archivo pesa más de ${limit}.` };
  if (unsafeTextFields(fileName).length > 0)
    return {
      field,
      message: `${label}: el nombre del archivo tiene un carácter que no se puede guardar (nulo o Unicode incompleto); renómbralo.`,
    };
  if (content.length === 0) return { field, message: `${label}: el archivo «${fileName}» está vacío.` };
  const contentType = sniff(content);
  if (!contentType) {
    return {
      field,
      message: `${label}: solo se aceptan ${Object.values(DOCUMENT_TYPES).join(', ')}; «${fileName}» no es ninguno de ellos.`,
    };
  }
  return { kind, fileName: keptFileName(fileName, kind), contentType, content };
}

/** Checks the CLABE's bank and check digit with packages/lending; the contract already checked 18 digits. */
function assertClabe(clabe: string): void {
  const check = checkClabe(clabe);
  if (!check.ok) throw invalid([{ field: 'clabe', message: check.message }]);
}

function refuseIneligible(reasons: { message: string }[]): never {
  throw new HttpProblem(409, 'Solicitud no elegible', `El dictamen la rechaza: ${reasons.map((reason) => reason.message).join(' ')}`);
}

const captured = (input: RequestValues) => ({
  ...identityColumns(input),
  ...loanColumns(input),
  street: input.street,
  exteriorNumber: input.exteriorNumber,
  interiorNumber: input.interiorNumber,
  neighborhood: input.neighborhood,
  municipality: input.municipality,
  state: input.state,
  postalCode: input.postalCode,
  phone: input.phone,
  email: input.email,
  references: input.references,
  clabe: input.clabe,
  renews: input.renews,
});

async function storeDocument(
  tx: Tx,
  actor: Actor,
  owner: { requestId: string; companyId: string },
  document: UploadedDocument,
  now: Date,
): Promise<{ replaced: boolean }> {
  const { requestId, companyId } = owner;
  const values = {
    fileName: document.fileName,
    contentType: document.contentType,
    size: document.content.length,
    sha256: createHash('sha256').update(document.content).digest('hex'),
    content: document.content,
    uploadedBy: actor.principal.userId,
    uploadedAt: now,
  };
  const [previous] = await tx
    .select({ fileName: requestDocuments.fileName, sha256: requestDocuments.sha256 })
    .from(requestDocuments)
    .where(and(eq(requestDocuments.requestId, requestId), eq(requestDocuments.kind, document.kind)));
  await tx
    .insert(requestDocuments)
    .values({ requestId, companyId, kind: document.kind, ...values })
    .onConflictDoUpdate({ target: [requestDocuments.requestId, requestDocuments.kind], set: values });
  await recordAudit(tx, actor, {
    action: previous ? 'request.document.replace' : 'request.document.upload',
    entity: 'request',
    entityId: requestId,
    before: previous ? { kind: document.kind, ...previous } : undefined,
    after: { kind: document.kind, fileName: values.fileName, size: values.size, sha256: values.sha256 },
    occurredAt: now,
  });
  return { replaced: Boolean(previous) };
}

/**
 * Creates a request in status capturada with its documents, in the caller's transaction. Converting a sent pre-request
 * marks it convertida in the same transaction; the verdict is taken again with the full capture.
 */
export async function createRequest(
  tx: Tx,
  actor: Actor,
  capture: Omit<RequestValues, 'renews'> & { preRequestId: string | null; renews?: string[] | undefined },
  documents: UploadedDocument[],
  now: Date,
  dailyMinimumWage: string,
): Promise<string> {
  let input = capture;
  assertClabe(input.clabe);
  const companyId = await agreementCompany(tx, input.agreementId);
  await expirePreRequests(tx, now);
  let quotedBy: string | null = null;
  let carried: string[] = [];
  if (input.preRequestId) {
    const [source] = await tx
      .select({
        status: preRequests.status,
        number: preRequests.number,
        curp: clients.curp,
        createdBy: preRequests.createdBy,
        renews: preRequests.renews,
      })
      .from(preRequests)
      .innerJoin(clients, eq(clients.id, preRequests.clientId))
      .where(eq(preRequests.id, input.preRequestId))
      .for('update', { of: preRequests });
    if (!source) throw invalid([{ field: 'preRequestId', message: 'La pre-solicitud no existe.' }]);
    if (source.status !== 'enviada') {
      throw new HttpProblem(
        409,
        'Acción no permitida',
        `No se puede convertir la pre-solicitud ${preRequestFolio(source.number)} en estado ${source.status}; solo las enviadas.`,
      );
    }
    if (source.curp !== input.curp)
      throw invalid([{ field: 'curp', message: `La CURP no coincide con la de la pre-solicitud ${preRequestFolio(source.number)}.` }]);
    quotedBy = source.createdBy;
    // A conversion that names no credits to renew carries the pre-request's (docs/domain.md, "Renewals").
    carried = source.renews;
  }
  input = { ...input, renews: input.renews ?? carried };
  const simulation = await simulate(tx, input, now, dailyMinimumWage, { preRequestId: input.preRequestId }, input.renews);
  if (simulation.result !== 'pre-aprobada') refuseIneligible(simulation.reasons);
  const clientId = await upsertClient(tx, companyId, input, simulation, now);
  const [created] = await tx
    .insert(requests)
    .values({
      ...captured(input),
      preRequestId: input.preRequestId,
      clientId,
      companyId,
      simulation,
      installment: simulation.installment,
      createdBy: actor.principal.userId,
      // Whoever typed the pre-request's data (carried into the request) is one of its capturers too.
      capturedBy: [...new Set([actor.principal.userId, ...(quotedBy ? [quotedBy] : [])])],
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: requests.id });
  const id = created!.id;
  await recordAudit(tx, actor, {
    action: 'request.create',
    entity: 'request',
    entityId: id,
    after: { ...captured(input), curp: input.curp, preRequestId: input.preRequestId, installment: simulation.installment },
    occurredAt: now,
  });
  if (input.preRequestId) {
    await tx
      .update(preRequests)
      .set({ status: 'convertida', updatedAt: now, version: sql`${preRequests.version} + 1` })
      .where(eq(preRequests.id, input.preRequestId));
    await recordAudit(tx, actor, {
      action: 'pre-request.convert',
      entity: 'pre-request',
      entityId: input.preRequestId,
      before: { status: 'enviada' },
      after: { status: 'convertida', requestId: id },
      occurredAt: now,
    });
  }
  for (const document of documents) await storeDocument(tx, actor, { requestId: id, companyId }, document, now);
  return id;
}

type RequestRow = typeof requests.$inferSelect;

const REQUEST_NOT_FOUND = { title: 'Solicitud no encontrada', detail: 'La solicitud no existe.' };

/** The request locked for a change; another company's is as missing as one that does not exist. */
const lockVisible = (tx: Tx, id: string): Promise<RequestRow> =>
  lockForUpdate(tx.select().from(requests).where(eq(requests.id, id)), REQUEST_NOT_FOUND);

/** The request locked for a change: refused when missing (or another company's), edited since `version`, or in a status the action does not start from. */
async function lockRequest(tx: Tx, id: string, version: number, allowed: readonly RequestStatus[], verb: string): Promise<RequestRow> {
  const current = await lockAtVersion(tx.select().from(requests).where(eq(requests.id, id)), version, {
    notFound: REQUEST_NOT_FOUND,
    stale: (row) => ({
      title: 'La solicitud cambió',
      detail: `Otra persona modificó esta solicitud (ahora está ${row.status}). Recarga la página y vuelve a intentarlo.`,
    }),
  });
  if (!allowed.includes(current.status)) {
    throw new HttpProblem(409, 'Acción no permitida', `No se puede ${verb} una solicitud en estado ${current.status}.`);
  }
  return current;
}

/** The request's `captured_by` with the actor added (once, in the order people first touched the capture). */
const touchedBy = (actor: Actor) =>
  sql`case when ${actor.principal.userId}::uuid = any(${requests.capturedBy}) then ${requests.capturedBy} else array_append(${requests.capturedBy}, ${actor.principal.userId}::uuid) end`;

/** Edits a captured request (only while capturada); the verdict is taken again. */
export async function updateRequest(
  tx: Tx,
  actor: Actor,
  id: string,
  version: number,
  input: RequestValues,
  now: Date,
  dailyMinimumWage: string,
): Promise<void> {
  const current = await lockRequest(tx, id, version, ['capturada'], 'editar');
  assertClabe(input.clabe);
  const companyId = await agreementCompany(tx, input.agreementId);
  if (companyId !== current.companyId) {
    // Its documents, client and history belong to the company that captured it.
    throw invalid([{ field: 'agreementId', message: 'Elige un convenio de la misma empresa de la solicitud.' }]);
  }
  const [client] = await tx.select({ curp: clients.curp }).from(clients).where(eq(clients.id, current.clientId));
  if (client!.curp !== input.curp)
    throw invalid([{ field: 'curp', message: 'La CURP de una solicitud no se cambia; cancela esta y captura otra.' }]);
  const simulation = await simulate(tx, input, now, dailyMinimumWage, { preRequestId: current.preRequestId, requestId: id }, input.renews);
  if (simulation.result !== 'pre-aprobada') refuseIneligible(simulation.reasons);
  const clientId = await upsertClient(tx, companyId, input, simulation, now);
  await tx
    .update(requests)
    .set({
      ...captured(input),
      clientId,
      simulation,
      installment: simulation.installment,
      capturedBy: touchedBy(actor),
      updatedAt: now,
      version: sql`${requests.version} + 1`,
    })
    .where(eq(requests.id, id));
  const { simulation: _before, ...before } = current;
  await recordAudit(tx, actor, {
    action: 'request.update',
    entity: 'request',
    entityId: id,
    before,
    after: captured(input),
    occurredAt: now,
  });
}

/** Uploads or replaces one document, while the request is capturada or en validación. */
export async function replaceDocument(tx: Tx, actor: Actor, id: string, document: UploadedDocument, now: Date): Promise<void> {
  const current = await lockVisible(tx, id);
  if (current.status !== 'capturada' && current.status !== 'en validación') {
    throw new HttpProblem(409, 'Acción no permitida', `No se pueden cambiar los documentos de una solicitud en estado ${current.status}.`);
  }
  await storeDocument(tx, actor, { requestId: id, companyId: current.companyId }, document, now);
  await tx
    .update(requests)
    .set({ capturedBy: touchedBy(actor), updatedAt: now, version: sql`${requests.version} + 1` })
    .where(eq(requests.id, id));
}

/** Whether the user captured the request or changed its capture: its data or its documents. */
const capturedBy = (request: RequestRow, userId: string) => capturersOf(request).includes(userId);

/**
 * Maker-checker on money leaving: where the request's company asks for it (the default), whoever disburses is
 * neither who captured or changed the request nor who approved it.
 */
async function assertSeparateDisburser(tx: Tx, request: RequestRow, userId: string): Promise<void> {
  const [company] = await tx
    .select({ separate: companies.separateDisbursement })
    .from(companies)
    .where(eq(companies.id, request.companyId));
  if (!company?.separate) return;
  const role = capturedBy(request, userId) ? 'capturó o modificó' : request.decidedBy === userId ? 'aprobó' : null;
  if (role) {
    throw new HttpProblem(
      403,
      'Se requiere otra persona',
      `Quien ${role} la solicitud no puede dispersarla: debe hacerlo una tercera persona con el permiso de dispersión (por ejemplo, Tesorería).`,
    );
  }
}

export type ActionBody = { version: number; reason?: string; disbursementDate?: string; expectedNetAmount?: string | undefined };

/**
 * One step of the status machine, in the caller's transaction: checks the status, the version, the two-person rule
 * and what each step needs (documents to validate, eligibility to approve, a valid date to disburse), then writes
 * the change and its audit event. Disbursing creates the credit, its schedule and its expected deductions here too,
 * so all of it exists or none of it does; the row lock and the unique request id make a second disbursement fail.
 */
export async function runAction(
  tx: Tx,
  actor: Actor,
  id: string,
  action: RequestAction,
  body: ActionBody,
  now: Date,
  dailyMinimumWage: string,
): Promise<{ creditId?: string; creditFolio?: string; amountToTransfer?: string; paymentOrderId?: string | null }> {
  const step = REQUEST_ACTIONS[action];
  const current = await lockRequest(tx, id, body.version, step.from, step.verb);
  const userId = actor.principal.userId;
  if ((action === 'approve' || action === 'reject') && capturedBy(current, userId)) {
    throw new HttpProblem(
      403,
      'Se requiere otra persona',
      `Quien capturó o modificó la solicitud (sus datos o documentos) no puede ${step.verb}la; debe hacerlo otra persona con el permiso de aprobación.`,
    );
  }
  if (action === 'disburse') await assertSeparateDisburser(tx, current, userId);
  const changes: Partial<typeof requests.$inferInsert> = { status: step.to };
  let result: { creditId?: string; creditFolio?: string; amountToTransfer?: string; paymentOrderId?: string | null } = {};

  if (action === 'submit') {
    const present = await tx.select({ kind: requestDocuments.kind }).from(requestDocuments).where(eq(requestDocuments.requestId, id));
    const missing = DOCUMENT_KINDS.filter((kind) => !present.some((document) => document.kind === kind));
    if (missing.length > 0) {
      throw new HttpProblem(
        409,
        'Faltan documentos',
        `Para enviar a validación faltan: ${missing.map((kind) => DOCUMENT_LABELS[kind]).join(', ')}.`,
      );
    }
  }
  if (action === 'approve') {
    const [client] = await tx.select({ curp: clients.curp }).from(clients).where(eq(clients.id, current.clientId));
    const simulation = await simulate(
      tx,
      preRequestInputOf({ ...current, curp: client!.curp }),
      now,
      dailyMinimumWage,
      { preRequestId: current.preRequestId, requestId: id },
      current.renews,
    );
    if (simulation.result !== 'pre-aprobada') refuseIneligible(simulation.reasons);
    // The accepted terms are frozen here: disbursement uses them, never the product as edited since (docs/domain.md, "Origination").
    // A renewal's payoffs and their date are frozen with them: a later disbursement recomputes and shows the change.
    const [product] = await tx.select().from(agreementProducts).where(eq(agreementProducts.id, current.productId));
    const acceptedTerms = {
      ...acceptedTermsFor(product!, simulation, current.term),
      ...(simulation.renewal ? { renewal: simulation.renewal } : {}),
    };
    Object.assign(changes, { decidedBy: userId, decidedAt: now, simulation, installment: simulation.installment, acceptedTerms });
  }
  if (action === 'reject') Object.assign(changes, { decidedBy: userId, decidedAt: now, rejectionReason: body.reason });
  if (action === 'cancel') Object.assign(changes, { cancellationReason: body.reason });
  if (action === 'disburse') result = await disburse(tx, current, body, userId, now);

  await tx
    .update(requests)
    .set({ ...changes, updatedAt: now, version: sql`${requests.version} + 1` })
    .where(eq(requests.id, id));
  await recordAudit(
    tx,
    actor,
    {
      action: `request.${action}`,
      entity: 'request',
      entityId: id,
      before: { status: current.status },
      after: {
        status: step.to,
        ...(body.reason ? { reason: body.reason } : {}),
        ...(body.disbursementDate ? { disbursementDate: body.disbursementDate, ...result } : {}),
      },
      occurredAt: now,
    },
    ...(result.creditId
      ? [
          {
            action: 'credit.create',
            entity: 'credit',
            entityId: result.creditId,
            after: { requestId: id, folio: result.creditFolio },
            occurredAt: now,
          },
        ]
      : []),
  );
  return result;
}

async function disburse(tx: Tx, request: RequestRow, body: ActionBody, userId: string, now: Date) {
  const disbursementDate = body.disbursementDate!;
  const today = mexicoToday(now);
  const approvedOn = request.decidedAt ? mexicoToday(request.decidedAt) : today;
  // After the day's close the fecha flujo is the next business day, and what is operated then is booked on it (a
  // renewal must be: its payoffs are valued at the fecha flujo), so the latest date is the later of today and it.
  const businessDate = await businessDateOf(tx, request.companyId, today);
  const latest = businessDate > today ? businessDate : today;
  if (disbursementDate < approvedOn || disbursementDate > latest) {
    const until = latest === today ? `hoy (${today})` : `la fecha flujo (${latest})`;
    throw invalid([
      { field: 'disbursementDate', message: `La fecha de dispersión debe estar entre la aprobación (${approvedOn}) y ${until}.` },
    ]);
  }
  const [row] = await tx
    .select({ agreement: agreements, product: agreementProducts })
    .from(agreementProducts)
    .innerJoin(agreements, eq(agreements.id, agreementProducts.agreementId))
    .where(eq(agreementProducts.id, request.productId));
  const { agreement, product } = row!;
  const accepted = request.acceptedTerms as (AcceptedTerms & { renewal?: RenewalVerdict }) | null;
  if (!accepted)
    throw new HttpProblem(
      409,
      'Sin condiciones aceptadas',
      'La solicitud no guardó las condiciones aprobadas; vuelve a validarla y aprobarla.',
    );
  // Age is checked again on the disbursement date: at least 18 now, at most the product's maximum at the end (docs/domain.md, "Origination").
  const birthDate = (request.simulation as { birthDate: string }).birthDate;
  if (ageOn(birthDate, disbursementDate) < 18)
    throw new HttpProblem(409, 'Edad fuera de política', 'El acreditado aún no cumple 18 años a la fecha de dispersión.');
  if (!agreement.active || agreement.validFrom > disbursementDate || (agreement.validTo !== null && agreement.validTo < disbursementDate)) {
    throw new HttpProblem(
      409,
      'Convenio no vigente',
      `El convenio ${agreement.code} no está vigente o está desactivado; no se puede dispersar.`,
    );
  }
  if (!product.active)
    throw new HttpProblem(409, 'Producto retirado', `El producto ${product.name} ya no se ofrece; cancela la solicitud y captura otra.`);
  const built = buildCredit({
    calendar: payrollCalendarOf(agreement),
    requestId: request.id,
    clientId: request.clientId,
    companyId: request.companyId,
    agreementId: agreement.id,
    productId: product.id,
    employeeNumber: request.employeeNumber,
    amount: request.amount,
    term: request.term,
    clabe: request.clabe,
    frequency: agreement.frequency,
    product: {
      name: accepted.productName,
      annualRatePct: accepted.annualRatePct,
      ivaRatePct: accepted.ivaRatePct,
      openingFeePct: accepted.openingFeePct,
      openingFeeFinanced: accepted.openingFeeFinanced,
      moratoryRatePct: accepted.moratoryRatePct ?? product.moratoryRatePct,
      lateFee: accepted.lateFee ?? product.lateFee,
    },
    disbursementDate,
    disbursedBy: userId,
    createdAt: now,
  });
  if (ageOn(birthDate, built.credit.lastDueDate) > accepted.maxAgeAtEnd) {
    throw new HttpProblem(
      409,
      'Edad fuera de política',
      `Al terminar el plazo (${built.credit.lastDueDate}) superaría la edad máxima de ${accepted.maxAgeAtEnd} años.`,
    );
  }
  if (built.credit.installment !== accepted.installment) {
    throw new HttpProblem(
      409,
      'Condiciones distintas',
      `El descuento calculado (${built.credit.installment}) no es el aprobado (${accepted.installment}); vuelve a aprobar la solicitud.`,
    );
  }
  // Through the portfolio's door: a close of the company's day never runs half before and half after the new credit.
  // Its balance and next discount date are written with it (insertCredits) and the home's figures follow at the next
  // close or payment file, as they always did for a single credit. A renewal pays off the credits it renews in the same
  // change (docs/domain.md, "Renewals"): all of it or none of it.
  const disbursed = await changePortfolio(tx, request.companyId, { today, now, figures: request.renews.length > 0 }, async (change) => {
    if (request.renews.length === 0) {
      const [credit] = await insertCredits(tx, [built]);
      return { creditId: credit!.id, creditFolio: creditFolio(credit!.number), amountToTransfer: built.credit.netDisbursed };
    }
    const renewal = await checkRenewalAtDisbursement(tx, request, accepted, built, change.businessDate, body.expectedNetAmount);
    const [credit] = await insertCredits(tx, [built]);
    const paid = await payOffRenewedCredits(tx, change, {
      newCreditId: credit!.id,
      payoffs: renewal.credits.map((entry) => ({ creditId: entry.creditId, amount: entry.payoff })),
      valueDate: disbursementDate,
      appliedBy: userId,
      now,
    });
    // What leaves the bank: the new credit's net disbursement less what it paid to the renewed credits.
    const amountToTransfer = formatCents(parseCents(built.credit.netDisbursed, 'netDisbursed') - parseCents(paid, 'paid'));
    return { creditId: credit!.id, creditFolio: creditFolio(credit!.number), amountToTransfer };
  });
  // The money leaves through Tesorería: a pending payment order for what the client receives, a renewal's net amount
  // only (issue 47; none when the payoffs take it all). The request's audit event carries the order's id.
  const paymentOrderId = await createDisbursementOrder(tx, {
    creditId: disbursed.creditId,
    amount: disbursed.amountToTransfer,
    createdBy: userId,
    now,
  });
  return { ...disbursed, paymentOrderId };
}

/**
 * A renewal at disbursement (docs/domain.md, "Renewals"): the payoffs are taken on the company's business date (the
 * open day, which the disbursement date must be), recomputed from the credits as they stand, locked, and judged again
 * (the rule, the net, the minimum). When they differ from what the approval froze, the person disbursing must have seen
 * the new net amount (`expectedNetAmount`) before the money goes.
 */
async function checkRenewalAtDisbursement(
  tx: Tx,
  request: RequestRow,
  accepted: AcceptedTerms & { renewal?: RenewalVerdict },
  built: CreditRows,
  businessDate: string,
  expectedNetAmount: string | undefined,
): Promise<RenewalVerdict> {
  const frozen = accepted.renewal;
  if (!frozen)
    throw new HttpProblem(409, 'Sin finiquitos aprobados', 'La aprobación no guardó los finiquitos de la renovación; vuelve a aprobarla.');
  const disbursementDate = built.credit.disbursementDate;
  if (disbursementDate !== businessDate) {
    throw invalid([
      {
        field: 'disbursementDate',
        message: `Una renovación se dispersa en la fecha flujo de la empresa (${businessDate}): los finiquitos se calculan a ese día.`,
      },
    ]);
  }
  const locked = await lockRenewedCredits(tx, request.renews);
  const [client] = await tx.select({ curp: clients.curp }).from(clients).where(eq(clients.id, request.clientId));
  const renewed = await loadRenewed(tx, request.companyId, client!.curp, request.renews);
  const { renewal, reasons } = await renewalVerdict(
    tx,
    renewed.map((row) => ({ ...row, status: locked.find((l) => l.id === row.id)!.status })),
    {
      companyId: request.companyId,
      payoffDate: disbursementDate,
      amount: built.credit.amount,
      openingFee: built.credit.openingFee,
      openingFeeIva: built.credit.openingFeeIva ?? '0.00',
      openingFeeFinanced: built.credit.openingFeeFinanced,
      rule: frozen.rule,
      otherDeductionsAfter: frozen.otherDeductionsAfter,
    },
  );
  if (reasons.length > 0) refuseIneligible(reasons);
  const changed = renewal.payoffDate !== frozen.payoffDate || renewal.netAmount !== frozen.netAmount;
  const accepts = expectedNetAmount === undefined ? !changed : expectedNetAmount === renewal.netAmount;
  if (!accepts) {
    const lines = renewal.credits.map((entry) => {
      const before = frozen.credits.find((f) => f.creditId === entry.creditId);
      return `${entry.folio}: ${pesos(before?.payoff ?? '0.00')} al ${longDate(frozen.payoffDate)} → ${pesos(entry.payoff)} al ${longDate(renewal.payoffDate)}.`;
    });
    throw new HttpProblem(
      409,
      'Los finiquitos cambiaron',
      `${lines.join(' ')} Monto neto a dispersar: ${pesos(frozen.netAmount)} → ${pesos(renewal.netAmount)}. Confírmalo para dispersar.`,
      [{ field: 'expectedNetAmount', message: renewal.netAmount }],
    );
  }
  return renewal;
}
