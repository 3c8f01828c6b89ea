import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LaterPayments, PaymentFile, PaymentFileRow } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import PaymentFileDetailScreen from './payment-file-detail.screen';
import { FILE_ID, appliedFile, overpaidRow, rejectedRow, sampleFile, sampleRow } from './payment-files.test-data';

const split = {
  principal: '400.00',
  interest: '80.00',
  iva: '12.80',
  moratoryInterest: '5.00',
  moratoryIva: '0.80',
  fees: '1.20',
  feesIva: '0.20',
  overpayment: '0.00',
};
const appliedRow = sampleRow({
  paymentId: 'pay-1',
  paymentStatus: 'aplicado',
  split,
  allocation: [
    { installment: 3, component: 'moratoryInterest', amount: '5.00', step: 'due' },
    { installment: 4, component: 'principal', amount: '400.00', step: 'prepayment' },
  ],
});

const signIn = (paths: string[]) => {
  resetSessionCache();
  saveSession(sampleSession({ permissions: paths.map((path) => ({ path })) }));
};

const fileRows = [
  appliedRow,
  { ...overpaidRow, paymentStatus: 'aplicado' as const, split: { ...split, overpayment: '80.00' } },
  rejectedRow,
];

const noLaterPayments: LaterPayments = { payments: [], total: 0, refusedAsPaidOff: [] };

function fileApi(
  file: PaymentFile,
  actions: Record<string, unknown> = {},
  rows: PaymentFileRow[] = fileRows,
  later: LaterPayments = noLaterPayments,
) {
  return stubApi((method, path) => {
    if (method === 'POST') return actions[path.split('/').at(-1)!];
    if (path === `/api/payment-files/${FILE_ID}`) return file;
    if (path === `/api/payment-files/${FILE_ID}/later-payments`) return later;
    if (path.startsWith(`/api/payment-files/${FILE_ID}/rows?group=todos`)) return { items: rows, total: rows.length };
    return { items: [], total: 0 };
  });
}

const user = userEvent.setup();
const show = () =>
  renderScreen(<PaymentFileDetailScreen />, { path: '/wallet/files-pay-detail/:id', url: `/wallet/files-pay-detail/${FILE_ID}` });

