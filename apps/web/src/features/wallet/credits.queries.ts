import { useQuery } from '@tanstack/react-query';
import { creditRoutes } from '@portal/contract';
import { call } from '../../lib/api-client';

export const useCredit = (id: string) => useQuery({ queryKey: ['credits', 'detail', id], queryFn: () => call(creditRoutes.get, { params: { id } }) });
