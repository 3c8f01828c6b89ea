import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isRunActive, reportRunRoutes, type ReportRun, type ReportRunRequest } from '@portal/contract';
import type { ListQuery } from '../../components/list-screen';
import { call, callList } from '../../lib/api-client';
import { downloadRecordFile } from '../../lib/download';
import { useRunProgress } from '../../lib/run-progress';

export const reportRunKeys = {
  all: ['report-runs'] as const,
  runnable: ['report-runs', 'runnable'] as const,
  list: (query: string) => ['report-runs', 'list', query] as const,
};

export const isRunning = (run: Pick<ReportRun, 'status'>) => isRunActive(run.status);

/** The user's runs; while one waits or runs the page is read every second, so a progress bar survives a reload. */
export const reportRunListQuery: ListQuery<ReportRun> = (query) => ({
  queryKey: reportRunKeys.list(query),
  queryFn: () => callList(reportRunRoutes.list, query),
});

/** The definitions the user's profile may run. */
export const useRunnableReports = () => useQuery({ queryKey: reportRunKeys.runnable, queryFn: () => call(reportRunRoutes.runnable) });

/** The runs still waiting or running (the history's first page), read every second until they end. */
export function useActiveRuns() {
  const client = useQueryClient();
  const runs = useRunProgress({
    queryKey: [...reportRunKeys.all, 'active'],
    queryFn: () => call(reportRunRoutes.list, { query: { page: 1, pageSize: 10 } }),
    statuses: (page) => page.items.map((run) => run.status),
    // A run ended: the history shows its outcome and its file.
    onEnded: () => void client.invalidateQueries({ queryKey: reportRunKeys.all }),
  });
  const active = (runs.data?.items ?? []).filter(isRunning);
  return { active, error: runs.isError ? runs.error : null };
}

export function useStartReportRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ReportRunRequest) => call(reportRunRoutes.start, { body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: reportRunKeys.all }),
  });
}

export const downloadRunFile = (run: ReportRun) =>
  downloadRecordFile(reportRunRoutes.download, { id: run.id }, run.fileName ?? `reporte.${run.format}`);
