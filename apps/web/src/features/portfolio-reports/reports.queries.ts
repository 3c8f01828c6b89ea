import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { reportDefinitionRoutes, type ReportDefinition, type ReportDefinitionDetail, type ReportDefinitionInput } from '@portal/contract';
import type { ListQuery } from '../../components/list-screen';
import type { StatusChange } from '../../components/status-columns';
import { call, callList } from '../../lib/api-client';

const keys = {
  all: ['report-definitions'] as const,
  list: (query: string) => ['report-definitions', 'list', query] as const,
  detail: (id: string) => ['report-definitions', 'detail', id] as const,
  profiles: ['report-definitions', 'profiles'] as const,
};

export const reportDefinitionListQuery: ListQuery<ReportDefinition> = (query) => ({
  queryKey: keys.list(query),
  queryFn: () => callList(reportDefinitionRoutes.list, query),
});

export const useReportDefinition = (id: string) =>
  useQuery({ queryKey: keys.detail(id), queryFn: () => call(reportDefinitionRoutes.get, { params: { id } }) });

/** The profiles a definition may be granted to. */
export const useReportProfiles = () =>
  useQuery({ queryKey: keys.profiles, queryFn: () => call(reportDefinitionRoutes.profiles), staleTime: 60_000 });

function useSaving<Args>(run: (args: Args) => Promise<ReportDefinitionDetail>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => client.invalidateQueries({ queryKey: keys.all }) });
}

export const useCreateReportDefinition = () =>
  useSaving((input: ReportDefinitionInput) => call(reportDefinitionRoutes.create, { body: input }));

export const useUpdateReportDefinition = (id: string) =>
  useSaving((input: ReportDefinitionInput & { version: number }) => call(reportDefinitionRoutes.update, { params: { id }, body: input }));

export const useSetReportDefinitionStatus = () =>
  useSaving(({ id, active, version }: StatusChange) =>
    call(reportDefinitionRoutes.setStatus, { params: { id }, body: { active, version } }),
  );
