import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { employerStatementRoutes, type StatementLineGroup } from '@portal/contract';
import { call } from '../../lib/api-client';

export const employerStatementKeys = {
  month: (month: string, agreementId: string) => ['employer-statement', 'month', month, agreementId] as const,
  lines: (agreementId: string, payday: string, group: StatementLineGroup, page: number, pageSize: number) =>
    ['employer-statement', 'lines', agreementId, payday, group, page, pageSize] as const,
};

export const useEmployerStatement = (month: string, agreementId: string) =>
  useQuery({
    queryKey: employerStatementKeys.month(month, agreementId),
    queryFn: () => call(employerStatementRoutes.month, { query: { month, ...(agreementId ? { agreementId } : {}) } }),
    placeholderData: keepPreviousData,
  });

export const useStatementLines = (agreementId: string, payday: string, group: StatementLineGroup, page: number, pageSize: number) =>
  useQuery({
    queryKey: employerStatementKeys.lines(agreementId, payday, group, page, pageSize),
    queryFn: () => call(employerStatementRoutes.lines, { query: { agreementId, payday, group, page, pageSize } }),
    placeholderData: keepPreviousData,
  });
