import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { creditRoutes, businessDateRoutes, type DayClose } from '@portal/contract';
import type { ListQuery } from '../../components/list-screen';
import { call, callList } from '../../lib/api-client';
import { creditListKeys } from '../../lib/credit-list';
import { useRunProgress } from '../../lib/run-progress';

export const walletKeys = {
  credits: creditListKeys.all,
  totals: (query: string) => ['credits', 'totals', query] as const,
  detail: (id: string) => ['credits', 'detail', id] as const,
  /** A part of the credit view that one of its tabs reads by its own route. */
  part: (id: string, part: 'installments' | 'payments' | 'deductions' | 'history') => ['credits', 'detail', id, part] as const,
  payoff: (id: string, date: string) => ['credits', 'payoff', id, date] as const,
  businessDates: ['business-dates'] as const,
  dayClosesAll: ['day-closes'] as const,
  dayCloses: (query: string) => ['day-closes', query] as const,
};

export const useCredit = (id: string) =>
  useQuery({ queryKey: walletKeys.detail(id), queryFn: () => call(creditRoutes.get, { params: { id } }) });

/** Calendario de pagos: the schedule at the fecha flujo. */
export const useCreditInstallments = (id: string) =>
  useQuery({ queryKey: walletKeys.part(id, 'installments'), queryFn: () => call(creditRoutes.installments, { params: { id } }) });

/** Pagos: the payments with their allocation. */
export const useCreditPayments = (id: string) =>
  useQuery({ queryKey: walletKeys.part(id, 'payments'), queryFn: () => call(creditRoutes.payments, { params: { id } }) });

/** Descuentos: the expected payroll deductions. */
export const useCreditDeductions = (id: string) =>
  useQuery({ queryKey: walletKeys.part(id, 'deductions'), queryFn: () => call(creditRoutes.deductions, { params: { id } }) });

/** Etiquetas and Historial: the label changes and the audit events. */
export const useCreditHistory = (id: string) =>
  useQuery({ queryKey: walletKeys.part(id, 'history'), queryFn: () => call(creditRoutes.history, { params: { id } }) });

export const usePayoff = (id: string, date: string) =>
  useQuery({
    queryKey: walletKeys.payoff(id, date),
    queryFn: () => call(creditRoutes.payoff, { params: { id }, query: { date } }),
    enabled: date !== '',
  });

/** Totals of the filtered set: the list's filters without its page and sort. */
export function useCreditTotals(query: string) {
  const params = new URLSearchParams(query);
  for (const key of ['page', 'pageSize', 'sort']) params.delete(key);
  const filters = params.toString();
  return useQuery({
    queryKey: walletKeys.totals(filters),
    queryFn: () => callList(creditRoutes.totals, filters),
    placeholderData: keepPreviousData,
  });
}

/** Business dates; while a close waits or runs, asked again every second so its progress bar moves (and survives a reload). */
export const useBusinessDates = () =>
  useRunProgress({
    queryKey: walletKeys.businessDates,
    queryFn: () => call(businessDateRoutes.businessDates),
    statuses: (dates) => dates.map((d) => d.activeRun?.status),
  });

export const dayCloseListQuery: ListQuery<DayClose> = (query) => ({
  queryKey: walletKeys.dayCloses(query),
  queryFn: () => callList(businessDateRoutes.closes, query),
});

export function useStartDayClose() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { companyId: string }) => call(businessDateRoutes.closeDay, { body: input }),
    onSettled: () => client.invalidateQueries({ queryKey: walletKeys.businessDates }),
  });
}
