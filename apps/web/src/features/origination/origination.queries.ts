import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  DocumentKind,
  OriginationCatalog,
  PreRequest,
  PreRequestInput,
  Request as LoanRequest,
  RequestAction,
  RequestInput,
  RequestSummary,
  disbursementResultSchema,
  requestActionBodySchemas,
} from '@portal/contract';
import type { ListQuery } from '../../components/list-screen';
import { apiJson, jsonBody } from '../../lib/api';
import { uploadWithProgress } from '../../lib/upload';

const keys = {
  catalog: ['origination', 'catalog'] as const,
  preRequests: ['pre-requests'] as const,
  list: (query: string) => ['pre-requests', 'list', query] as const,
  detail: (id: string) => ['pre-requests', 'detail', id] as const,
  requests: ['requests'] as const,
  requestList: (query: string) => ['requests', 'list', query] as const,
  request: (id: string) => ['requests', 'detail', id] as const,
};

export const useOriginationCatalog = () => useQuery({ queryKey: keys.catalog, queryFn: () => apiJson<OriginationCatalog>('/api/pre-requests/catalog') });

export const myPreRequestsQuery: ListQuery<PreRequest> = (query) => ({
  queryKey: keys.list(query),
  queryFn: () => apiJson<{ items: PreRequest[]; total: number }>(`/api/pre-requests?${query}`),
});

export const usePreRequest = (id: string) =>
  useQuery({ queryKey: keys.detail(id), queryFn: () => apiJson<PreRequest>(`/api/pre-requests/${id}`), enabled: id !== '' });

function useSaving<Args>(run: (args: Args) => Promise<PreRequest>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => client.invalidateQueries({ queryKey: keys.preRequests }) });
}

export const useCreatePreRequest = () => useSaving((input: PreRequestInput) => apiJson<PreRequest>('/api/pre-requests', jsonBody('POST', input)));

export const useUpdatePreRequest = (id: string) =>
  useSaving((input: PreRequestInput & { version: number }) => apiJson<PreRequest>(`/api/pre-requests/${id}`, jsonBody('PUT', input)));

export const useSendPreRequest = (id: string) => useSaving((version: number) => apiJson<PreRequest>(`/api/pre-requests/${id}/send`, jsonBody('POST', { version })));

/** The signed-in user's sent pre-requests: what "Convertir una pre-solicitud enviada" offers. */
export const useSentPreRequests = () => useQuery(myPreRequestsQuery('page=1&pageSize=100&sort=-createdAt&status=enviada'));

export const requestListQuery: ListQuery<RequestSummary> = (query) => ({
  queryKey: keys.requestList(query),
  queryFn: () => apiJson<{ items: RequestSummary[]; total: number }>(`/api/requests?${query}`),
});

export const useRequest = (id: string) =>
  useQuery({ queryKey: keys.request(id), queryFn: () => apiJson<LoanRequest>(`/api/requests/${id}`), enabled: id !== '' });

/** Every change of a request refreshes the Capturas list and the open detail; a new one also converts its pre-request. */
function useRequestChange<Args, Result>(run: (args: Args) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: keys.requests }), client.invalidateQueries({ queryKey: keys.preRequests })]),
  });
}

type Progress = (fraction: number) => void;

/** The multipart `POST /api/requests`: the capture as `data` first, then the chosen documents. */
export const useCreateRequest = () =>
  useRequestChange(({ form, onProgress }: { form: FormData; onProgress: Progress }) => uploadWithProgress<LoanRequest>('/api/requests', form, { onProgress }));

export const useUpdateRequest = (id: string) =>
  useRequestChange((input: RequestInput & { version: number }) => apiJson<LoanRequest>(`/api/requests/${id}`, jsonBody('PUT', input)));

export const useUploadDocument = (id: string) =>
  useRequestChange(({ kind, file, onProgress }: { kind: DocumentKind; file: File; onProgress: Progress }) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return uploadWithProgress<LoanRequest>(`/api/requests/${id}/documents/${kind}`, form, { method: 'PUT', onProgress });
  });

type TransitionAction = Exclude<RequestAction, 'disburse'>;

export const useRequestTransition = (id: string) =>
  useRequestChange(({ action, body }: { action: TransitionAction; body: z.input<(typeof requestActionBodySchemas)[TransitionAction]> }) =>
    apiJson<LoanRequest>(`/api/requests/${id}/${action}`, jsonBody('POST', body)),
  );

type DisbursementResult = z.infer<typeof disbursementResultSchema>;

export const useDisburseRequest = (id: string) =>
  useRequestChange((body: z.input<(typeof requestActionBodySchemas)['disburse']>) =>
    apiJson<DisbursementResult>(`/api/requests/${id}/disburse`, jsonBody('POST', body)),
  );
