import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  paymentOrderRoutes,
  refundRoutes,
  type DecideRefundBody,
  type PaymentBatch,
  type PaymentLineResultInput,
  type RefundCandidate,
  type Refund,
  type RequestRefundBody,
} from '@portal/contract';
import type { ListQuery } from '../../components/list-screen';
import { call, callList } from '../../lib/api-client';

export const treasuryKeys = {
  all: ['treasury'] as const,
  batches: (query: string) => ['treasury', 'batches', query] as const,
  pending: (page: number, pageSize: number) => ['treasury', 'orders', 'por enviar', page, pageSize] as const,
  batch: (id: string) => ['treasury', 'batch', id] as const,
  lines: (id: string) => ['treasury', 'lines', id] as const,
  candidates: (query: string) => ['treasury', 'candidates', query] as const,
  refunds: (page: number, pageSize: number) => ['treasury', 'refunds', page, pageSize] as const,
};

export const paymentBatchListQuery: ListQuery<PaymentBatch> = (query) => ({
  queryKey: treasuryKeys.batches(query),
  queryFn: () => callList(paymentOrderRoutes.batches, query),
});

export const usePendingOrders = (page: number, pageSize: number) =>
  useQuery({
    queryKey: treasuryKeys.pending(page, pageSize),
    queryFn: () => call(paymentOrderRoutes.orders, { query: { status: 'por enviar', page, pageSize } }),
    placeholderData: keepPreviousData,
  });

export const usePaymentBatch = (id: string) =>
  useQuery({ queryKey: treasuryKeys.batch(id), queryFn: () => call(paymentOrderRoutes.batch, { params: { id } }), enabled: id !== '' });

export const useBatchLines = (id: string) =>
  useQuery({ queryKey: treasuryKeys.lines(id), queryFn: () => call(paymentOrderRoutes.lines, { params: { id } }), enabled: id !== '' });

export const refundCandidateListQuery: ListQuery<RefundCandidate> = (query) => ({
  queryKey: treasuryKeys.candidates(query),
  queryFn: () => callList(refundRoutes.candidates, query),
});

export const useRefunds = (page: number, pageSize: number) =>
  useQuery({
    queryKey: treasuryKeys.refunds(page, pageSize),
    queryFn: () => call(refundRoutes.list, { query: { page, pageSize } }),
    placeholderData: keepPreviousData,
  });

/** Every write changes orders, batches, refunds and saldos a favor: all of Tesorería is read again. */
function useTreasuryMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => client.invalidateQueries({ queryKey: treasuryKeys.all }) });
}

export const useGenerateBatch = () =>
  useTreasuryMutation((sourceAccount: string) => call(paymentOrderRoutes.generate, { body: { sourceAccount } }));
export const useAuthorizeBatch = () => useTreasuryMutation((id: string) => call(paymentOrderRoutes.authorize, { params: { id } }));
export const useRecordResults = () =>
  useTreasuryMutation(({ id, lines, answer }: { id: string; lines?: PaymentLineResultInput[]; answer?: string }) =>
    call(paymentOrderRoutes.results, { params: { id }, body: { ...(lines ? { lines } : {}), ...(answer ? { answer } : {}) } }),
  );
export const useRequestRefund = () => useTreasuryMutation((body: RequestRefundBody) => call(refundRoutes.request, { body }));
export const useDecideRefund = () =>
  useTreasuryMutation(({ id, body }: { id: string; body: DecideRefundBody }): Promise<Refund> =>
    call(refundRoutes.decide, { params: { id }, body }),
  );
