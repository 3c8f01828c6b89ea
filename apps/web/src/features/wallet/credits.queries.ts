import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BusinessDate, Credit, CreditListItem, CreditTotals, CreditView, DayClose, DayCloseRun, PayoffQuoteView } from '@portal/contract';
import { apiJson, jsonBody } from '../../lib/api';

export const walletKeys = {
  credits: ['credits'] as const,
  list: (query: string) => ['credits', 'list', query] as const,
  totals: (query: string) => ['credits', 'totals', query] as const,
  detail: (id: string) => ['credits', 'detail', id] as const,
  view: (id: string) => ['credits', 'view', id] as const,
  payoff: (id: string, date: string) => ['credits', 'payoff', id, date] as const,
  businessDates: ['business-dates'] as const,
  dayClosesAll: ['day-closes'] as const,
  dayCloses: (query: string) => ['day-closes', query] as const,
  run: (id: string) => ['day-close-runs', id] as const,
};

export const useCredit = (id: string) => useQuery({ queryKey: walletKeys.detail(id), queryFn: () => apiJson<Credit>(`/api/credits/${id}`) });

export const useCreditView = (id: string) => useQuery({ queryKey: walletKeys.view(id), queryFn: () => apiJson<CreditView>(`/api/portfolio/credits/${id}`) });

export const usePayoff = (id: string, date: string) =>
  useQuery({ queryKey: walletKeys.payoff(id, date), queryFn: () => apiJson<PayoffQuoteView>(`/api/portfolio/credits/${id}/payoff?date=${date}`), enabled: date !== '' });

export function useCreditList(query: string) {
  return useQuery({
    queryKey: walletKeys.list(query),
    queryFn: () => apiJson<{ items: CreditListItem[]; total: number }>(`/api/portfolio/credits?${query}`),
    placeholderData: keepPreviousData,
  });
}

/** Totals of the filtered set: the list's filters without its page and sort. */
export function useCreditTotals(query: string) {
  const params = new URLSearchParams(query);
  for (const key of ['page', 'pageSize', 'sort']) params.delete(key);
  const filters = params.toString();
  return useQuery({ queryKey: walletKeys.totals(filters), queryFn: () => apiJson<CreditTotals>(`/api/portfolio/credits/totals?${filters}`), placeholderData: keepPreviousData });
}

/** Business dates; while a close waits or runs, asked again every second so its progress bar moves (and survives a reload). */
export const useBusinessDates = () =>
  useQuery({
    queryKey: walletKeys.businessDates,
    queryFn: () => apiJson<BusinessDate[]>('/api/portfolio/business-dates'),
    refetchInterval: (query) => (query.state.data?.some((d) => d.activeRun !== null) ? 1000 : false),
  });

export const useDayCloses = (query: string) =>
  useQuery({ queryKey: walletKeys.dayCloses(query), queryFn: () => apiJson<{ items: DayClose[]; total: number }>(`/api/portfolio/day-closes?${query}`), placeholderData: keepPreviousData });

export function useStartDayClose() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { companyId: string }) => apiJson<DayCloseRun>('/api/portfolio/day-closes', jsonBody('POST', input)),
    onSettled: () => client.invalidateQueries({ queryKey: walletKeys.businessDates }),
  });
}

/** The agreements for the list's filter, as select options. */
export function useAgreementOptions() {
  const query = useQuery({ queryKey: ['credits', 'agreements'], queryFn: () => apiJson<{ id: string; name: string }[]>('/api/portfolio/agreements') });
  return (query.data ?? []).map((a) => ({ value: a.id, label: a.name }));
}
