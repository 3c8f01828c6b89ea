import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentFile } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import {
  AGREEMENT_ID,
  FILE_ID,
  appliedFile,
  overpaidRow,
  rejectedRow,
  sampleFile,
  sampleRow,
  uploadOption,
} from './payment-files.test-data';
import PaymentFileUploadScreen from './payment-file-upload.screen';

/** Just enough of XMLHttpRequest for an upload: records what was sent, lets the test report progress and answer. */
class FakeUpload {
  static last: FakeUpload | null = null;
  url = '';
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    FakeUpload.last = this;
  }
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body;
  }
  progress(fraction: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded: fraction * 100, total: 100 });
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

const sent = () => {
  if (!FakeUpload.last) throw new Error('nothing was uploaded');
  return FakeUpload.last;
};

const UPLOADER = ['/wallet/upload-file-pay', '/wallet/files-pay-list'];
const signIn = (paths: string[]) => {
  resetSessionCache();
  saveSession(sampleSession({ permissions: paths.map((path) => ({ path })) }));
};

/** The API of a file whose GET answers `states` one after the other (the last one repeated); `actions` answer its POSTs. */
function fileApi(states: PaymentFile[], actions: Record<string, unknown> = {}) {
  let reads = 0;
  return stubApi((method, path) => {
    if (path === '/api/payment-files/upload-options') return [uploadOption];
    if (method === 'POST') return actions[path.split('/').at(-1)!];
    if (path === `/api/payment-files/${FILE_ID}`) return states[Math.min(reads++, states.length - 1)];
    if (path.startsWith(`/api/payment-files/${FILE_ID}/rows?group=aceptados`)) return { items: [sampleRow(), overpaidRow], total: 2 };
    if (path.startsWith(`/api/payment-files/${FILE_ID}/rows?group=rechazados`)) return { items: [rejectedRow], total: 1 };
    if (path.startsWith(`/api/payment-files/${FILE_ID}/missing`)) return { items: [], total: 0 };
    return [404, { type: 'about:blank', title: 'No encontrado', status: 404 }];
  });
}

const user = userEvent.setup();
const csv = (name = 'nomina-1115.csv') => new File(['folio,importe\nCR-000001,500.00\n'], name, { type: 'text/csv' });

async function chooseAgreement() {
  await user.click(await screen.findByRole('combobox', { name: 'Convenio' }));
  await user.click(await screen.findByRole('option', { name: 'Gobierno de Jalisco · Financiera Demo' }));
}

