import { useQuery } from '@tanstack/react-query';
import type { Company } from '@portal/contract';
import { apiJson } from './api';

/** The companies (brands) a user or an agreement belongs to: shared by the Usuarios and Convenios forms. */
export function useCompanies() {
  return useQuery({ queryKey: ['companies'], queryFn: () => apiJson<{ items: Company[] }>('/api/companies').then((body) => body.items) });
}
