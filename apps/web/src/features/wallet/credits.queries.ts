import { useQuery } from '@tanstack/react-query';
import type { Credit } from '@portal/contract';
import { apiJson } from '../../lib/api';

export const useCredit = (id: string) => useQuery({ queryKey: ['credits', 'detail', id], queryFn: () => apiJson<Credit>(`/api/credits/${id}`) });
