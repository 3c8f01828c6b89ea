import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { creditRoutes, letterRoutes } from '@portal/contract';
import { call, upload } from '../../lib/api-client';

/** Créditos → Carta de Liquidación Anticipada: the search, the quote, issuing, the templates (a credit's letters: lib/credit-letters.ts). */

export const letterKeys = {
  search: (q: string) => ['settlement-letter', 'search', q] as const,
  quote: (creditId: string, validUntil: string) => ['settlement-letter', 'quote', creditId, validUntil] as const,
  pdf: (letterId: string) => ['settlement-letter', 'pdf', letterId] as const,
  templates: ['settlement-letter', 'templates'] as const,
};

/** The credits list's search (folio, CURP, RFC, name), the first ten. */
export const useCreditSearch = (q: string) =>
  useQuery({
    queryKey: letterKeys.search(q),
    queryFn: () => call(creditRoutes.list, { query: { q, pageSize: 10 } }),
    enabled: q.trim().length > 0,
  });

/** The quote at `validUntil`, or at the company's default validity while none is chosen (''). */
export const useLetterQuote = (creditId: string | null, validUntil: string) =>
  useQuery({
    queryKey: letterKeys.quote(creditId ?? '', validUntil),
    queryFn: () => call(letterRoutes.quote, { params: { id: creditId! }, query: validUntil ? { validUntil } : {} }),
    enabled: creditId !== null,
  });

/** A letter's stored PDF, as the blob the preview shows. */
export const useLetterPdf = (letterId: string | null) =>
  useQuery({
    queryKey: letterKeys.pdf(letterId ?? ''),
    queryFn: () => call(letterRoutes.pdf, { params: { id: letterId! } }),
    enabled: letterId !== null,
    staleTime: Infinity,
  });

export function useIssueLetter(creditId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (validUntil: string) => call(letterRoutes.issue, { params: { id: creditId }, body: validUntil ? { validUntil } : {} }),
    // The credit's detail key holds its view and its letters (lib/credit-letters.ts): both are read again.
    onSettled: () => client.invalidateQueries({ queryKey: ['credits', 'detail', creditId] }),
  });
}

export const useLetterTemplates = (enabled: boolean) =>
  useQuery({ queryKey: letterKeys.templates, queryFn: () => call(letterRoutes.templates), enabled });

export function useUploadTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { companyId: string; background: File; layout: File }) => {
      const body = new FormData();
      body.append('companyId', input.companyId);
      body.append('background', input.background);
      body.append('layout', input.layout);
      return upload(letterRoutes.uploadTemplate, { body });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['settlement-letter'] }),
  });
}
