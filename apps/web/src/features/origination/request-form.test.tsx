import type { ReactElement } from 'react';
import { render as renderBare, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import { VALID_CLABE, WRONG_CHECK_DIGIT_CLABE, catalog, sentPreRequest } from './origination.test-data';
import { EMPTY_REQUEST, RequestForm } from './request-form';
import RequestNewScreen from './request-new.screen';

const user = userEvent.setup({ applyAccept: false });

/** The form reads the CURP's renewable credits (a query): rendered with a query client that does not retry. */
const render = (element: ReactElement) =>
  renderBare(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{element}</QueryClientProvider>,
  );

function renderForm(onSubmit = vi.fn(async () => undefined), prefill = sentPreRequest) {
  render(
    <RequestForm
      catalog={catalog}
      defaultValues={EMPTY_REQUEST}
      prefill={prefill}
      withDocuments
      submitLabel="Guardar solicitud"
      onSubmit={onSubmit}
    />,
  );
  return onSubmit;
}

const field = (label: string, scope: HTMLElement = document.body) =>
  within(scope).getByLabelText(label, { exact: false, selector: 'input, textarea' });

async function fill(label: string, value: string, scope?: HTMLElement) {
  const input = field(label, scope);
  await user.clear(input);
  await user.click(input);
  await user.paste(value);
}

async function choose(label: string, option: string) {
  await user.click(await screen.findByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

const file = (name: string, type: string, bytes = 1024) => new File([new Uint8Array(bytes)], name, { type });

describe('request form', () => {
  it('shows the shared Spanish validation messages and sends nothing', async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(
      <RequestForm catalog={catalog} defaultValues={EMPTY_REQUEST} withDocuments submitLabel="Guardar solicitud" onSubmit={onSubmit} />,
    );
    await user.click(screen.getByRole('button', { name: 'Guardar solicitud' }));
    expect(await screen.findByText('La CURP debe tener 18 caracteres.')).toBeInTheDocument();
    expect(screen.getByText('Escribe la calle.')).toBeInTheDocument();
    expect(screen.getByText('Elige el estado.')).toBeInTheDocument();
    expect(screen.getByText('Código postal: 5 dígitos.')).toBeInTheDocument();
    expect(screen.getByText('Correo electrónico no válido.')).toBeInTheDocument();
    expect(screen.getAllByText('Escribe el nombre de la referencia.')).toHaveLength(2);
    expect(screen.getByText('La CLABE tiene 18 dígitos.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('checks the CLABE as it is typed: the bank when valid, the check digit when not', async () => {
    renderForm();
    await fill('CLABE', WRONG_CHECK_DIGIT_CLABE);
    expect(screen.getByText('El dígito verificador de la CLABE no coincide; revisa que esté bien capturada.')).toBeInTheDocument();
    await user.tab();
    await user.click(screen.getByRole('button', { name: 'Guardar solicitud' }));
    expect(field('CLABE')).toHaveAttribute('aria-invalid', 'true');

    await fill('CLABE', VALID_CLABE);
    expect(await screen.findByText('Banco: BBVA México')).toBeInTheDocument();
    expect(field('CLABE')).toHaveAttribute('aria-invalid', 'false');
  });

  it('refuses a document of another type or over 5 MB, and warns which ones are missing', async () => {
    renderForm();
    const ine = screen.getByRole('group', { name: 'INE' });
    await user.upload(field('Archivo: INE'), file('ine.txt', 'text/plain'));
    expect(await within(ine).findByText('INE: el archivo debe ser PDF, JPG o PNG.')).toBeInTheDocument();

    await user.upload(field('Archivo: Recibo de nómina'), file('recibo.pdf', 'application/pdf', 6 * 1024 * 1024));
    expect(await screen.findByText('Recibo de nómina: el archivo pesa 6 MB y el máximo es 5 MB.')).toBeInTheDocument();

    await user.upload(field('Archivo: INE'), file('ine.png', 'image/png'));
    expect(await within(ine).findByText('ine.png · 1 KB')).toBeInTheDocument();
    expect(within(ine).queryByText(/el archivo debe ser/)).not.toBeInTheDocument();
    expect(screen.getByText('Recibo de nómina: el archivo pesa 6 MB y el máximo es 5 MB.')).toBeInTheDocument();
    expect(
      screen.getByText(/Faltan: Comprobante de domicilio, Recibo de nómina\. Puedes guardar la solicitud sin documentos/),
    ).toBeInTheDocument();
  });

  it('derives birth date and sex from the CURP, submits the capture and the files apart, and places the API refusals', async () => {
    const onSubmit = vi.fn(async () => {
      throw new ApiError(400, {
        type: 'validation',
        title: 'Datos no válidos',
        status: 400,
        errors: [
          { field: 'references.0.phone', message: 'Ese teléfono es el del cliente.' },
          { field: 'documents.ine', message: 'INE: el archivo no es un PDF real.' },
        ],
      });
    });
    renderForm(onSubmit);
    expect(field('Fecha de nacimiento')).toHaveValue('20/07/1966');
    expect(field('Sexo')).toHaveValue('Hombre');
    expect(screen.getByLabelText('Dictamen en vivo')).toHaveTextContent('Pre-aprobada');

    await fill('Calle', 'Av. Juárez');
    await fill('Número exterior', '100');
    await fill('Colonia', 'Centro');
    await fill('Municipio o alcaldía', 'Guadalajara');
    await choose('Estado', 'Jalisco');
    await fill('Código postal', '44100');
    await fill('Teléfono', '3312345678', screen.getByRole('region', { name: 'Contacto' }));
    await fill('Correo electrónico', 'Enrique@Correo.MX');
    for (const [index, name] of ['Ana López', 'Luis Ruiz'].entries()) {
      const reference = screen.getByRole('group', { name: `Referencia ${index + 1}` });
      await fill('Nombre completo', name, reference);
      await fill('Parentesco o relación', 'Hermano', reference);
      await fill('Teléfono de la referencia', `331111222${index}`, reference);
    }
    await fill('CLABE', VALID_CLABE);
    const ine = file('ine.pdf', 'application/pdf');
    await user.upload(field('Archivo: INE'), ine);
    await user.click(screen.getByRole('button', { name: 'Guardar solicitud' }));

    expect(await screen.findByText('Ese teléfono es el del cliente.')).toBeInTheDocument();
    expect(screen.getByText('INE: el archivo no es un PDF real.')).toBeInTheDocument();
    expect(onSubmit).toHaveBeenCalledTimes(1);
    const [input, documents] = onSubmit.mock.calls[0] as unknown as [Record<string, unknown>, Record<string, File | null>];
    expect(input).toMatchObject({
      curp: sentPreRequest.curp,
      email: 'enrique@correo.mx',
      state: 'Jalisco',
      clabe: VALID_CLABE,
      amount: '20000.00',
      term: 24,
    });
    expect(input).not.toHaveProperty('documents');
    expect(documents).toEqual({ ine, comprobante: null, recibo: null });
    // Typing a whole request is slow on a loaded machine.
  });
});

describe('Solicitudes screen', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: '/origination/request-new' }] }));
    return () => vi.unstubAllGlobals();
  });

  const api = () =>
    stubApi((_method, path) => {
      if (path === '/api/pre-requests/catalog') return catalog;
      if (path.startsWith('/api/pre-requests?')) return { items: [sentPreRequest], total: 1 };
      if (path === `/api/pre-requests/${sentPreRequest.id}`) return sentPreRequest;
      return [404, { type: 'about:blank', title: 'No encontrado', status: 404 }];
    });

  it('prefills client and loan from a sent pre-request chosen in the list', async () => {
    const calls = api();
    const router = renderScreen(<RequestNewScreen />, { path: '/origination/request-new' });
    await choose('Convertir una pre-solicitud enviada', 'PS-000012 · Enrique Peña Nieto · $20,000.00 a 24 pagos');
    expect(await screen.findByDisplayValue('PXNE660720HMCXTN06')).toBeInTheDocument();
    expect(field('Nombre(s)')).toHaveValue('Enrique');
    expect(field('Número de empleado')).toHaveValue('J-1001');
    expect(field('Monto solicitado')).toHaveValue('20000.00');
    expect(screen.getByRole('combobox', { name: 'Plazo' })).toHaveTextContent('24 pagos');
    expect(router.state.location.search).toBe(`?preRequest=${sentPreRequest.id}`);
    expect(calls.some((call) => call.path.includes('status=enviada'))).toBe(true);
  });

  it('prefills from ?preRequest= in the URL', async () => {
    api();
    renderScreen(<RequestNewScreen />, {
      path: '/origination/request-new',
      url: `/origination/request-new?preRequest=${sentPreRequest.id}`,
    });
    expect(await screen.findByDisplayValue('PXNE660720HMCXTN06')).toBeInTheDocument();
    expect(field('Primer apellido')).toHaveValue('Peña');
  });
});
