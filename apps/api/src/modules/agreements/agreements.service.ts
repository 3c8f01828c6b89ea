import { and, asc, eq, sql } from 'drizzle-orm';
import { isValidRfc } from '@portal/lending';
import { layoutSchema, type AgreementDetail, type AgreementValues, type LayoutTestResult, type RenewalMinimum } from '@portal/contract';
import type { Tx } from '../../db/client';
import { trimNumeric } from '../../db/numeric';
import { agreementProducts, agreements } from '../../db/schema/agreements';
import { companies } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { lockAtVersion } from '../../http/locking';
import { SpreadsheetLimitError } from '../../lib/xlsx-read';
import { recordAudit, type Actor } from '../audit/audit';
import { AGREEMENT_NOT_FOUND, loadAgreementDetail } from './agreements.queries';
import { LayoutFileError, parsePaymentFile } from '../shared/layout-parser';
import { productRows, toProduct } from '../shared/products';

/** Convenios' rules: RFC, unique code, the company that never changes, products kept by id; each write audited. */

const SAMPLE_ROWS = 20;
const CODE_TAKEN = { field: 'code', message: 'Ya existe un convenio con esa clave.' };

/** The employer's RFC must be well formed with a real date; a failing check digit only warns (docs/domain.md). */
function assertRfc(rfc: string) {
  if (!isValidRfc(rfc)) {
    throw new HttpProblem(400, 'Datos inválidos', 'Revisa los campos marcados.', [
      { field: 'employerRfc', message: 'RFC del patrón no válido: revisa la fecha y las letras.' },
    ]);
  }
}

/** The agreement as it is now, locked for this transaction; 404 when gone, 409 (with `staleMessage`) when edited since `version`. */
const lockAgreement = (tx: Tx, id: string, version: number, staleMessage: string) =>
  lockAtVersion(tx.select().from(agreements).where(eq(agreements.id, id)), version, {
    notFound: AGREEMENT_NOT_FOUND,
    stale: { title: 'El convenio cambió', detail: staleMessage },
  });

async function assertCompany(tx: Tx, companyId: string) {
  const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
  if (!company)
    throw new HttpProblem(400, 'Datos inválidos', 'Revisa los campos marcados.', [
      { field: 'companyId', message: 'La empresa elegida no existe.' },
    ]);
}

async function assertCodeFree(tx: Tx, code: string, exceptId?: string) {
  const [taken] = await tx
    .select({ id: agreements.id })
    .from(agreements)
    .where(and(sql`upper(${agreements.code}) = ${code.toUpperCase()}`, exceptId ? sql`${agreements.id} <> ${exceptId}` : undefined));
  if (taken) throw new HttpProblem(409, 'Clave ya registrada', CODE_TAKEN.message, [CODE_TAKEN]);
}

export async function createAgreement(tx: Tx, actor: Actor, now: Date, input: AgreementValues): Promise<AgreementDetail> {
  const { products, ...fields } = input;
  assertRfc(fields.employerRfc);
  await assertCompany(tx, fields.companyId);
  await assertCodeFree(tx, fields.code);
  const [created] = await tx
    .insert(agreements)
    .values({ ...fields, createdAt: now, updatedAt: now })
    .returning({ id: agreements.id });
  await tx.insert(agreementProducts).values(
    productRows(
      { id: created!.id, companyId: fields.companyId },
      products.map(({ id: _ignored, ...product }) => product),
    ),
  );
  await recordAudit(tx, actor, { action: 'agreement.create', entity: 'agreement', entityId: created!.id, after: input, occurredAt: now });
  return loadAgreementDetail(tx, created!.id);
}

export async function updateAgreement(
  tx: Tx,
  actor: Actor,
  now: Date,
  id: string,
  input: AgreementValues & { version: number },
): Promise<AgreementDetail> {
  const { version, products, ...fields } = input;
  assertRfc(fields.employerRfc);
  const current = await lockAgreement(
    tx,
    id,
    version,
    'Otra persona modificó este convenio mientras lo editabas. Recarga la página para ver sus cambios y vuelve a intentarlo.',
  );
  if (fields.companyId !== current.companyId) {
    // Its products, requests and credits belong to that company: an agreement does not change hands.
    throw new HttpProblem(
      409,
      'Cambio no permitido',
      'La empresa de un convenio no se cambia; da de alta el convenio en la otra empresa.',
      [{ field: 'companyId', message: 'La empresa de un convenio no se cambia.' }],
    );
  }
  // Read under the lock: the audit's "before" and the product reconciliation see the row as it is replaced.
  const before = await tx
    .select()
    .from(agreementProducts)
    .where(eq(agreementProducts.agreementId, id))
    .orderBy(asc(agreementProducts.position));
  await assertCompany(tx, fields.companyId);
  await assertCodeFree(tx, fields.code, id);
  await tx
    .update(agreements)
    .set({ ...fields, updatedAt: now, version: sql`${agreements.version} + 1` })
    .where(eq(agreements.id, id));
  // Products keep their id: credits will point at them and keep their own snapshot of the terms.
  const existing = new Set(before.map((product) => product.id));
  const unknown = products.find((product) => product.id && !existing.has(product.id));
  if (unknown) throw new HttpProblem(400, 'Datos inválidos', 'Un producto no pertenece a este convenio.');
  const kept = new Set(products.map((product) => product.id).filter(Boolean));
  for (const row of productRows({ id, companyId: fields.companyId }, products)) {
    if (row.id) await tx.update(agreementProducts).set(row).where(eq(agreementProducts.id, row.id));
    else await tx.insert(agreementProducts).values(row);
  }
  for (const product of before) {
    if (!kept.has(product.id)) await tx.update(agreementProducts).set({ active: false }).where(eq(agreementProducts.id, product.id));
  }
  const { version: _version, createdAt: _createdAt, updatedAt: _updatedAt, ...agreement } = current;
  await recordAudit(tx, actor, {
    action: 'agreement.update',
    entity: 'agreement',
    entityId: id,
    before: { ...agreement, maxDeductionPct: trimNumeric(agreement.maxDeductionPct), products: before.map(toProduct) },
    after: input,
    occurredAt: now,
  });
  return loadAgreementDetail(tx, id);
}

