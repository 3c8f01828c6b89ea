import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AgreementInput } from '@portal/contract';
import { ApiError } from '../../lib/api';
import { AgreementFormView } from './agreement-form';
import type { AgreementForm } from './agreement-form-model';
import { completeAgreementForm, TEST_COMPANIES, TEST_TODAY } from './agreement.test-data';

const companies = TEST_COMPANIES;
const TODAY = TEST_TODAY;
const completeForm = completeAgreementForm;

function renderForm(defaultValues: AgreementForm, onSubmit = vi.fn(async (_input: AgreementInput) => undefined)) {
  render(
    <AgreementFormView
      defaultValues={defaultValues}
      companies={companies}
      today={TODAY}
      submitLabel="Guardar convenio"
      onSubmit={onSubmit}
      onCancel={() => undefined}
    />,
  );
  return onSubmit;
}

const save = () => userEvent.click(screen.getByRole('button', { name: 'Guardar convenio' }));

describe('agreement form (the form pattern over the agreement model)', () => {
  it('checks the model with the contract: each refusal on its field, the focus on the first, a summary by the button, nothing sent', async () => {
    const complete = completeForm();
    // No code, and a layout that reads neither the folio nor the employee number.
    const onSubmit = renderForm({
      ...complete,
      code: '',
      layout: { ...complete.layout, columns: { ...complete.layout.columns, employeeNumber: '' } },
    });
    await save();
    expect(await screen.findByText('No se guardó: revisa los 2 campos marcados')).toBeInTheDocument();
    const code = screen.getByLabelText(/^Clave/);
    expect(code).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(code).toHaveFocus());
    // What the layout lacks as a whole is said on its format, in the layout's own section.
    expect(screen.getByText('El layout debe leer el folio del crédito o el número de empleado.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("sends the contract's input: numbers and lists parsed from the text typed", async () => {
    const onSubmit = renderForm(completeForm());
    await save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({
      code: 'EST-01',
      remittanceLagDays: 10,
      cutOffLeadDays: 0,
      nonWorkingDays: [],
      renewalAsChange: false,
      products: [{ name: 'Nómina 24', terms: [12, 24], maxAgeAtEnd: 75 }],
      layout: { format: 'csv', columns: { employeeNumber: 1, amount: 2 } },
    });
  });

  it('shows the renewal setting off with what it does, and sends it on when switched', async () => {
    const onSubmit = renderForm(completeForm());
    const setting = screen.getByRole('switch', { name: 'Renovación en una línea por empleado (cambio)' });
    expect(setting).not.toBeChecked();
    expect(setting).toHaveAccessibleDescription(
      'En la cédula, el crédito nuevo sustituye al renovado en un solo cambio (folio e importe nuevos), en lugar de una baja y un alta',
    );
    await userEvent.click(setting);
    await save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ renewalAsChange: true });
  });

  it("places the API's refusals on the model's fields: a product added after opening, a non-working day by position, an unknown field in the summary", async () => {
    const onSubmit = vi.fn(async () => {
      throw new ApiError(422, {
        type: 'validation',
        title: 'Datos inválidos',
        status: 422,
        detail: 'Revisa los datos del convenio.',
        errors: [
          { field: 'products.1.name', message: 'Ya hay un producto con ese nombre.' },
          { field: 'nonWorkingDays.0', message: 'Días inhábiles de nómina: cada fecha debe ser válida (dd/mm/aaaa).' },
          { field: 'code', message: 'Ya existe un convenio con esa clave.' },
          { field: 'somethingElse', message: 'Algo que la forma no muestra.' },
        ],
      });
    });
    renderForm({ ...completeForm(), nonWorkingDays: '16/09/2026' }, onSubmit);
    await userEvent.click(screen.getByRole('button', { name: 'Agregar producto' }));
    const second = screen.getByRole('group', { name: 'Producto 2' });
    for (const [label, value] of [
      ['Nombre del producto', 'Nómina 24'],
      ['Tasa anual %', '36'],
      ['Plazos permitidos (pagos)', '12'],
      ['Monto mínimo', '5000'],
      ['Monto máximo', '50000'],
    ] as const) {
      await userEvent.type(within(second).getByLabelText(label), value);
    }
    await save();
    expect(await within(second).findByText('Ya hay un producto con ese nombre.')).toBeInTheDocument();
    expect(screen.getByText('Días inhábiles de nómina: cada fecha debe ser válida (dd/mm/aaaa).')).toBeInTheDocument();
    expect(screen.getByText('Ya existe un convenio con esa clave.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Revisa los datos del convenio. Algo que la forma no muestra.');
  });
});
