import { describe, expect, it } from 'vitest';
import { preRequestInputOf } from './origination';

describe('preRequestInputOf', () => {
  const stored = {
    id: '5f0c2a8e-1b7d-4c3e-9a6f-2d4e8b1c0a93',
    folio: 'PS-000042',
    status: 'enviada',
    curp: 'GODE561231HDFRRN09',
    rfc: 'GODE561231AB1',
    firstNames: 'Ernesto',
    lastName1: 'Gómez',
    lastName2: 'Durán',
    agreementId: '9d7c1c7a-6d53-4f0e-8a3e-0c8a1f2b3c4d',
    agreement: 'Gobierno del Estado',
    productId: '3a1e6b0c-8f2d-4e7a-b5c9-1d0f2e3a4b5c',
    product: 'Quincenal 36 %',
    employeeNumber: 'E-1024',
    netSalary: '18500.00',
    otherDeductions: '1200.50',
    amount: '30000.00',
    term: 24,
    installment: '1702.15',
    version: 3,
  };

  it('keeps the client and loan fields and leaves the rest of the record out', () => {
    expect(preRequestInputOf(stored)).toEqual({
      curp: 'GODE561231HDFRRN09',
      rfc: 'GODE561231AB1',
      firstNames: 'Ernesto',
      lastName1: 'Gómez',
      lastName2: 'Durán',
      agreementId: '9d7c1c7a-6d53-4f0e-8a3e-0c8a1f2b3c4d',
      productId: '3a1e6b0c-8f2d-4e7a-b5c9-1d0f2e3a4b5c',
      employeeNumber: 'E-1024',
      netSalary: '18500.00',
      otherDeductions: '1200.50',
      amount: '30000.00',
      term: 24,
      renews: [],
    });
  });

  it('keeps the credits a pre-request renews', () => {
    expect(preRequestInputOf({ ...stored, renews: ['c2f0a6d4-1b3e-4f5a-9c8d-7e6f5a4b3c2d'] }).renews).toEqual([
      'c2f0a6d4-1b3e-4f5a-9c8d-7e6f5a4b3c2d',
    ]);
  });

  it('answers an RFC or second surname stored as null with an empty field', () => {
    const input = preRequestInputOf({ ...stored, rfc: null, lastName2: null });
    expect(input.rfc).toBe('');
    expect(input.lastName2).toBe('');
    expect(input.firstNames).toBe('Ernesto');
  });

  it('keeps an empty stored field empty', () => {
    const input = preRequestInputOf({ ...stored, rfc: '', lastName2: '' });
    expect(input.rfc).toBe('');
    expect(input.lastName2).toBe('');
  });
});
