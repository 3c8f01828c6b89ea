import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AgreementDetail, AgreementInput, AgreementListItem, Layout, LayoutTestResult } from '@portal/contract';
import type { ListQuery } from '../../components/list-screen';
import { apiFetch, apiJson, jsonBody } from '../../lib/api';

const keys = {
  all: ['agreements'] as const,
  list: (query: string) => ['agreements', 'list', query] as const,
  detail: (id: string) => ['agreements', 'detail', id] as const,
};

export const agreementListQuery: ListQuery<AgreementListItem> = (query) => ({
  queryKey: keys.list(query),
  queryFn: () => apiJson<{ items: AgreementListItem[]; total: number }>(`/api/agreements?${query}`),
});

export function useAgreement(id: string) {
  return useQuery({ queryKey: keys.detail(id), queryFn: () => apiJson<AgreementDetail>(`/api/agreements/${id}`) });
}

function useSaving<Args>(run: (args: Args) => Promise<AgreementDetail>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => client.invalidateQueries({ queryKey: keys.all }) });
}

export const useCreateAgreement = () => useSaving((input: AgreementInput) => apiJson<AgreementDetail>('/api/agreements', jsonBody('POST', input)));

export const useUpdateAgreement = (id: string) =>
  useSaving((input: AgreementInput & { version: number }) => apiJson<AgreementDetail>(`/api/agreements/${id}`, jsonBody('PUT', input)));

export const useSetAgreementStatus = () =>
  useSaving(({ id, active, version }: { id: string; active: boolean; version: number }) =>
    apiJson<AgreementDetail>(`/api/agreements/${id}/status`, jsonBody('POST', { active, version })),
  );

/** "Probar layout": the API reads the sample with the layout as it is in the form, before saving. */
export async function testLayout(layout: Layout, file: File): Promise<LayoutTestResult> {
  const form = new FormData();
  form.append('layout', JSON.stringify(layout));
  form.append('file', file);
  const response = await apiFetch('/api/agreements/layout-test', { method: 'POST', body: form });
  return (await response.json()) as LayoutTestResult;
}
