import { z } from 'zod';

/** A settlement letter as listed (the credit view, the letter screen); apart from letters.ts so the credit view's schema can hold it. */
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