describe('Detalle del archivo de pagos', () => {
  beforeEach(() => () => vi.unstubAllGlobals());

  it('shows who uploaded and applied it, every row with its outcome and split, and a row’s allocation lines', async () => {
    signIn(['/wallet/files-pay-list']);
    fileApi(appliedFile());
    show();
    expect(await screen.findByRole('heading', { name: 'Archivo nomina-1115.csv' })).toBeInTheDocument();
    const summary = screen.getByLabelText('Resumen del archivo');
    expect(summary).toHaveTextContent('Cargócartera@demo.mx · 16/11/2026 10:30');
    expect(summary).toHaveTextContent('Aplicótesoreria@demo.mx · 16/11/2026 11:00');
    expect(screen.getByLabelText('Totales del archivo')).toHaveTextContent('Importe aplicado$1,500.00');
    expect(screen.getByRole('button', { name: 'Descargar original' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Descargar resultado (Excel)' })).toBeInTheDocument();

    const grid = await screen.findByRole('grid', { name: 'Filas: todos' });
    const first = (await within(grid).findByRole('link', { name: 'CR-000001' })).closest('[role="row"]') as HTMLElement;
    expect(
      within(first)
        .getAllByRole('gridcell')
        .map((cell) => cell.textContent),
    ).toEqual([
      '2',
      'válido',
      'CR-000001',
      '$500.00',
      '—',
      '$400.00',
      '$80.00',
      '$12.80',
      '$5.80',
      '$1.40',
      '$0.00',
      'Ver reparto',
      '',
      'J-1001',
      '—',
    ]);
    expect(within(grid).getByText('aplicado con sobrepago')).toBeInTheDocument();
    expect(within(grid).getByText('crédito no encontrado')).toBeInTheDocument();

    await user.click(within(grid).getByRole('button', { name: 'Ver reparto de la línea 2' }));
    const lines = within(await screen.findByRole('dialog', { name: 'Reparto de la línea 2' })).getAllByRole('row');
    expect(lines.map((row) => row.textContent)).toEqual([
      'AmortizaciónConceptoImportePaso',
      '3Moratorios$5.00Exigible',
      '4Capital$400.00Abono anticipado a capital',
    ]);
  });

  it('reverts only with a reason, naming the file and its payments, and shows why the API refuses', async () => {
    signIn(['/wallet/files-pay-list', '/actions/wallet/revert-file']);
    const detail = 'No se puede revertir: el crédito CR-000001 tiene un pago posterior (archivo nomina-1130.csv).';
    const calls = fileApi(appliedFile(), { revert: [409, { type: 'about:blank', title: 'Conflicto', status: 409, detail }] });
    show();
    await user.click(await screen.findByRole('button', { name: 'Revertir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revertir archivo nomina-1115.csv' });
    expect(dialog).toHaveTextContent('Se revertirán los 3 pagos del archivo nomina-1115.csv por $1,500.00');

    await user.click(within(dialog).getByRole('button', { name: 'Revertir' }));
    expect(within(dialog).getByText('Escribe el motivo (al menos 5 caracteres).')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.click(within(dialog).getByRole('textbox', { name: /Motivo/ }));
    await user.paste('Importes duplicados por el convenio');
    await user.click(within(dialog).getByRole('button', { name: 'Revertir' }));
    expect(await within(dialog).findByText(detail)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', path: `/api/payment-files/${FILE_ID}/revert`, body: { reason: 'Importes duplicados por el convenio' } },
    ]);
    // The refusal asks the check again: a file applied meanwhile would turn the dialog to what stops it.
    await waitFor(() => expect(calls.filter((c) => c.path === `/api/payment-files/${FILE_ID}/later-payments`)).toHaveLength(2));
  });

  it('puts the focus on the reason once the check lets it be typed', async () => {
    signIn(['/wallet/files-pay-list', '/actions/wallet/revert-file']);
    fileApi(appliedFile());
    show();
    await user.click(await screen.findByRole('button', { name: 'Revertir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revertir archivo nomina-1115.csv' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: /Motivo/ })).toHaveFocus());
    expect(within(dialog).getByRole('button', { name: 'Revertir' })).toBeEnabled();
  });

  it('names the later files that stop a revert before the reason is typed, in the order to revert them, each with the way to it', async () => {
    signIn(['/wallet/files-pay-list', '/actions/wallet/revert-file']);
    const later: LaterPayments = {
      payments: [
        {
          fileId: 'file-1130',
          fileName: 'nomina-1130.csv',
          valueDate: '2026-11-30',
          credits: 2,
          creditId: 'c-1',
          creditFolio: 'CR-000001',
        },
        { fileId: null, fileName: null, valueDate: '2026-11-20', credits: 1, creditId: 'c-2', creditFolio: 'CR-000002' },
      ],
      total: 3,
      refusedAsPaidOff: [],
    };
    const calls = fileApi(appliedFile(), {}, fileRows, later);
    show();
    await user.click(await screen.findByRole('button', { name: 'Revertir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revertir archivo nomina-1115.csv' });
    const listed = await within(dialog).findByRole('list', { name: 'Pagos posteriores' });
    expect(
      within(listed)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'archivo nomina-1130.csv (descuento del 30/11/2026; 2 créditos, entre ellos CR-000001)',
      'pago sin archivo (descuento del 20/11/2026; crédito CR-000002)',
    ]);
    expect(within(listed).getByRole('link', { name: 'archivo nomina-1130.csv' })).toHaveAttribute(
      'href',
      '/wallet/files-pay-detail/file-1130',
    );
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Hay otro archivo después de estos: revierte primero los de la lista y vuelve a intentarlo.',
    );
    expect(dialog).toHaveTextContent('El archivo nomina-1115.csv se revierte completo, y solo cuando ningún pago posterior depende de él.');
    expect(within(dialog).getByRole('textbox', { name: /Motivo/ })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Revertir' })).toBeDisabled();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('warns that later files refused rows as crédito liquidado for the credits it paid off, and still reverts', async () => {
    signIn(['/wallet/files-pay-list', '/actions/wallet/revert-file']);
    const refusedAsPaidOff = [{ fileId: 'file-1130', fileName: 'nomina-1130.csv', rows: 2, amount: '1000.00', creditFolio: 'CR-000004' }];
    const calls = fileApi(appliedFile(), { revert: appliedFile({ status: 'revertido' }) }, fileRows, {
      payments: [],
      total: 0,
      refusedAsPaidOff,
    });
    show();
    await user.click(await screen.findByRole('button', { name: 'Revertir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revertir archivo nomina-1115.csv' });
    const listed = await within(dialog).findByRole('list', { name: 'Filas rechazadas como crédito liquidado' });
    expect(listed).toHaveTextContent('archivo nomina-1130.csv: 2 filas por $1,000.00 (entre ellas, del crédito CR-000004)');
    expect(within(listed).getByRole('link', { name: 'archivo nomina-1130.csv' })).toHaveAttribute(
      'href',
      '/wallet/files-pay-detail/file-1130',
    );
    await user.click(within(dialog).getByRole('textbox', { name: /Motivo/ }));
    await user.paste('Archivo del periodo equivocado');
    await user.click(within(dialog).getByRole('button', { name: 'Revertir' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
  });

  it('hides Revertir without its permission', async () => {
    signIn(['/wallet/files-pay-list']);
    fileApi(appliedFile());
    show();
    await screen.findByRole('heading', { name: 'Archivo nomina-1115.csv' });
    expect(screen.getByText(/Archivo aplicado: 3 pagos/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revertir' })).not.toBeInTheDocument();
    // Nor the report's link without the report.
    expect(screen.queryByRole('link', { name: 'Ver sus pagos en el Reporte de pagos' })).not.toBeInTheDocument();
  });

  it('hides Aplicar on a validated file without the apply permission', async () => {
    signIn(['/wallet/files-pay-list']);
    fileApi(sampleFile());
    show();
    await screen.findByLabelText('Totales del archivo');
    expect(screen.queryByRole('button', { name: 'Aplicar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Acciones del archivo' })).not.toBeInTheDocument();
  });

  it('offers Aplicar on a validated file to whom may apply, the same as the upload screen', async () => {
    signIn(['/wallet/files-pay-list', '/actions/wallet/apply-file']);
    fileApi(sampleFile());
    show();
    const actions = await screen.findByRole('group', { name: 'Acciones del archivo' });
    expect(
      within(actions)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Aplicar']);
  });

  it('tells a reverted file’s reason and who reverted it', async () => {
    signIn(['/wallet/files-pay-list', '/actions/wallet/revert-file', '/wallet/application-pay-list']);
    const reverted = fileRows.map((row) => (row.split === null ? row : { ...row, paymentStatus: 'revertido' as const }));
    fileApi(
      appliedFile({
        status: 'revertido',
        revertedBy: 'gerencia@demo.mx',
        revertedAt: '2026-11-17T15:00:00Z',
        statusReason: 'Importes duplicados',
      }),
      {},
      reverted,
    );
    show();
    const summary = await screen.findByLabelText('Resumen del archivo');
    expect(summary).toHaveTextContent('Revirtiógerencia@demo.mx · 17/11/2026 09:00');
    expect(summary).toHaveTextContent('MotivoImportes duplicados');
    await waitFor(() => expect(screen.getByText(/Archivo revertido/)).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Revertir' })).not.toBeInTheDocument();
    // What it had applied reads as undone, and so does each of its rows' payments.
    const totals = screen.getByLabelText('Totales del archivo');
    expect(totals).toHaveTextContent('Importe revertido$1,500.00');
    expect(totals).not.toHaveTextContent('Importe aplicado');
    const grid = await screen.findByRole('grid', { name: 'Filas: todos' });
    const first = (await within(grid).findByRole('link', { name: 'CR-000001' })).closest('[role="row"]') as HTMLElement;
    expect(within(first).getAllByRole('gridcell')[1]).toHaveTextContent('válidorevertido');
    expect(within(grid).getAllByText('revertido')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Ver sus pagos en el Reporte de pagos' })).toHaveAttribute(
      'href',
      `/wallet/application-pay-list?fileId=${FILE_ID}`,
    );
  });

  it('downloads the original as uploaded and the result workbook, named after the file', async () => {
    signIn(['/wallet/files-pay-list']);
    const calls = fileApi(appliedFile());
    const saved: string[] = [];
    // jsdom has no object URLs: the blob becomes a fixed one, and the anchor's click records the name it saves under.
    const { createObjectURL, revokeObjectURL } = URL;
    Object.assign(URL, { createObjectURL: () => 'blob:archivo', revokeObjectURL: () => undefined });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    show();
    await user.click(await screen.findByRole('button', { name: 'Descargar original' }));
    await waitFor(() => expect(saved).toEqual(['nomina-1115.csv']));
    await user.click(screen.getByRole('button', { name: 'Descargar resultado (Excel)' }));
    await waitFor(() => expect(saved).toEqual(['nomina-1115.csv', 'resultado-nomina-1115.xlsx']));
    expect(calls.map((c) => c.path).filter((path) => path.endsWith('/original') || path.endsWith('/result.xlsx'))).toEqual([
      `/api/payment-files/${FILE_ID}/original`,
      `/api/payment-files/${FILE_ID}/result.xlsx`,
    ]);
    click.mockRestore();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
  });

  it('says so when the file does not exist', async () => {
    signIn(['/wallet/files-pay-list']);
    stubApi(() => [404, { type: 'about:blank', title: 'No encontrado', status: 404 }]);
    show();
    expect(await screen.findByRole('heading', { name: 'No encontrado' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ir a Listado de archivos de pagos' })).toHaveAttribute('href', '/wallet/files-pay-list');
  });
});
