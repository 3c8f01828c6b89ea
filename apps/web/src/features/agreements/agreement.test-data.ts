import type { AgreementDetail, Company } from '@portal/contract';
import { emptyAgreement, type AgreementForm } from './agreement-form-model';

export const TEST_TODAY = '2026-11-23';
export const TEST_COMPANIES: Company[] = [{ id: '9d7c1c7a-6d53-4f0e-8a3e-0c8a1f2b3c4d', code: 'DEMO', name: 'Financiera Demo' }];

/** The test agreement's identity: a quincenal state agreement of the first test company. */
const AGREEMENT = {
  companyId: TEST_COMPANIES[0]!.id,
  code: 'EST-01',
  name: 'Gobierno del Estado',
  employerName: 'Secretaría de Finanzas',
  employerRfc: 'SFI010101AB1',
  sector: 'estatal',
  frequency: 'quincenal',
} as const;

/** A form the contract accepts: the test agreement with one product and a csv layout by employee number. */
export function completeAgreementForm(): AgreementForm {
  const empty = emptyAgreement(TEST_TODAY);
  return {
    ...empty,
    ...AGREEMENT,
    products: [{ ...empty.products[0]!, name: 'Nómina 24', annualRatePct: '36', terms: '12, 24', minAmount: '5000', maxAmount: '80000' }],
    layout: { ...empty.layout, columns: { ...empty.layout.columns, employeeNumber: '1', amount: '2' } },
  };
}

/** The test agreement as the API answers it once stored, its layout as stored (null: one that cannot be read). */
export function storedAgreement(layout: AgreementDetail['layout']): AgreementDetail {
  return {
    ...AGREEMENT,
    id: 'a1',
    company: TEST_COMPANIES[0]!.name,
    maxDeductionPct: '30',
    remittanceLagDays: 10,
    payDay: null,
    paydayWeekday: null,
    cutOffLeadDays: 0,
    nonWorkingDays: ['2026-12-25'],
    renewalAsChange: false,
    validFrom: '2026-01-01',
    validTo: null,
    contacts: [],
    products: [],
    layout,
    active: true,
    version: 3,
    warnings: [],
    history: [],
  };
}
