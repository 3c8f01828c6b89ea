import { describe, expect, it } from 'vitest';
import { completeAgreementForm, storedAgreement, TEST_TODAY } from './agreement.test-data';
import {
  agreementFormSchema,
  emptyAgreement,
  formatNonWorkingDays,
  formFieldOf,
  fromDetail,
  parseNonWorkingDays,
  toInput,
  type AgreementForm,
} from './agreement-form-model';

/** The refusals of the form's schema, by the form field each lands on. */
const problemsOf = (form: AgreementForm) => {
  const parsed = agreementFormSchema.safeParse(form);
  return parsed.success ? [] : parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
};

describe("the agreement form's non-working days", () => {
  it('reads dd/mm/aaaa dates separated by commas, semicolons or spaces, and writes them back the same way', () => {
    expect(parseNonWorkingDays('16/09/2026, 25/12/2026;1/1/2027  ')).toEqual(['2026-09-16', '2026-12-25', '2027-01-01']);
    expect(parseNonWorkingDays('  ')).toEqual([]);
    expect(formatNonWorkingDays(['2026-09-16', '2027-01-01'])).toBe('16/09/2026, 01/01/2027');
  });

  it('sends them to the contract, which refuses a date that does not exist or a repeated one on the field itself', () => {
    const form = { ...emptyAgreement('2026-11-23'), nonWorkingDays: '16/09/2026, 25/12/2026' };
    expect(toInput(form).nonWorkingDays).toEqual(['2026-09-16', '2026-12-25']);
    const problems = (text: string) =>
      problemsOf({ ...form, nonWorkingDays: text }).filter((problem) => problem.field === 'nonWorkingDays');
    expect(problems('30/02/2026')).toEqual([
      { field: 'nonWorkingDays', message: 'Días inhábiles de nómina: cada fecha debe ser válida (dd/mm/aaaa).' },
    ]);
    expect(problems('mañana')).toEqual([
      { field: 'nonWorkingDays', message: 'Días inhábiles de nómina: cada fecha debe ser válida (dd/mm/aaaa).' },
    ]);
    expect(problems('16/09/2026, 16/09/2026')).toEqual([
      { field: 'nonWorkingDays', message: 'Días inhábiles de nómina: hay fechas repetidas.' },
    ]);
    expect(problems('16/09/2026')).toEqual([]);
  });
});

describe("the agreement form's schema", () => {
  const complete = completeAgreementForm();

  it("answers the contract's input for a complete form, numbers and lists parsed from the text typed", () => {
    const parsed = agreementFormSchema.safeParse(complete);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.data).toMatchObject({ code: 'EST-01', remittanceLagDays: 10, products: [{ terms: [12, 24], maxAgeAtEnd: 75 }] });
  });

  it("puts each refusal on the field that holds it: a product's amounts, a fixed-width position, the layout as a whole", () => {
    const twisted: AgreementForm = {
      ...complete,
      products: [{ ...complete.products[0]!, minAmount: '90000' }],
      layout: {
        ...complete.layout,
        format: 'fixed',
        starts: { ...complete.layout.starts, amount: '0' },
        lengths: { ...complete.layout.lengths, amount: '8' },
      },
    };
    const problems = problemsOf(twisted);
    expect(problems).toContainEqual({ field: 'products.0.maxAmount', message: 'El monto mínimo no puede ser mayor que el máximo.' });
    expect(problems.map((problem) => problem.field)).toContain('layout.starts.amount');
    // A fixed-width layout with no folio and no employee number position identifies no credit.
    expect(problems).toContainEqual({
      field: 'layout.format',
      message: 'El layout debe leer el folio del crédito o el número de empleado.',
    });
  });

  it("maps the API's contract paths onto the form's fields", () => {
    expect(formFieldOf('layout.positions.amount.start')).toBe('layout.starts.amount');
    expect(formFieldOf('layout.positions.creditId.length')).toBe('layout.lengths.creditId');
    expect(formFieldOf('layout.columns')).toBe('layout.format');
    expect(formFieldOf('nonWorkingDays.2')).toBe('nonWorkingDays');
    expect(formFieldOf('products.1.terms')).toBe('products.1.terms');
  });
});

describe('the agreement form of a stored agreement', () => {
  it("reads the stored layout into the form's fields", () => {
    const form = fromDetail(
      storedAgreement({
        format: 'fixed',
        amountInCents: true,
        positions: { employeeNumber: { start: 1, length: 8 }, amount: { start: 9, length: 10 } },
      }),
    );
    expect(form.layout).toMatchObject({
      format: 'fixed',
      amountInCents: true,
      hasHeader: false,
      starts: { employeeNumber: '1', amount: '9' },
      lengths: { employeeNumber: '8', amount: '10' },
    });
    expect(form.nonWorkingDays).toBe('25/12/2026');
    expect(form.renewalAsChange).toBe(false);
    expect(fromDetail({ ...storedAgreement(null), renewalAsChange: true }).renewalAsChange).toBe(true);
  });

  it('starts from a blank layout, which the form refuses until it is defined, when the stored one could not be read', () => {
    const form = fromDetail(storedAgreement(null));
    expect(form.layout).toEqual(emptyAgreement(TEST_TODAY).layout);
    expect(form).toMatchObject({ code: 'EST-01', remittanceLagDays: '10', nonWorkingDays: '25/12/2026' });
    expect(problemsOf({ ...form, products: completeAgreementForm().products }).map((problem) => problem.field)).toContain(
      'layout.columns.amount',
    );
  });
});
