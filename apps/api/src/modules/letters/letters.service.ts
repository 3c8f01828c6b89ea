import { createHash } from 'node:crypto';
import { desc, eq, isNull, max, sql } from 'drizzle-orm';
import { addBusinessDays, addDays, paymentReference } from '@portal/lending';
import {
  DATE_MAX,
  type Letter,
  type LetterLayout,
  type LetterPayoff,
  type LetterQuote,
  type LetterTemplateBrand,
  type LetterTexts,
} from '@portal/contract';
import type { Db, Tx } from '../../db/client';
import { asSystem } from '../../db/scope';
import { agreements } from '../../db/schema/agreements';
import { clients } from '../../db/schema/origination';
import { credits } from '../../db/schema/credits';
import { letterTemplates, settlementLetters } from '../../db/schema/letters';
import { companies } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { recordAudit, type Actor } from '../audit/audit';
import { businessDateOf } from '../shared/business-date';
import { creditFolio } from '../shared/folios';
import { loadCreditRows } from '../portfolio/stored-credit';
import { creditPayoff } from '../portfolio/payoff';
import { checkTemplate, renderLetter, TemplateError } from './letter-pdf';
import { letterTexts } from './letter-texts';
import { normalizeBackground } from './letter-template-worker';
import { longDate, pesos } from '../shared/es-mx';
import { currentTemplate, letterTemplateBrands } from './letters.queries';
import { toLetterSummary } from '../shared/letter-summary';

/**
 * Carta de Liquidación Anticipada: the payoff of a credit at a validity date (DOMAIN 3, through the credits' payoff),
 * printed on the company's newest template, stored with everything it printed, and the templates' versions.
 */