export async function setAgreementStatus(
  tx: Tx,
  actor: Actor,
  now: Date,
  id: string,
  { active, version }: { active: boolean; version: number },
): Promise<AgreementDetail> {
  const current = await lockAgreement(tx, id, version, 'Otra persona modificó este convenio. Recarga la página y vuelve a intentarlo.');
  await tx
    .update(agreements)
    .set({ active, updatedAt: now, version: sql`${agreements.version} + 1` })
    .where(eq(agreements.id, id));
  await recordAudit(tx, actor, {
    action: active ? 'agreement.activate' : 'agreement.deactivate',
    entity: 'agreement',
    entityId: id,
    before: { active: current.active },
    after: { active },
    occurredAt: now,
  });
  return loadAgreementDetail(tx, id);
}

/** "Probar layout": the sample file read with the layout given as JSON text; its first rows and how many have errors. */
export async function testLayout(layoutText: string, content: () => Promise<Buffer>): Promise<LayoutTestResult> {
  let layoutJson: unknown;
  try {
    layoutJson = JSON.parse(layoutText);
  } catch {
    throw new HttpProblem(400, 'Layout no válido', 'Envía el layout (campo "layout") antes del archivo, como JSON.');
  }
  const layout = layoutSchema.safeParse(layoutJson);
  if (!layout.success) {
    throw new HttpProblem(
      400,
      'Layout no válido',
      'Revisa la definición del layout.',
      layout.error.issues.map((issue) => ({ field: ['layout', ...issue.path].join('.'), message: issue.message })),
    );
  }
  const file = await content();
  try {
    const { rows } = await parsePaymentFile(file, layout.data);
    const sample = rows.slice(0, SAMPLE_ROWS).map(({ line, raw, fields, errors }) => ({ line, raw, fields, errors }));
    return { rows: sample, totalRows: rows.length, errorRows: rows.filter((row) => row.errors.length > 0).length };
  } catch (error) {
    if (error instanceof LayoutFileError) throw new HttpProblem(400, 'Archivo no legible', error.message);
    if (error instanceof SpreadsheetLimitError) throw new HttpProblem(400, 'Archivo fuera de los límites de lectura', error.message);
    throw error;
  }
}

/**
 * The company's minimum net amount of a renewal (origination/renewals.ts refuses a renewal below it). Always the
 * caller's own company, from the principal: role SA sees every company's row, so neither the body nor the URL names
 * one. `lock` holds the row for a write, so the audit's "before" is the value that write replaces.
 */
export async function loadRenewalMinimum(tx: Tx, companyId: string, lock = false): Promise<RenewalMinimum> {
  const read = tx.select({ renewalMinimumNet: companies.renewalMinimumNet }).from(companies).where(eq(companies.id, companyId));
  const [company] = await (lock ? read.for('update') : read);
  if (!company) throw new HttpProblem(404, 'Empresa no encontrada', 'Tu usuario no tiene una empresa a la vista.');
  return company;
}

export async function setRenewalMinimum(tx: Tx, actor: Actor, now: Date, input: RenewalMinimum): Promise<RenewalMinimum> {
  const { companyId } = actor.principal;
  const before = await loadRenewalMinimum(tx, companyId, true);
  const [after] = await tx
    .update(companies)
    .set({ renewalMinimumNet: input.renewalMinimumNet })
    .where(eq(companies.id, companyId))
    .returning({ renewalMinimumNet: companies.renewalMinimumNet });
  await recordAudit(tx, actor, {
    action: 'company.renewal-minimum',
    entity: 'company',
    entityId: companyId,
    before,
    after,
    occurredAt: now,
  });
  return after!;
}
