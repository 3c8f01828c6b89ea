import { useQuery } from '@tanstack/react-query';
import { homeRoutes } from '@portal/contract';
import { call } from '../../lib/api-client';

export const useHomeSummary = () => useQuery({ queryKey: ['home', 'summary'], queryFn: () => call(homeRoutes.summary) });