/** The longest validity a letter may have: past it, the payroll's deductions and charges are too far to foresee. */
export const MAX_VALIDITY_DAYS = 60;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * An uploaded background goes to the database in pieces of this many bytes: the driver copies a bound parameter whole,
 * in one turn of the event loop, and a 2.4 MB background in one piece held the loop 100–170 ms on a contended machine
 * (issue 44's budget is 100 ms; docs/measurements.md, stop 70).
 */
export const BACKGROUND_PIECE_BYTES = 256 * 1024;

/** The credit, its company's setting and the payoff at the validity date (default: the company's business days). */
export async function letterQuote(tx: Tx, creditId: string, today: string, validUntil?: string): Promise<LetterQuote> {
  const { credit, client, agreement, company } = await loadCreditRows(tx, creditId);
  const [settings] = await tx
    .select({ validityDays: companies.letterValidityDays })
    .from(companies)
    .where(eq(companies.id, credit.companyId));
  const businessDate = await businessDateOf(tx, credit.companyId, today);
  const validityBusinessDays = settings?.validityDays ?? 5;
  const defaultValidUntil = addBusinessDays(businessDate, validityBusinessDays);
  const until = validUntil ?? defaultValidUntil;
  // Compared as ISO dates: counting the days to a date centuries away would leave the lending calendar's range.
  if (until > addDays(businessDate, MAX_VALIDITY_DAYS)) {
    throw new HttpProblem(
      400,
      'Vigencia no válida',
      `La vigencia de la carta puede ser de hasta ${MAX_VALIDITY_DAYS} días después de la fecha flujo (${businessDate}).`,
      [{ field: 'validUntil', message: `Elige una fecha hasta ${MAX_VALIDITY_DAYS} días después de la fecha flujo.` }],
    );
  }
  const payoff: LetterPayoff = await creditPayoff(tx, creditId, async () => businessDate, { date: businessDate, validUntil: until });
  const template = await currentTemplate(tx, credit.companyId);
  return {
    creditId: credit.id,
    folio: creditFolio(credit.number),
    clientName: [client.firstNames, client.lastName1, client.lastName2].filter(Boolean).join(' '),
    curp: client.curp,
    agreement,
    companyId: credit.companyId,
    company,
    status: credit.status,
    businessDate,
    validityBusinessDays,
    defaultValidUntil,
    payoff,
    template: template ? { id: template.id, version: template.version } : null,
  };
}

/**
 * "Generar carta": quotes the credit at the validity date, numbers the letter (the credit row is locked, so two at once
 * get 1 and 2), renders the PDF on the company's newest template and stores it with its fields, amounts, SHA-256, who
 * and when, and the audit event, in the request's transaction.
 */
export async function issueLetter(tx: Tx, actor: Actor, creditId: string, today: string, now: Date, validUntil?: string): Promise<Letter> {
  const [locked] = await tx.select({ id: credits.id, number: credits.number }).from(credits).where(eq(credits.id, creditId)).for('update');
  if (!locked) throw new HttpProblem(404, 'Crédito no encontrado', 'El crédito no existe.');
  const quote = await letterQuote(tx, creditId, today, validUntil);
  if (quote.status === 'liquidado' || quote.payoff.totalAmount === '0.00') {
    throw new HttpProblem(
      409,
      'Nada que liquidar',
      `El crédito ${quote.folio} no tiene saldo por liquidar a la vigencia elegida: no se emite carta.`,
    );
  }
  const template = await currentTemplate(tx, quote.companyId);
  if (!template)
    throw new HttpProblem(409, 'Sin plantilla', `${quote.company} no tiene plantilla de carta: un administrador debe subir una.`);

  const [last] = await tx
    .select({ number: max(settlementLetters.number) })
    .from(settlementLetters)
    .where(eq(settlementLetters.creditId, creditId));
  const number = (last?.number ?? 0) + 1;
  const reference = paymentReference(locked.number, number);
  const texts = letterTexts(
    { folio: quote.folio, clientName: quote.clientName, agreement: quote.agreement, reference, issuedAt: now },
    quote.payoff,
  );
  // Drawn on the normalized first page only: the uploaded file is never parsed again (issue 44).
  if (!template.canvas)
    throw new HttpProblem(
      409,
      'Plantilla sin preparar',
      `La plantilla vigente de ${quote.company} no se pudo preparar para imprimir: un administrador debe subir una versión nueva.`,
    );
  const pdf = await renderLetter({
    background: template.canvas,
    layout: template.layout,
    texts,
    issuedAt: now,
    title: `Carta de liquidación anticipada ${quote.folio}`,
  });
  const pdfSha256 = sha256(pdf);
  const { payoff } = quote;
  const [stored] = await tx
    .insert(settlementLetters)
    .values({
      companyId: quote.companyId,
      creditId,
      number,
      reference,
      templateId: template.id,
      templateVersion: template.version,
      brand: quote.company,
      quoteDate: payoff.quoteDate,
      validUntil: payoff.validUntil,
      discountDate: payoff.discountDate,
      creditAmount: payoff.creditAmount,
      term: payoff.term,
      paymentsMade: payoff.paymentsMade,
      installment: payoff.installment,
      inTransit: payoff.inTransit,
      finalBalance: payoff.finalBalance,
      pendingDeduction: payoff.pendingDeduction,
      totalAmount: payoff.totalAmount,
      payoff,
      texts,
      pdf,
      pdfSize: pdf.length,
      pdfSha256,
      issuedBy: actor.principal.userId,
      issuedByEmail: actor.principal.email,
      issuedAt: now,
    })
    .returning();
  const letter = stored!;
  await recordAudit(tx, actor, {
    action: 'letter.issue',
    entity: 'credit',
    entityId: creditId,
    after: {
      letterId: letter.id,
      reference,
      validUntil: payoff.validUntil,
      totalAmount: payoff.totalAmount,
      template: template.version,
      pdfSha256,
    },
    occurredAt: now,
  });
  return { ...toLetterSummary(letter), folio: quote.folio, texts, payoff, pdfSize: letter.pdfSize };
}

/**
 * "Subir versión": checks the background and the layout (every problem reported, 400) and stores them as the brand's
 * next version. The brand is read through the request's scope, so another company's is simply not found.
 */
export async function uploadTemplate(
  tx: Tx,
  actor: Actor,
  now: Date,
  input: { companyId: string; fileName: string; background: Buffer; layoutText: string },
): Promise<LetterTemplateBrand> {
  const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, input.companyId));
  if (!company) throw new HttpProblem(404, 'Marca no encontrada', 'La empresa no existe o no es la tuya.');
  let checked: { pageWidth: number; pageHeight: number; layout: LetterLayout; canvas: Buffer };
  try {
    checked = await checkTemplate(input.background, input.layoutText, await widestTexts(tx, company.id));
  } catch (error) {
    if (error instanceof TemplateError)
      throw new HttpProblem(400, 'Plantilla no válida', error.errors.map((e) => e.message).join(' '), error.errors);
    throw error;
  }
  const [last] = await tx
    .select({ version: max(letterTemplates.version) })
    .from(letterTemplates)
    .where(eq(letterTemplates.companyId, company.id));
  const version = (last?.version ?? 0) + 1;
  const digest = sha256(input.background);
  const pieces: Buffer[] = [];
  for (let start = 0; start < input.background.length; start += BACKGROUND_PIECE_BYTES)
    pieces.push(input.background.subarray(start, start + BACKGROUND_PIECE_BYTES));
  const [created] = await tx
    .insert(letterTemplates)
    .values({
      companyId: company.id,
      version,
      fileName: input.fileName,
      background: pieces[0]!,
      canvas: checked.canvas,
      size: input.background.length,
      sha256: digest,
      pageWidth: checked.pageWidth,
      pageHeight: checked.pageHeight,
      layout: checked.layout,
      uploadedBy: actor.principal.userId,
      uploadedByEmail: actor.principal.email,
      uploadedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: letterTemplates.id });
  if (!created)
    throw new HttpProblem(
      409,
      'Versión en conflicto',
      'Otra persona subió una versión de esta plantilla al mismo tiempo: vuelve a intentarlo.',
    );
  for (const piece of pieces.slice(1))
    await tx
      .update(letterTemplates)
      .set({ background: sql`${letterTemplates.background} || ${piece}::bytea` })
      .where(eq(letterTemplates.id, created.id));
  await recordAudit(tx, actor, {
    action: 'letter-template.upload',
    entity: 'letter_template',
    entityId: created.id,
    after: { companyId: company.id, version, fileName: input.fileName, sha256: digest },
    occurredAt: now,
  });
  const [brand] = await letterTemplateBrands(tx, company.id);
  return brand!;
}

