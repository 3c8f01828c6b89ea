import { useQuery } from '@tanstack/react-query';
import {
  AGING_BUCKETS,
  CREDIT_STATUSES,
  LIQUIDATION_REASONS,
  LIQUIDATION_REASON_LABELS,
  creditRoutes,
  type CreditListItem,
} from '@portal/contract';
import { AGING_BUCKET_LABELS } from '@portal/lending';
import type { FilterOption } from '../components/filter-bar';
import type { ListFilter, ListQuery } from '../components/list-screen';
import { call, callList } from './api-client';

/**
 * The credits list's query and filters, shared by Cartera → Créditos and Créditos → Actualizar Etiqueta (which selects
 * credits with the same filters): one list endpoint, one filter set, declared once.
 */

export const creditListKeys = {
  all: ['credits'] as const,
  list: (query: string) => ['credits', 'list', query] as const,
  agreements: ['credits', 'agreements'] as const,
};

export const creditListQuery: ListQuery<CreditListItem> = (query) => ({
  queryKey: creditListKeys.list(query),
  queryFn: () => callList(creditRoutes.list, query),
});

/** The agreements for the list's filter, as select options. */
export function useAgreementOptions(): FilterOption[] {
  const query = useQuery({ queryKey: creditListKeys.agreements, queryFn: () => call(creditRoutes.agreementOptions) });
  return (query.data ?? []).map((a) => ({ value: a.id, label: a.name }));
}

/** The credits list's filters: agreement, status, why it was liquidated, aging bucket, label and disbursement dates. */
export const creditListFilters = (agreements: FilterOption[]): ListFilter[] => [
  { kind: 'select', key: 'agreementId', label: 'Convenio', options: agreements },
  { kind: 'select', key: 'status', label: 'Estado', options: CREDIT_STATUSES.map((status) => ({ value: status, label: status })) },
  {
    kind: 'select',
    key: 'liquidation',
    label: 'Liquidado por',
    options: LIQUIDATION_REASONS.map((reason) => ({ value: reason, label: LIQUIDATION_REASON_LABELS[reason] })),
  },
  {
    kind: 'select',
    key: 'bucket',
    label: 'Tramo de atraso',
    options: AGING_BUCKETS.map((bucket) => ({ value: bucket, label: AGING_BUCKET_LABELS[bucket] })),
  },
  { kind: 'text', key: 'label', label: 'Etiqueta' },
  { kind: 'date', key: 'disbursedFrom', label: 'Dispuesto desde' },
  { kind: 'date', key: 'disbursedTo', label: 'Dispuesto hasta' },
];
