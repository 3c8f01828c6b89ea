import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deductionOrderRoutes, type DeductionOrder, type DEDUCTION_LINE_GROUPS, type SendDeductionOrderBody } from '@portal/contract';
import type { ListQuery } from '../../components/list-screen';
import { call, callList } from '../../lib/api-client';

export type LineGroup = (typeof DEDUCTION_LINE_GROUPS)[number];

export const deductionOrderKeys = {
  all: ['deduction-orders'] as const,
  list: (query: string) => ['deduction-orders', 'list', query] as const,
  options: ['deduction-orders', 'options'] as const,
  order: (id: string) => ['deduction-orders', 'order', id] as const,
  lines: (id: string, group: LineGroup, page: number, pageSize: number) =>
    ['deduction-orders', 'lines', id, group, page, pageSize] as const,
  differences: (id: string) => ['deduction-orders', 'differences', id] as const,
};

export const deductionOrderListQuery: ListQuery<DeductionOrder> = (query) => ({
  queryKey: deductionOrderKeys.list(query),
  queryFn: () => callList(deductionOrderRoutes.list, query),
});

export const useDeductionOrderOptions = () =>
  useQuery({ queryKey: deductionOrderKeys.options, queryFn: () => call(deductionOrderRoutes.options) });

export const useDeductionOrder = (id: string) =>
  useQuery({
    queryKey: deductionOrderKeys.order(id),
    queryFn: () => call(deductionOrderRoutes.get, { params: { id } }),
    enabled: id !== '',
  });

export const useDeductionOrderLines = (id: string, group: LineGroup, page: number, pageSize: number) =>
  useQuery({
    queryKey: deductionOrderKeys.lines(id, group, page, pageSize),
    queryFn: () => call(deductionOrderRoutes.lines, { params: { id }, query: { group, page, pageSize } }),
    placeholderData: keepPreviousData,
  });

export const useDeductionOrderDifferences = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: deductionOrderKeys.differences(id),
    queryFn: () => call(deductionOrderRoutes.differences, { params: { id } }),
    enabled,
  });

/** Every write changes the lists, the options (the next payday) and the cédula itself: all are read again. */
function useOrderMutation<Input>(run: (input: Input) => Promise<DeductionOrder>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => client.invalidateQueries({ queryKey: deductionOrderKeys.all }),
  });
}

export const useGenerateDeductionOrder = () =>
  useOrderMutation((agreementId: string) => call(deductionOrderRoutes.generate, { body: { agreementId } }));
export const useIssueDeductionOrder = () => useOrderMutation((id: string) => call(deductionOrderRoutes.issue, { params: { id } }));
export const useSubstituteDeductionOrder = () =>
  useOrderMutation((id: string) => call(deductionOrderRoutes.substitute, { params: { id } }));
export const useSendDeductionOrder = () =>
  useOrderMutation(({ id, body }: { id: string; body: SendDeductionOrderBody }) =>
    call(deductionOrderRoutes.send, { params: { id }, body }),
  );
