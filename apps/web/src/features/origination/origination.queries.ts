import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OriginationCatalog, PreRequest, PreRequestInput } from '@portal/contract';
import { apiJson, jsonBody } from '../../lib/api';

const keys = {
  catalog: ['origination', 'catalog'] as const,
  preRequests: ['pre-requests'] as const,
  list: (query: string) => ['pre-requests', 'list', query] as const,
  detail: (id: string) => ['pre-requests', 'detail', id] as const,
};

export const useOriginationCatalog = () => useQuery({ queryKey: keys.catalog, queryFn: () => apiJson<OriginationCatalog>('/api/pre-requests/catalog') });

export const useMyPreRequests = (query: string) =>
  useQuery({
    queryKey: keys.list(query),
    queryFn: () => apiJson<{ items: PreRequest[]; total: number }>(`/api/pre-requests?${query}`),
    placeholderData: keepPreviousData,
  });

export const usePreRequest = (id: string) => useQuery({ queryKey: keys.detail(id), queryFn: () => apiJson<PreRequest>(`/api/pre-requests/${id}`) });

function useSaving<Args>(run: (args: Args) => Promise<PreRequest>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => client.invalidateQueries({ queryKey: keys.preRequests }) });
}

export const useCreatePreRequest = () => useSaving((input: PreRequestInput) => apiJson<PreRequest>('/api/pre-requests', jsonBody('POST', input)));

export const useUpdatePreRequest = (id: string) =>
  useSaving((input: PreRequestInput & { version: number }) => apiJson<PreRequest>(`/api/pre-requests/${id}`, jsonBody('PUT', input)));

export const useSendPreRequest = (id: string) => useSaving((version: number) => apiJson<PreRequest>(`/api/pre-requests/${id}/send`, jsonBody('POST', { version })));
