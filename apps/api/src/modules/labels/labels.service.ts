import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import type {
  LabelAction,
  LabelSource,
  LabelUpdatePreview,
  LabelUpdateResult,
  LabelUpdateRow,
  LabelUpdateRowInput,
} from '@portal/contract';
import type { Tx } from '../../db/client';
import { credits } from '../../db/schema/credits';
import { creditLabelEvents, labelJobs, labels } from '../../db/schema/labels';
import { clients } from '../../db/schema/origination';
import { companies } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { recordAudit, type Actor } from '../audit/audit';
import { creditFolio, creditNumberOf } from '../shared/folios';
import { plainText } from '../shared/text';

/**
 * Actualizar Etiqueta: every requested row gets an outcome (the preview), and applying writes the applicable ones, the
 * credits' current labels and their history, in the request's one transaction. The credits are read through the
 * request's company scope, so another company's folio is simply not found, as one that does not exist.
 */

type Request = { source: LabelSource; fileName: string | null; rows: LabelUpdateRowInput[] };

interface FoundCredit {
  id: string;
  number: number;
  companyId: string;
  company: string;
  clientName: string;
  labels: string[];
}

/** A row with its outcome and, when it applies, the change it makes. */
interface Evaluated {
  row: LabelUpdateRow;
  change: { credit: FoundCredit; label: string; action: LabelAction } | null;
}

const actionOf = (text: string): LabelAction | null => {
  const word = plainText(text);
  return word === 'agregar' || word === 'quitar' ? word : null;
};

/** The credits the rows name, as the request's scope sees them; locked when they are about to change. */
async function findCredits(tx: Tx, numbers: number[], lock: boolean): Promise<Map<number, FoundCredit>> {
  if (numbers.length === 0) return new Map();
  const query = tx
    .select({
      id: credits.id,
      number: credits.number,
      companyId: credits.companyId,
      company: companies.name,
      clientName: sql<string>`trim(${clients.firstNames} || ' ' || ${clients.lastName1} || ' ' || coalesce(${clients.lastName2}, ''))`,
      labels: credits.labels,
    })
    .from(credits)
    .innerJoin(clients, eq(clients.id, credits.clientId))
    .innerJoin(companies, eq(companies.id, credits.companyId))
    .where(inArray(credits.number, numbers))
    .orderBy(credits.number);
  const rows = lock ? await query.for('update', { of: credits }) : await query;
  return new Map(rows.map((row) => [row.number, row]));
}

/** Each company's catalogue: the label's name as written there, by its name in lower case. */
async function catalogues(tx: Tx, companyIds: string[]): Promise<Map<string, Map<string, string>>> {
  const byCompany = new Map<string, Map<string, string>>();
  if (companyIds.length === 0) return byCompany;
  const rows = await tx
    .select({ companyId: labels.companyId, name: labels.name })
    .from(labels)
    .where(inArray(labels.companyId, companyIds));
  for (const row of rows) {
    const names = byCompany.get(row.companyId) ?? new Map<string, string>();
    names.set(plainText(row.name), row.name);
    byCompany.set(row.companyId, names);
  }
  return byCompany;
}

/**
 * Every row's outcome, in line order. Rows are judged one after another against the labels the earlier rows leave, so
 * a file that adds two labels to one credit applies both; the same credit and label twice is a duplicate.
 */