describe('Carga archivos de pagos', () => {
  beforeEach(() => {
    FakeUpload.last = null;
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    return () => vi.unstubAllGlobals();
  });

  it('uploads with progress, puts the file in the URL and previews its totals and its rows by outcome', async () => {
    signIn(UPLOADER);
    fileApi([sampleFile()]);
    const router = renderScreen(<PaymentFileUploadScreen />, { path: '/wallet/upload-file-pay' });
    expect(await screen.findByText(/Hasta 20 MB y 100,000 filas/)).toBeInTheDocument();

    await chooseAgreement();
    expect(screen.getByText('Empresa: Financiera Demo · Formato del layout: CSV')).toBeInTheDocument();
    // The suggested date comes chosen.
    expect(screen.getByRole('combobox', { name: 'Fecha de descuento' })).toHaveTextContent('15/11/2026');

    await user.upload(screen.getByLabelText('Archivo de pagos'), csv());
    const request = sent();
    expect(request.url).toBe('/api/payment-files');
    expect([...request.body!.keys()]).toEqual(['agreementId', 'discountDate', 'file']);
    expect(request.body!.get('agreementId')).toBe(AGREEMENT_ID);
    expect(request.body!.get('discountDate')).toBe('2026-11-15');
    act(() => request.progress(0.5));
    expect(screen.getByRole('progressbar', { name: 'Subiendo el archivo' })).toHaveAttribute('aria-valuenow', '50');
    act(() => request.answer(201, sampleFile()));

    // The file's id goes to the URL, so a reload comes back to this preview.
    await waitFor(() => expect(router.state.location.search).toBe(`?file=${FILE_ID}`));
    const totals = await screen.findByLabelText('Totales del archivo');
    expect(totals).toHaveTextContent('Filas válidas3 · $1,500.00');
    expect(totals).toHaveTextContent('Filas rechazadas1 · $250.00');
    expect(totals).toHaveTextContent('Esperado en la fecha4 descuentos · $2,000.00');
    expect(totals).toHaveTextContent('Recibido en el archivo$1,750.00');
    expect(totals).toHaveTextContent('Descuentos faltantes1 · sin recibir en este archivo ni en otro aplicado de la fecha');

    const accepted = await screen.findByRole('grid', { name: 'Filas: aceptados' });
    // Not applied yet: a sobrepago, not "aplicado con sobrepago".
    expect(await within(accepted).findByText('sobrepago')).toBeInTheDocument();
    expect(within(accepted).queryByText('aplicado con sobrepago')).not.toBeInTheDocument();
    expect(totals).toHaveTextContent('Filas con sobrepago1 · liquidan su crédito; lo que sobra queda como saldo a favor');
    expect(totals).not.toHaveTextContent('Descuentos ya recibidos en otro archivo');
    expect(within(accepted).getByText('Liquida el crédito; $80.00 quedan como saldo a favor.')).toBeInTheDocument();
    expect(within(accepted).getByRole('link', { name: 'CR-000002' })).toHaveAttribute('href', '/wallet/credits/credits-view/cr-2');
    await user.click(screen.getByRole('tab', { name: 'Rechazados (1)' }));
    const rejected = await screen.findByRole('grid', { name: 'Filas: rechazados' });
    expect(await within(rejected).findByText('crédito no encontrado')).toBeInTheDocument();
    expect(within(rejected).getByText('No hay un crédito con folio CR-999999 en el convenio.')).toBeInTheDocument();
  });

  it('offers every payday the API says still has deductions owed, newest first, a late one included', async () => {
    signIn(UPLOADER);
    fileApi([sampleFile()]);
    renderScreen(<PaymentFileUploadScreen />, { path: '/wallet/upload-file-pay' });
    await chooseAgreement();
    await user.click(screen.getByRole('combobox', { name: 'Fecha de descuento' }));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['15/11/2026', '31/10/2026', '15/10/2026']);
  });

  it('applies after a confirmation naming rows and amount, with a progress bar that follows the file until it is applied', async () => {
    signIn([...UPLOADER, '/actions/wallet/apply-file']);
    const calls = fileApi([sampleFile(), sampleFile({ applyState: 'en curso', applyDone: 1 }), appliedFile()], {
      apply: [202, sampleFile({ applyState: 'en espera' })],
    });
    renderScreen(<PaymentFileUploadScreen />, { path: '/wallet/upload-file-pay', url: `/wallet/upload-file-pay?file=${FILE_ID}` });

    await user.click(await screen.findByRole('button', { name: 'Aplicar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Aplicar archivo' });
    expect(dialog).toHaveTextContent(
      'Se aplicarán 3 filas válidas por $1,500.00 del archivo nomina-1115.csv (Gobierno de Jalisco, descuento del 15/11/2026), todas en una sola operación. 1 fila liquida su crédito con sobrepago: lo que sobra queda como saldo a favor. La fila rechazada no se aplica. ¿Aplicar el archivo?',
    );
    // An action that cannot be taken back: "No" has the focus, so Enter does no harm.
    expect(within(dialog).getByRole('button', { name: 'No' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Sí' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`/api/payment-files/${FILE_ID}/apply`]),
    );

    // Asked again every second while it runs: the bar follows the rows done, then the outcome replaces it.
    expect(await screen.findByText('Aplicando: 1 de 3 filas')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Avance de la aplicación' })).toHaveAttribute('aria-valuenow', '33');
    expect(await screen.findByText(/Archivo aplicado: 3 pagos por \$1,500.00/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ver detalle del archivo' })).toHaveAttribute('href', `/wallet/files-pay-detail/${FILE_ID}`);
    expect(screen.queryByRole('button', { name: 'Aplicar' })).not.toBeInTheDocument();
  });

  it("says in one row's confirmation that it pays a deduction another file received, in the singular", async () => {
    signIn([...UPLOADER, '/actions/wallet/apply-file']);
    const single = sampleFile({
      rowsTotal: 1,
      rowsValid: 1,
      rowsRejected: 0,
      rowsOverpaying: 0,
      rowsPaidElsewhere: 1,
      amountValid: '500.00',
      amountTotal: '500.00',
      amountRejected: '0.00',
    });
    fileApi([single]);
    renderScreen(<PaymentFileUploadScreen />, { path: '/wallet/upload-file-pay', url: `/wallet/upload-file-pay?file=${FILE_ID}` });
    expect(await screen.findByLabelText('Totales del archivo')).toHaveTextContent(
      'Descuentos ya recibidos en otro archivo1 · se aplican como pagos adicionales',
    );
    await user.click(await screen.findByRole('button', { name: 'Aplicar' }));
    expect(await screen.findByRole('dialog', { name: 'Aplicar archivo' })).toHaveTextContent(
      'Se aplicará 1 fila válida por $500.00 del archivo nomina-1115.csv (Gobierno de Jalisco, descuento del 15/11/2026). 1 fila paga un descuento que otro archivo ya recibió: se aplica como pago adicional. ¿Aplicar el archivo?',
    );
  });

  it('comes back to a running application after a reload, from the file in the URL', async () => {
    signIn([...UPLOADER, '/actions/wallet/apply-file']);
    fileApi([sampleFile({ applyState: 'en curso', applyDone: 2 })]);
    renderScreen(<PaymentFileUploadScreen />, { path: '/wallet/upload-file-pay', url: `/wallet/upload-file-pay?file=${FILE_ID}` });
    expect(await screen.findByText('Aplicando: 2 de 3 filas')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Avance de la aplicación' })).toHaveAttribute('aria-valuenow', '67');
    expect(screen.queryByRole('button', { name: 'Aplicar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rechazar archivo' })).not.toBeInTheDocument();
  });

  it('takes a file dropped on the zone, shows the API refusal of a file already loaded, and stays on the form', async () => {
    signIn(UPLOADER);
    fileApi([sampleFile()]);
    const router = renderScreen(<PaymentFileUploadScreen />, { path: '/wallet/upload-file-pay' });
    await chooseAgreement();
    fireEvent.drop(screen.getByRole('region', { name: 'Zona para soltar el archivo' }), { dataTransfer: { files: [csv()] } });
    await waitFor(() => expect(FakeUpload.last?.body?.get('file')).toMatchObject({ name: 'nomina-1115.csv' }));
    const detail = 'Este archivo ya se cargó el 16/11/2026 como nomina-1115.csv (aplicado). No se carga dos veces.';
    act(() => sent().answer(409, { type: 'about:blank', title: 'Archivo duplicado', status: 409, detail }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No se cargó el archivo');
    expect(alert).toHaveTextContent(detail);
    expect(router.state.location.search).toBe('');
  });

  it('refuses before sending a file over 20 MB or without an agreement chosen', async () => {
    signIn(UPLOADER);
    fileApi([sampleFile()]);
    renderScreen(<PaymentFileUploadScreen />, { path: '/wallet/upload-file-pay' });
    await screen.findByRole('combobox', { name: 'Convenio' });
    await user.upload(screen.getByLabelText('Archivo de pagos'), csv());
    expect(await screen.findByRole('alert')).toHaveTextContent('Elige el convenio y la fecha de descuento antes de cargar el archivo.');

    await chooseAgreement();
    const big = csv('grande.csv');
    Object.defineProperty(big, 'size', { value: 21 * 1024 * 1024 });
    await user.upload(screen.getByLabelText('Archivo de pagos'), big);
    expect(await screen.findByRole('alert')).toHaveTextContent('El archivo grande.csv pesa 21 MB; el máximo es 20 MB.');
    expect(FakeUpload.last).toBeNull();
  });

  it('offers Rechazar archivo but not Aplicar without the apply permission, and asks for a reason to reject', async () => {
    signIn(UPLOADER);
    const reason = 'El convenio mandó el layout anterior.';
    const calls = fileApi([sampleFile()], { reject: sampleFile({ status: 'rechazado', statusReason: reason }) });
    renderScreen(<PaymentFileUploadScreen />, { path: '/wallet/upload-file-pay', url: `/wallet/upload-file-pay?file=${FILE_ID}` });
    const actions = await screen.findByRole('group', { name: 'Acciones del archivo' });
    expect(
      within(actions)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Rechazar archivo']);

    await user.click(within(actions).getByRole('button', { name: 'Rechazar archivo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rechazar archivo nomina-1115.csv' });
    await user.type(within(dialog).getByRole('textbox', { name: /Motivo/ }), 'mal');
    await user.click(within(dialog).getByRole('button', { name: 'Rechazar archivo' }));
    expect(within(dialog).getByText('Escribe el motivo (al menos 5 caracteres).')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    const field = within(dialog).getByRole('textbox', { name: /Motivo/ });
    await user.clear(field);
    await user.click(field);
    await user.paste(reason);
    await user.click(within(dialog).getByRole('button', { name: 'Rechazar archivo' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', path: `/api/payment-files/${FILE_ID}/reject`, body: { reason } },
    ]);
    expect(screen.getByText(`Archivo rechazado sin aplicar. Motivo: ${reason}`)).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Acciones del archivo' })).not.toBeInTheDocument();
  });
});
