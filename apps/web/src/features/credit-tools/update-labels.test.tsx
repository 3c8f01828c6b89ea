import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreditListItem, LabelUpdatePreview, LabelUpdateRow } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import UpdateLabelsScreen from './update-labels.screen';
// The date filters' picker is loaded lazily by the app; loaded here first, so its cold transform is no test's time.
import '../../components/date-field';

const credit = (number: number, clientName: string): CreditListItem => ({
  id: `cr-${number}`,
  folio: `CR-0000000${number}`,
  clientName,
  curp: 'LOPA900101MJCPRN09',
  agreement: 'Gobierno de Jalisco',
  company: 'Financiera Demo',
  principal: '10000.00',
  outstandingBalance: '8500.50',
  installment: '520.00',
  nextDiscountDate: '2026-12-15',
  daysPastDue: 45,
  bucket: '31-60',
  status: 'vencido',
  labels: [],
  disbursementDate: '2026-01-10',
});

const catalogue = {
  items: [
    { id: 'l1', companyId: 'c1', company: 'Financiera Demo', name: 'Cobranza', color: '#e65100' },
    { id: 'l2', companyId: 'c1', company: 'Financiera Demo', name: 'Jurídico', color: '#b71c1c' },
  ],
};

const row = (line: number, folio: string, outcome: LabelUpdateRow['outcome'], message: string | null = null): LabelUpdateRow => ({
  line,
  folio,
  label: 'Cobranza',
  action: 'agregar',
  outcome,
  message,
  creditId: outcome === 'aplicable' ? `cr-${line}` : null,
  clientName: outcome === 'aplicable' ? 'Ana López Pérez' : null,
  company: null,
});

const preview: LabelUpdatePreview = {
  rows: [row(1, 'CR-00000001', 'aplicable'), row(2, 'CR-00000002', 'ya tiene la etiqueta', 'El crédito ya tiene la etiqueta Cobranza.')],
  applicable: 1,
  rejected: 1,
};

const user = userEvent.setup();

/** Just enough of XMLHttpRequest for the file's upload: answers it at once with the rows read. */
class FakeUpload {
  static sent: { url: string; body: FormData } | null = null;
  static answer: unknown = null;
  url = '';
  status = 0;
  responseText = '';
  upload = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  send(body: FormData) {
    FakeUpload.sent = { url: this.url, body };
    this.status = 200;
    this.responseText = JSON.stringify(FakeUpload.answer);
    queueMicrotask(() => this.onload?.());
  }
}

describe('Actualizar Etiqueta', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: '/creditos/update-labels' }] }));
    return () => vi.unstubAllGlobals();
  });

  function api() {
    return stubApi((method, path) => {
      if (path.startsWith('/api/credits/agreement-options')) return [];
      if (path.startsWith('/api/credits?')) return { items: [credit(1, 'Ana López Pérez'), credit(2, 'Luis Soto Ruiz')], total: 2 };
      if (path === '/api/labels') return catalogue;
      if (method === 'POST' && path === '/api/label-updates/preview') return preview;
      if (method === 'POST' && path === '/api/label-updates')
        return [
          201,
          {
            ...preview,
            job: {
              id: '0f6c2a9e-1111-4222-8333-444455556666',
              source: 'selección',
              fileName: null,
              rowsTotal: 2,
              applied: 1,
              createdBy: 'cartera@demo.mx',
              createdAt: '2026-11-23T15:00:00.000Z',
            },
          },
        ];
      return [404, { type: 'about:blank', title: 'No encontrado', status: 404 }];
    });
  }

  it('previews the label for the checked credits, shows every row outcome and applies after confirming', async () => {
    const calls = api();
    renderScreen(<UpdateLabelsScreen />, { path: '/creditos/update-labels' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Actualizar Etiqueta' })).toBeInTheDocument();
    await screen.findByText('CR-00000001');
    const preview = screen.getByRole('button', { name: 'Vista previa' });
    expect(preview).toBeDisabled();

    const grid = screen.getByRole('grid', { name: 'Créditos para etiquetar' });
    const checkboxes = within(grid).getAllByRole('checkbox', { name: /seleccionar fila/i });
    await user.click(checkboxes[0]!);
    await user.click(checkboxes[1]!);
    expect(screen.getByText('2 créditos seleccionados')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Etiqueta' }));
    await user.click(await screen.findByRole('option', { name: 'Cobranza' }));
    await user.click(preview);

    const result = await screen.findByRole('table', { name: 'Resultado por fila' });
    expect(within(result).getByText('Se agregará')).toBeInTheDocument();
    expect(within(result).getByText('ya tiene la etiqueta')).toBeInTheDocument();
    expect(within(result).getByText('El crédito ya tiene la etiqueta Cobranza.')).toBeInTheDocument();
    const sent = calls.find((call) => call.path === '/api/label-updates/preview')!;
    expect(sent.body).toEqual({
      source: 'selección',
      fileName: null,
      rows: [
        { line: 1, folio: 'CR-00000001', label: 'Cobranza', action: 'agregar' },
        { line: 2, folio: 'CR-00000002', label: 'Cobranza', action: 'agregar' },
      ],
    });

    await user.click(screen.getByRole('button', { name: 'Aplicar' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Se aplicará 1 cambio de etiqueta; queda en el historial del crédito.');
    // An action that cannot be taken back: "No" has the focus, so Enter does no harm.
    expect(within(dialog).getByRole('button', { name: 'No' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Sí' }));
    expect(await screen.findByText('Se aplicó 1 cambio de etiqueta (actualización 0f6c2a9e).')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST' && call.path === '/api/label-updates')!.body).toEqual(sent.body);
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Resultado por fila' })).not.toBeInTheDocument());
    expect(screen.getByText('Marca los créditos en la lista.')).toBeInTheDocument();
  });

  it('reads a file and previews its rows by line, named after the file', async () => {
    const calls = api();
    const fileRows = [
      { line: 2, folio: 'CR-00000001', label: 'Cobranza', action: 'agregar' },
      { line: 3, folio: 'CR-99999999', label: 'Cobranza', action: 'agregar' },
    ];
    FakeUpload.answer = { fileName: 'etiquetas.csv', rows: fileRows };
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    renderScreen(<UpdateLabelsScreen />, { path: '/creditos/update-labels' });
    await screen.findByText('CR-00000001');

    await user.upload(
      screen.getByLabelText('Archivo de etiquetas'),
      new File(['folio,etiqueta,acción\n'], 'etiquetas.csv', { type: 'text/csv' }),
    );
    expect(FakeUpload.sent?.url).toBe('/api/label-updates/file');
    expect((FakeUpload.sent?.body.get('file') as File).name).toBe('etiquetas.csv');
    expect(await screen.findByRole('table', { name: 'Resultado por fila' })).toBeInTheDocument();
    expect(screen.getByText(/archivo etiquetas\.csv/)).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/api/label-updates/preview')!.body).toEqual({
      source: 'archivo',
      fileName: 'etiquetas.csv',
      rows: fileRows,
    });
  });
});
