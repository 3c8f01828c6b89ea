import { desc, getTableColumns } from 'drizzle-orm';
import type { LetterSummary } from '@portal/contract';
import { settlementLetters } from '../../db/schema/letters';

/** A settlement letter as its lists show it (without its PDF): the letters screen and the credit view. */

export const { pdf: _pdf, payoff: _payoff, texts: _texts, ...summaryColumns } = getTableColumns(settlementLetters);
type SummaryRow = Omit<typeof settlementLetters.$inferSelect, 'pdf' | 'payoff' | 'texts'>;

export const toLetterSummary = (row: SummaryRow): LetterSummary => ({
  id: row.id,
  creditId: row.creditId,
  number: row.number,
  reference: row.reference,
  issuedAt: row.issuedAt.toISOString(),
  quoteDate: row.quoteDate,
  validUntil: row.validUntil,
  totalAmount: row.totalAmount,
  brand: row.brand,
  templateVersion: row.templateVersion,
  pdfSha256: row.pdfSha256,
  issuedBy: row.issuedByEmail,
});

export const LETTER_ORDER = [desc(settlementLetters.issuedAt), desc(settlementLetters.number)];
