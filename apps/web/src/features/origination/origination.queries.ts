import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  preRequestRoutes,
  requestRoutes,
  type DocumentKind,
  type PreRequest,
  type PreRequestInput,
  type RequestAction,
  type RequestInput,
  type RequestSummary,
  type RouteInput,
} from '@portal/contract';
import type { ListQuery } from '../../components/list-screen';
import { call, callList, upload } from '../../lib/api-client';

const keys = {
  catalog: ['origination', 'catalog'] as const,
  preRequests: ['pre-requests'] as const,
  list: (query: string) => ['pre-requests', 'list', query] as const,
  detail: (id: string) => ['pre-requests', 'detail', id] as const,
  requests: ['requests'] as const,
  requestList: (query: string) => ['requests', 'list', query] as const,
  request: (id: string) => ['requests', 'detail', id] as const,
};

export const useOriginationCatalog = () => useQuery({ queryKey: keys.catalog, queryFn: () => call(preRequestRoutes.catalog) });

export const myPreRequestsQuery: ListQuery<PreRequest> = (query) => ({
  queryKey: keys.list(query),
  queryFn: () => callList(preRequestRoutes.list, query),
});

export const usePreRequest = (id: string) =>
  useQuery({ queryKey: keys.detail(id), queryFn: () => call(preRequestRoutes.get, { params: { id } }), enabled: id !== '' });

function useSaving<Args>(run: (args: Args) => Promise<PreRequest>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => client.invalidateQueries({ queryKey: keys.preRequests }) });
}

export const useCreatePreRequest = () => useSaving((input: PreRequestInput) => call(preRequestRoutes.create, { body: input }));

export const useUpdatePreRequest = (id: string) =>
  useSaving((input: PreRequestInput & { version: number }) => call(preRequestRoutes.update, { params: { id }, body: input }));

export const useSendPreRequest = (id: string) =>
  useSaving((version: number) => call(preRequestRoutes.send, { params: { id }, body: { version } }));

/** The signed-in user's sent pre-requests: what "Convertir una pre-solicitud enviada" offers. */
export const useSentPreRequests = () => useQuery(myPreRequestsQuery('page=1&pageSize=100&sort=-createdAt&status=enviada'));

export const requestListQuery: ListQuery<RequestSummary> = (query) => ({
  queryKey: keys.requestList(query),
  queryFn: () => callList(requestRoutes.list, query),
});

export const useRequest = (id: string) =>
  useQuery({ queryKey: keys.request(id), queryFn: () => call(requestRoutes.get, { params: { id } }), enabled: id !== '' });

/** Every change of a request refreshes the Capturas list and the open detail; a new one also converts its pre-request. */
function useRequestChange<Args, Result>(run: (args: Args) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: keys.requests }), client.invalidateQueries({ queryKey: keys.preRequests })]),
  });
}

type Progress = (fraction: number) => void;

/** The multipart create: the capture as `data` first, then the chosen documents. */
export const useCreateRequest = () =>
  useRequestChange(({ form, onProgress }: { form: FormData; onProgress: Progress }) =>
    upload(requestRoutes.create, { body: form }, onProgress),
  );

export const useUpdateRequest = (id: string) =>
  useRequestChange((input: RequestInput & { version: number }) => call(requestRoutes.update, { params: { id }, body: input }));

export const useUploadDocument = (id: string) =>
  useRequestChange(({ kind, file, onProgress }: { kind: DocumentKind; file: File; onProgress: Progress }) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return upload(requestRoutes.putDocument, { params: { id, kind }, body: form }, onProgress);
  });

type TransitionAction = Exclude<RequestAction, 'disburse'>;

export const useRequestTransition = (id: string) =>
  useRequestChange(({ action, body }: { action: TransitionAction; body: RouteInput<(typeof requestRoutes)[TransitionAction]>['body'] }) =>
    call(requestRoutes[action] as (typeof requestRoutes)['submit'], { params: { id }, body }),
  );

export const useDisburseRequest = (id: string) =>
  useRequestChange((body: RouteInput<typeof requestRoutes.disburse>['body']) => call(requestRoutes.disburse, { params: { id }, body }));

/** A CURP's active credits a request may renew, with their payoffs at the company's fecha flujo (docs/domain.md, "Renewals"). */
export const useRenewableCredits = (curp: string) =>
  useQuery({
    queryKey: ['requests', 'renewable', curp] as const,
    queryFn: () => call(requestRoutes.renewable, { query: { curp } }),
    enabled: curp.length === 18,
  });
