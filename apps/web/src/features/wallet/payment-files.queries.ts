import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { isRunActive, paymentFileRoutes, paymentRoutes, type Payment, type PaymentFile, type ROW_GROUPS } from '@portal/contract';
import type { ListQuery } from '../../components/list-screen';
import { call, callList, upload } from '../../lib/api-client';
import { useRunProgress } from '../../lib/run-progress';
import { walletKeys } from './credits.queries';

export type RowGroup = (typeof ROW_GROUPS)[number];

export const paymentKeys = {
  lists: ['payment-files', 'list'] as const,
  list: (query: string) => ['payment-files', 'list', query] as const,
  uploadOptions: ['payment-files', 'upload-options'] as const,
  file: (id: string) => ['payment-files', 'file', id] as const,
  /** Everything read of one file's contents (rows, missing deductions): read again once it is applied or reverted. */
  contents: (id: string) => ['payment-files', 'contents', id] as const,
  rows: (id: string, group: RowGroup, page: number, pageSize: number) =>
    ['payment-files', 'contents', id, 'rows', group, page, pageSize] as const,
  missing: (id: string, page: number, pageSize: number) => ['payment-files', 'contents', id, 'missing', page, pageSize] as const,
  laterPayments: (id: string) => ['payment-files', 'contents', id, 'later-payments'] as const,
  payments: ['payments'] as const,
  paymentList: (query: string) => ['payments', 'list', query] as const,
  paymentTotals: (query: string) => ['payments', 'totals', query] as const,
};

/** An application waits in the queue or runs: the file is asked again every second so its progress bar moves. */
export const isApplying = (file: Pick<PaymentFile, 'applyState'>) => isRunActive(file.applyState);

export const paymentFileListQuery: ListQuery<PaymentFile> = (query) => ({
  queryKey: paymentKeys.list(query),
  queryFn: () => callList(paymentFileRoutes.list, query),
});

export const paymentListQuery: ListQuery<Payment> = (query) => ({
  queryKey: paymentKeys.paymentList(query),
  queryFn: () => callList(paymentRoutes.list, query),
});

/** Totals of the report's filtered set: its filters without page and sort. */
export function usePaymentTotals(query: string) {
  const params = new URLSearchParams(query);
  for (const key of ['page', 'pageSize', 'sort']) params.delete(key);
  const filters = params.toString();
  return useQuery({
    queryKey: paymentKeys.paymentTotals(filters),
    queryFn: () => callList(paymentRoutes.totals, filters),
    placeholderData: keepPreviousData,
  });
}

export const useUploadOptions = () =>
  useQuery({ queryKey: paymentKeys.uploadOptions, queryFn: () => call(paymentFileRoutes.uploadOptions) });

/**
 * One file; while its application waits or runs it is read every second, so the progress survives a reload. When the
 * application ends, what it changed (the rows' split, the lists, the payments, the credits) is read again.
 */
export function usePaymentFile(id: string) {
  const client = useQueryClient();
  return useRunProgress({
    queryKey: paymentKeys.file(id),
    queryFn: () => call(paymentFileRoutes.get, { params: { id } }),
    enabled: id !== '',
    statuses: (file) => [file.applyState],
    onEnded: (file) => fileChanged(client, file),
  });
}

export const useFileRows = (id: string, group: RowGroup, page: number, pageSize: number) =>
  useQuery({
    queryKey: paymentKeys.rows(id, group, page, pageSize),
    queryFn: () => call(paymentFileRoutes.rows, { params: { id }, query: { group, page, pageSize } }),
    placeholderData: keepPreviousData,
  });

/** The later payments that stop a revert of the file: asked when "Revertir" is chosen, before the reason is typed. */
export const useLaterPayments = (id: string) =>
  useQuery({
    queryKey: paymentKeys.laterPayments(id),
    queryFn: () => call(paymentFileRoutes.laterPayments, { params: { id } }),
    staleTime: 0,
  });

export const useMissingDeductions = (id: string, page: number, pageSize: number) =>
  useQuery({
    queryKey: paymentKeys.missing(id, page, pageSize),
    queryFn: () => call(paymentFileRoutes.missing, { params: { id }, query: { page, pageSize } }),
    placeholderData: keepPreviousData,
  });

/** What a file's change touches: the file, its rows' split, the lists, the payments and the credits it paid. */
export function fileChanged(client: QueryClient, file: PaymentFile) {
  client.setQueryData(paymentKeys.file(file.id), file);
  void client.invalidateQueries({ queryKey: paymentKeys.contents(file.id) });
  void client.invalidateQueries({ queryKey: paymentKeys.lists });
  void client.invalidateQueries({ queryKey: paymentKeys.payments });
  void client.invalidateQueries({ queryKey: walletKeys.credits });
}

export function useUploadPaymentFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      agreementId,
      discountDate,
      file,
      onProgress,
    }: {
      agreementId: string;
      discountDate: string;
      file: File;
      onProgress: (fraction: number) => void;
    }) => {
      // The API reads the parts in this order: the agreement and date first, so it knows the layout before the file.
      const form = new FormData();
      form.append('agreementId', agreementId);
      form.append('discountDate', discountDate);
      form.append('file', file);
      return upload(paymentFileRoutes.upload, { body: form }, onProgress);
    },
    onSuccess: (file) => fileChanged(client, file),
  });
}

export function useApplyPaymentFile(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(paymentFileRoutes.apply, { params: { id } }),
    onSuccess: (file) => fileChanged(client, file),
  });
}

export function useRejectPaymentFile(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => call(paymentFileRoutes.reject, { params: { id }, body: { reason } }),
    onSuccess: (file) => fileChanged(client, file),
  });
}

/** Reverts the file; refused (a file applied on its credits meanwhile), what stops it is asked again. */
export function useRevertPaymentFile(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => call(paymentFileRoutes.revert, { params: { id }, body: { reason } }),
    onSuccess: (file) => fileChanged(client, file),
    onError: () => client.invalidateQueries({ queryKey: paymentKeys.laterPayments(id) }),
  });
}
