import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  agreementRoutes,
  type AgreementDetail,
  type AgreementInput,
  type AgreementListItem,
  type Layout,
  type LayoutTestResult,
  type RenewalMinimum,
} from '@portal/contract';
import type { ListQuery } from '../../components/list-screen';
import type { StatusChange } from '../../components/status-columns';
import { call, callList } from '../../lib/api-client';

const keys = {
  all: ['agreements'] as const,
  list: (query: string) => ['agreements', 'list', query] as const,
  detail: (id: string) => ['agreements', 'detail', id] as const,
  renewalMinimum: ['agreements', 'renewal-minimum'] as const,
};

export const agreementListQuery: ListQuery<AgreementListItem> = (query) => ({
  queryKey: keys.list(query),
  queryFn: () => callList(agreementRoutes.list, query),
});

export function useAgreement(id: string) {
  return useQuery({ queryKey: keys.detail(id), queryFn: () => call(agreementRoutes.get, { params: { id } }) });
}

/** The company's minimum net amount of a renewal (the user's own company). */
export const useRenewalMinimum = () => useQuery({ queryKey: keys.renewalMinimum, queryFn: () => call(agreementRoutes.renewalMinimum) });

export function useSetRenewalMinimum() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RenewalMinimum) => call(agreementRoutes.setRenewalMinimum, { body }),
    onSuccess: (saved) => client.setQueryData(keys.renewalMinimum, saved),
  });
}

function useSaving<Args>(run: (args: Args) => Promise<AgreementDetail>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => client.invalidateQueries({ queryKey: keys.all }) });
}

export const useCreateAgreement = () => useSaving((input: AgreementInput) => call(agreementRoutes.create, { body: input }));

export const useUpdateAgreement = (id: string) =>
  useSaving((input: AgreementInput & { version: number }) => call(agreementRoutes.update, { params: { id }, body: input }));

export const useSetAgreementStatus = () =>
  useSaving(({ id, active, version }: StatusChange) => call(agreementRoutes.setStatus, { params: { id }, body: { active, version } }));

/** "Probar layout": the API reads the sample with the layout as it is in the form, before saving. */
export function testLayout(layout: Layout, file: File): Promise<LayoutTestResult> {
  const form = new FormData();
  form.append('layout', JSON.stringify(layout));
  form.append('file', file);
  return call(agreementRoutes.layoutTest, { body: form });
}
