import { useQuery } from '@tanstack/react-query';
import { profileRoutes } from '@portal/contract';
import { call } from './api-client';

/** The companies (brands) a user or an agreement belongs to: shared by the Usuarios and Convenios forms. */
export function useCompanies() {
  return useQuery({ queryKey: ['companies'], queryFn: () => call(profileRoutes.companies).then((body) => body.items) });
}
