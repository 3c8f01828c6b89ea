import type { PaymentFile, PaymentFileRow, UploadOption } from '@portal/contract';

/** Shared data of the payment-file screen tests. */
export const FILE_ID = '6d0f3c2a-8b1e-4f5a-9c7d-2e3f4a5b6c7d';
export const AGREEMENT_ID = '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f';

export const uploadOption: UploadOption = {
  agreementId: AGREEMENT_ID,
  agreement: 'Gobierno de Jalisco',
  company: 'Financiera Demo',
  format: 'csv',
  // The API's paydays with deductions still owed, newest first: a late file's included.
  discountDates: ['2026-11-15', '2026-10-31', '2026-10-15'],
  suggestedDate: '2026-11-15',
};

/** A validated file of 4 rows: 3 valid for $1,500.00 (one a sobrepago), 1 rejected for $250.00. */
export function sampleFile(overrides: Partial<PaymentFile> = {}): PaymentFile {
  return {
    id: FILE_ID,
    agreementId: AGREEMENT_ID,
    agreement: 'Gobierno de Jalisco',
    company: 'Financiera Demo',
    discountDate: '2026-11-15',
    fileName: 'nomina-1115.csv',
    sha256: 'a'.repeat(64),
    size: 2048,
    encoding: 'UTF-8',
    status: 'validado',
    rowsTotal: 4,
    rowsValid: 3,
    rowsRejected: 1,
    rowsOverpaying: 1,
    rowsPaidElsewhere: 0,
    amountTotal: '1750.00',
    amountValid: '1500.00',
    amountRejected: '250.00',
    amountApplied: '0.00',
    overpayment: '80.00',
    expectedAmount: '2000.00',
    expectedCount: 4,
    missingCount: 1,
    uploadedBy: 'cartera@demo.mx',
    uploadedAt: '2026-11-16T16:30:00Z',
    applyState: null,
    applyDone: 0,
    applyError: null,
    appliedBy: null,
    appliedAt: null,
    revertedBy: null,
    revertedAt: null,
    statusReason: null,
    ...overrides,
  };
}

export const appliedFile = (overrides: Partial<PaymentFile> = {}) =>
  sampleFile({
    status: 'aplicado',
    applyState: 'completado',
    applyDone: 3,
    amountApplied: '1500.00',
    appliedBy: 'tesoreria@demo.mx',
    appliedAt: '2026-11-16T17:00:00Z',
    ...overrides,
  });

export function sampleRow(overrides: Partial<PaymentFileRow> = {}): PaymentFileRow {
  return {
    line: 2,
    raw: 'CR-000001,J-1001,500.00',
    creditRef: 'CR-000001',
    employeeNumber: 'J-1001',
    curpRfc: null,
    amount: '500.00',
    period: null,
    reference: null,
    outcome: 'válido',
    message: null,
    creditId: 'cr-1',
    creditFolio: 'CR-000001',
    instructedAmount: null,
    amountDiffers: false,
    paymentId: null,
    paymentStatus: null,
    split: null,
    allocation: [],
    ...overrides,
  };
}

export const rejectedRow = sampleRow({
  line: 5,
  raw: 'CR-999999,J-9999,250.00',
  creditRef: 'CR-999999',
  employeeNumber: 'J-9999',
  amount: '250.00',
  outcome: 'crédito no encontrado',
  message: 'No hay un crédito con folio CR-999999 en el convenio.',
  creditId: null,
  creditFolio: null,
});

export const overpaidRow = sampleRow({
  line: 3,
  creditRef: 'CR-000002',
  employeeNumber: 'J-1002',
  amount: '580.00',
  outcome: 'sobrepago',
  message: 'Liquida el crédito; $80.00 quedan como saldo a favor.',
  creditId: 'cr-2',
  creditFolio: 'CR-000002',
});