/**
 * Each field's longest value for the brand, which the layout must keep inside the page (issue 44): its clients' longest
 * names and its agreements' names from the data; the dates the portal can print (up to 2100, the contract's range) in
 * every month; amounts up to $99,999,999.99; folios and references at their longest. The longest by characters stands
 * for each field; checkTemplate measures it with the font's metrics.
 */
export async function widestTexts(tx: Tx, companyId: string): Promise<LetterTexts> {
  const fullName = sql<string>`concat_ws(' ', ${clients.firstNames}, ${clients.lastName1}, ${clients.lastName2})`;
  const names = await tx
    .select({ name: fullName })
    .from(clients)
    .where(eq(clients.companyId, companyId))
    .orderBy(desc(sql`length(${fullName})`))
    .limit(20);
  const agreementNames = await tx.select({ name: agreements.name }).from(agreements).where(eq(agreements.companyId, companyId));
  const year = DATE_MAX.slice(0, 4);
  const dates = Array.from({ length: 12 }, (_, month) => longDate(`${year}-${String(month + 1).padStart(2, '0')}-28`));
  const money = pesos('99999999.99');
  const longest = (texts: string[], fallback: string) => texts.reduce((a, b) => (b.length > a.length ? b : a), fallback);
  const date = longest(dates, '');
  return {
    createdDate: date,
    createdHour: '23:59 h',
    idPestamo: creditFolio(99_999_999),
    cliente: longest(
      names.map((row) => row.name),
      'Nombre del cliente',
    ),
    convenio: longest(
      agreementNames.map((row) => row.name),
      'Convenio',
    ),
    montoCredito: money,
    plazo: '999 pagos',
    pagos: '999 de 999',
    descuento: money,
    transito: money,
    saldoFinal: money,
    vigencia: date,
    fechaDescuento: `${date} (${money})`,
    referencia: paymentReference(99_999_999, 99),
    montoTotal: money,
  };
}

/**
 * Templates stored before backgrounds were normalized (issue 44) get their canvas at start, each in the worker under
 * the same budget as an upload. One the budget refuses keeps no canvas: its letters are refused with a clear message
 * until an administrator uploads a new version, never drawn on the hostile file.
 */
export async function normalizeStoredTemplates(
  db: Db,
  log: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void },
) {
  const pending = await asSystem(db, (tx) =>
    tx.select({ id: letterTemplates.id }).from(letterTemplates).where(isNull(letterTemplates.canvas)),
  );
  for (const { id } of pending) {
    const [row] = await asSystem(db, (tx) =>
      tx.select({ background: letterTemplates.background }).from(letterTemplates).where(eq(letterTemplates.id, id)),
    );
    if (!row) continue;
    const read = await normalizeBackground(row.background);
    if ('refused' in read) {
      log.warn({ templateId: id, reason: read.refused }, 'letter template background refused by the normalization budget');
      continue;
    }
    await asSystem(db, (tx) => tx.update(letterTemplates).set({ canvas: read.canvas }).where(eq(letterTemplates.id, id)));
    log.info({ templateId: id }, 'letter template background normalized');
  }
}
