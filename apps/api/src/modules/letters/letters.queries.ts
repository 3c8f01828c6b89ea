import { asc, count, desc, eq, getTableColumns } from 'drizzle-orm';
import type { LetterSummary, LetterTemplateBrand } from '@portal/contract';
import type { Tx } from '../../db/client';
import { credits } from '../../db/schema/credits';
import { letterTemplates, settlementLetters } from '../../db/schema/letters';
import { companies } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { LETTER_ORDER, summaryColumns, toLetterSummary } from '../shared/letter-summary';

/** The letter screen's and the credit view's reads: a credit's letters, one letter's PDF, the brands' templates. */

/** A credit's letters, newest first (without their PDFs); 404 for a credit the user may not see, not an empty list. */
export async function creditLetters(tx: Tx, creditId: string): Promise<LetterSummary[]> {
  const [credit] = await tx.select({ id: credits.id }).from(credits).where(eq(credits.id, creditId));
  if (!credit) throw new HttpProblem(404, 'Crédito no encontrado', 'El crédito no existe.');
  const rows = await tx
    .select(summaryColumns)
    .from(settlementLetters)
    .where(eq(settlementLetters.creditId, creditId))
    .orderBy(...LETTER_ORDER);
  return rows.map(toLetterSummary);
}

/** A letter's stored PDF and the name it downloads as; 404 when it is not the user's to see. */
export async function letterPdf(tx: Tx, id: string): Promise<{ fileName: string; pdf: Buffer }> {
  const [row] = await tx
    .select({ pdf: settlementLetters.pdf, texts: settlementLetters.texts, number: settlementLetters.number })
    .from(settlementLetters)
    .where(eq(settlementLetters.id, id));
  if (!row) throw new HttpProblem(404, 'Carta no encontrada', 'La carta de liquidación no existe.');
  return { fileName: `carta-liquidacion-${row.texts.idPestamo}-${row.number}.pdf`, pdf: row.pdf };
}

/** The brands the scope sees (its company; every company for SA), each with its template versions, newest first. */
export async function letterTemplateBrands(tx: Tx, companyId?: string): Promise<LetterTemplateBrand[]> {
  const { background: _background, ...templateColumns } = getTableColumns(letterTemplates);
  const brands = await tx
    .select({ id: companies.id, name: companies.name, validityDays: companies.letterValidityDays })
    .from(companies)
    .where(companyId ? eq(companies.id, companyId) : undefined)
    .orderBy(asc(companies.name));
  const versions = await tx
    .select({ ...templateColumns, letters: count(settlementLetters.id) })
    .from(letterTemplates)
    .leftJoin(settlementLetters, eq(settlementLetters.templateId, letterTemplates.id))
    .where(companyId ? eq(letterTemplates.companyId, companyId) : undefined)
    .groupBy(letterTemplates.id)
    .orderBy(desc(letterTemplates.version));
  return brands.map((brand) => ({
    companyId: brand.id,
    company: brand.name,
    validityBusinessDays: brand.validityDays,
    versions: versions
      .filter((version) => version.companyId === brand.id)
      .map((version) => ({
        id: version.id,
        version: version.version,
        fileName: version.fileName,
        size: version.size,
        sha256: version.sha256,
        pageWidth: version.pageWidth,
        pageHeight: version.pageHeight,
        layout: version.layout,
        uploadedBy: version.uploadedByEmail,
        uploadedAt: version.uploadedAt.toISOString(),
        letters: version.letters,
      })),
  }));
}

/** The company's newest template version (what a new letter uses), with its background; null when it has none. */
export async function currentTemplate(tx: Tx, companyId: string) {
  // Not the uploaded file (up to 5 MB, kept as evidence): a letter needs only its canvas, and on PGlite every byte
  // read is decoded on the event loop.
  const { background: _uploaded, ...drawn } = getTableColumns(letterTemplates);
  const [row] = await tx
    .select(drawn)
    .from(letterTemplates)
    .where(eq(letterTemplates.companyId, companyId))
    .orderBy(desc(letterTemplates.version))
    .limit(1);
  return row ?? null;
}
