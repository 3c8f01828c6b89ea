import type { Company } from '@portal/contract';
import { emptyAgreement, type AgreementForm } from './agreement-form-model';

export const TEST_TODAY = '2026-11-23';
export const TEST_COMPANIES: Company[] = [{ id: '9d7c1c7a-6d53-4f0e-8a3e-0c8a1f2b3c4d', code: 'DEMO', name: 'Financiera Demo' }];

/** A form the contract accepts: a quincenal state agreement with one product and a csv layout by employee number. */
export function completeAgreementForm(): AgreementForm {
  const empty = emptyAgreement(TEST_TODAY);
  return {
    ...empty,
    companyId: TEST_COMPANIES[0]!.id,
    code: 'EST-01',
    name: 'Gobierno del Estado',
    employerName: 'Secretaría de Finanzas',
    employerRfc: 'SFI010101AB1',
    sector: 'estatal',
    frequency: 'quincenal',
    products: [{ ...empty.products[0]!, name: 'Nómina 24', annualRatePct: '36', terms: '12, 24', minAmount: '5000', maxAmount: '80000' }],
    layout: { ...empty.layout, columns: { ...empty.layout.columns, employeeNumber: '1', amount: '2' } },
  };
}
