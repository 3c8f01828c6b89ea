import { z } from 'zod';

/** A settlement letter as listed (the letter screen and the credit view's Cartas tab, both through letterRoutes.list). */
export const letterSummarySchema = z.object({
  id: z.string(),
  creditId: z.string(),
  number: z.number().int(),
  reference: z.string(),
  issuedAt: z.string(),
  quoteDate: z.string(),
  validUntil: z.string(),
  totalAmount: z.string(),
  brand: z.string(),
  templateVersion: z.number().int(),
  pdfSha256: z.string(),
  issuedBy: z.string().nullable(),
});
export type LetterSummary = z.infer<typeof letterSummarySchema>;