async function evaluate(tx: Tx, rows: LabelUpdateRowInput[], lock: boolean): Promise<Evaluated[]> {
  const ordered = [...rows].sort((left, right) => left.line - right.line);
  const numbers = [...new Set(ordered.map((row) => creditNumberOf(row.folio)).filter((number): number is number => number !== null))];
  const found = await findCredits(tx, numbers, lock);
  const catalogue = await catalogues(tx, [...new Set([...found.values()].map((credit) => credit.companyId))]);
  const current = new Map([...found.values()].map((credit) => [credit.id, new Set(credit.labels)]));
  const seen = new Map<string, number>();

  return ordered.map((input): Evaluated => {
    const number = creditNumberOf(input.folio);
    const action = actionOf(input.action);
    const credit = number === null ? undefined : found.get(number);
    const base = {
      line: input.line,
      folio: number === null ? input.folio : creditFolio(number),
      label: input.label,
      action,
      creditId: credit?.id ?? null,
      clientName: credit?.clientName ?? null,
      company: credit?.company ?? null,
    };
    const reject = (outcome: LabelUpdateRow['outcome'], message: string): Evaluated => ({
      row: { ...base, outcome, message },
      change: null,
    });
    if (number === null)
      return reject(
        'dato no válido',
        input.folio.trim() === '' ? 'Falta el folio del crédito.' : `«${input.folio}» no es un folio de crédito (CR-00000042).`,
      );
    if (input.label.trim() === '') return reject('dato no válido', 'Falta la etiqueta.');
    if (action === null)
      return reject(
        'dato no válido',
        input.action.trim() === '' ? 'Falta la acción (agregar o quitar).' : `La acción «${input.action}» no es agregar ni quitar.`,
      );
    const key = `${number}|${plainText(input.label)}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) return reject('duplicado', `La línea ${earlier} ya cambia esta etiqueta de este crédito.`);
    seen.set(key, input.line);
    if (!credit) return reject('crédito no encontrado', `El crédito ${creditFolio(number)} no existe o no es de tu empresa.`);
    const label = catalogue.get(credit.companyId)?.get(plainText(input.label));
    if (!label) return reject('etiqueta desconocida', `La etiqueta «${input.label}» no está en el catálogo de ${credit.company}.`);
    const labelsNow = current.get(credit.id)!;
    if (action === 'agregar' && labelsNow.has(label)) return reject('ya tiene la etiqueta', `El crédito ya tiene la etiqueta ${label}.`);
    if (action === 'quitar' && !labelsNow.has(label)) return reject('no tiene la etiqueta', `El crédito no tiene la etiqueta ${label}.`);
    if (action === 'agregar') labelsNow.add(label);
    else labelsNow.delete(label);
    return { row: { ...base, label, outcome: 'aplicable', message: null }, change: { credit, label, action } };
  });
}

const summary = (evaluated: Evaluated[]): LabelUpdatePreview => {
  const applicable = evaluated.filter((entry) => entry.change !== null).length;
  return { rows: evaluated.map((entry) => entry.row), applicable, rejected: evaluated.length - applicable };
};

/** "Vista previa": what applying would do to each row, changing nothing. */
export async function previewLabelUpdate(tx: Tx, request: Request): Promise<LabelUpdatePreview> {
  return summary(await evaluate(tx, request.rows, false));
}

/**
 * "Aplicar": judges the rows again on the locked credits (they may have changed since the preview), writes the
 * applicable ones — the credits' labels, one history entry per change, the job record of each company touched under
 * one id — and the audit. It all happens in the request's transaction: a failure anywhere leaves nothing.
 */
export async function applyLabelUpdate(tx: Tx, actor: Actor, request: Request, now: Date): Promise<LabelUpdateResult> {
  const evaluated = await evaluate(tx, request.rows, true);
  const changes = evaluated.flatMap((entry) => (entry.change ? [{ ...entry.change, line: entry.row.line }] : []));
  if (changes.length === 0)
    throw new HttpProblem(
      409,
      'Nada que aplicar',
      'Ninguna fila cambia una etiqueta: revisa el resultado de cada fila en la vista previa.',
    );

  const jobId = randomUUID();
  const byCompany = new Map<string, number>();
  for (const change of changes) byCompany.set(change.credit.companyId, (byCompany.get(change.credit.companyId) ?? 0) + 1);
  await tx.insert(labelJobs).values(
    [...byCompany].map(([companyId, applied]) => ({
      companyId,
      id: jobId,
      source: request.source,
      fileName: request.fileName,
      rowsTotal: request.rows.length,
      applied,
      createdBy: actor.principal.userId,
      createdByEmail: actor.principal.email,
      createdAt: now,
    })),
  );
  const finalLabels = new Map<string, { companyId: string; labels: Set<string> }>();
  for (const { credit, label, action } of changes) {
    const entry = finalLabels.get(credit.id) ?? { companyId: credit.companyId, labels: new Set(credit.labels) };
    if (action === 'agregar') entry.labels.add(label);
    else entry.labels.delete(label);
    finalLabels.set(credit.id, entry);
  }
  for (const [creditId, { labels: current }] of finalLabels) {
    await tx
      .update(credits)
      .set({ labels: [...current].sort((left, right) => left.localeCompare(right, 'es')) })
      .where(eq(credits.id, creditId));
  }
  await tx.insert(creditLabelEvents).values(
    changes.map((change) => ({
      companyId: change.credit.companyId,
      creditId: change.credit.id,
      label: change.label,
      action: change.action,
      jobId,
      line: change.line,
      actorId: actor.principal.userId,
      actorEmail: actor.principal.email,
      occurredAt: now,
    })),
  );
  await recordAudit(tx, actor, {
    action: 'labels.update',
    entity: 'label_job',
    entityId: jobId,
    after: {
      source: request.source,
      fileName: request.fileName,
      rows: request.rows.length,
      applied: changes.length,
      credits: finalLabels.size,
    },
    occurredAt: now,
  });
  return {
    ...summary(evaluated),
    job: {
      id: jobId,
      source: request.source,
      fileName: request.fileName,
      rowsTotal: request.rows.length,
      applied: changes.length,
      createdBy: actor.principal.email,
      createdAt: now.toISOString(),
    },
  };
}
