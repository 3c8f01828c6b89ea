import { useQuery } from '@tanstack/react-query';
import { letterRoutes } from '@portal/contract';
import { call } from './api-client';

/**
 * A credit's settlement letters, newest first: read by the credit view's Cartas tab and by Carta de Liquidación, one
 * query under the credit's detail key, so issuing a letter (which refreshes the credit's detail) refreshes both.
 */
export const creditLettersKey = (creditId: string) => ['credits', 'detail', creditId, 'letters'] as const;

export const useCreditLetters = (creditId: string | null) =>
  useQuery({
    queryKey: creditLettersKey(creditId ?? ''),
    queryFn: () => call(letterRoutes.list, { params: { id: creditId! } }),
    enabled: creditId !== null,
  });
