import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreditListItem, Letter, LetterQuote } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import SettlementLetterScreen from './settlement-letter.screen';

const found: CreditListItem = {
  id: 'cr-7',
  folio: 'CR-00000007',
  clientName: 'Ana López Pérez',
  curp: 'LOPA900101MJCPRN09',
  agreement: 'Gobierno de Jalisco',
  company: 'Financiera Demo',
  principal: '10000.00',
  outstandingBalance: '8500.50',
  installment: '513.27',
  nextDiscountDate: '2026-11-30',
  daysPastDue: 0,
  bucket: 'current',
  status: 'vigente',
  labels: [],
  disbursementDate: '2026-01-10',
};

const quote = (validUntil: string): LetterQuote => ({
  creditId: 'cr-7',
  folio: 'CR-00000007',
  clientName: 'Ana López Pérez',
  curp: 'LOPA900101MJCPRN09',
  agreement: 'Gobierno de Jalisco',
  companyId: 'c1',
  company: 'Financiera Demo',
  status: 'vigente',
  businessDate: '2026-11-23',
  validityBusinessDays: 5,
  defaultValidUntil: '2026-11-30',
  payoff: {
    quoteDate: '2026-11-23',
    validUntil,
    outstandingPrincipal: '8200.00',
    dueInterest: '0.00',
    dueIva: '0.00',
    dueFees: '0.00',
    dueFeesIva: '0.00',
    dueMoratoryInterest: '0.00',
    dueMoratoryIva: '0.00',
    accruedInterest: '120.00',
    accruedIva: '19.20',
    grossBalance: '8339.20',
    inTransit: '513.27',
    finalBalance: '7825.93',
    discountDate: '2026-11-30',
    pendingDeduction: '513.27',
    totalAmount: '7312.66',
    surplus: '0.00',
    creditAmount: '10000.00',
    term: 24,
    paymentsMade: 4,
    installment: '513.27',
    inTransitCount: 1,
    pendingDeductions: [{ installment: 6, discountDate: '2026-11-30', amount: '513.27' }],
  },
  template: { id: 't1', version: 1 },
});

const letter: Letter = {
  id: 'l1',
  creditId: 'cr-7',
  number: 1,
  reference: '00000007000186',
  issuedAt: '2026-11-23T15:00:00.000Z',
  quoteDate: '2026-11-23',
  validUntil: '2026-11-30',
  totalAmount: '7312.66',
  brand: 'Financiera Demo',
  templateVersion: 1,
  pdfSha256: 'ab'.repeat(32),
  issuedBy: 'cartera@demo.mx',
  folio: 'CR-00000007',
  texts: {} as Letter['texts'],
  payoff: quote('2026-11-30').payoff,
  pdfSize: 3000,
};

const user = userEvent.setup();

describe('Carta de Liquidación Anticipada', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: '/creditos/settlement-letter' }, { path: '/actions/credit-tools/issue-letter' }] }));
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:carta', revokeObjectURL: () => undefined }));
    return () => vi.unstubAllGlobals();
  });

  function api() {
    let issued = false;
    return stubApi((method, path) => {
      if (path.startsWith('/api/credits?')) return { items: [found], total: 1 };
      if (path.startsWith('/api/credits/cr-7/settlement-quote'))
        return quote(new URLSearchParams(path.split('?')[1] ?? '').get('validUntil') ?? '2026-11-30');
      if (method === 'POST' && path === '/api/credits/cr-7/settlement-letters') {
        issued = true;
        return [201, letter];
      }
      if (path === '/api/credits/cr-7/settlement-letters') return { items: issued ? [letter] : [] };
      if (path === '/api/settlement-letters/l1/pdf') return '%PDF-1.7';
      return [404, { type: 'about:blank', title: 'No encontrado', status: 404 }];
    });
  }

  it('finds a credit, quotes it at the default validity with every component, generates the letter after confirming and previews it', async () => {
    const calls = api();
    renderScreen(<SettlementLetterScreen />, { path: '/creditos/settlement-letter' });
    expect(screen.getByRole('heading', { level: 1, name: 'Carta de Liquidación Anticipada' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Folio, CURP o nombre' }), 'LOPA900101');
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    expect(calls.some((call) => call.path === '/api/credits?q=LOPA900101&pageSize=10')).toBe(true);
    // The only match is picked, with no "Elegir" to press.
    expect(await screen.findByRole('button', { name: 'Elegir CR-00000007' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Elegir CR-00000007' })).toHaveTextContent('Elegido');

    const details = await screen.findByLabelText('Liquidación a la vigencia');
    expect(details).toHaveTextContent('Capital insoluto$8,200.00');
    expect(details).toHaveTextContent('Interés del periodo a la vigencia$120.00 + IVA $19.20');
    expect(details).toHaveTextContent('En tránsito− $513.27 (1 descuento sin remitir)');
    expect(details).toHaveTextContent('Descuento dentro de la vigencia− $513.27 (30/11/2026)');
    expect(details).toHaveTextContent('Importe total a liquidar$7,312.66');
    expect(details).toHaveTextContent('PlantillaFinanciera Demo, versión 1');
    expect(screen.getByText('Sin cartas de liquidación emitidas.')).toBeInTheDocument();
    // The date field takes the company's default validity.
    await waitFor(() => expect(screen.getByRole('group', { name: 'Vigencia de la carta' })).toHaveTextContent('30/11/2026'));

    await user.click(screen.getByRole('button', { name: 'Generar carta' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      'Se emitirá la carta de liquidación del crédito CR-00000007 por $7,312.66, vigente hasta el 30/11/2026.',
    );
    // An action that cannot be taken back: "No" has the focus, so Enter does no harm.
    expect(within(dialog).getByRole('button', { name: 'No' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Sí' }));

    expect(await screen.findByTitle('Vista previa de la carta')).toHaveAttribute('src', 'blob:carta');
    expect(screen.getByLabelText('Importe de la carta')).toHaveTextContent('$7,312.66');
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({ validUntil: '2026-11-30' });
    const rows = within(await screen.findByRole('table', { name: 'Cartas del crédito' })).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('00000007000186');
  });

  it('does not offer "Generar carta" without the issue-letter action', async () => {
    saveSession(sampleSession({ permissions: [{ path: '/creditos/settlement-letter' }] }));
    api();
    renderScreen(<SettlementLetterScreen />, { path: '/creditos/settlement-letter' });
    await user.type(screen.getByRole('textbox', { name: 'Folio, CURP o nombre' }), 'CR-7');
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    expect(await screen.findByRole('button', { name: 'Elegir CR-00000007' })).toHaveTextContent('Elegido');
    await screen.findByLabelText('Liquidación a la vigencia');
    expect(screen.queryByRole('button', { name: 'Generar carta' })).not.toBeInTheDocument();
    expect(screen.queryByText('Plantillas de carta')).not.toBeInTheDocument();
  });

  it('shows the reasons the API gives for a template it refuses', async () => {
    saveSession(
      sampleSession({ permissions: [{ path: '/creditos/settlement-letter' }, { path: '/actions/credit-tools/upload-letter-template' }] }),
    );
    stubApi((_method, path) =>
      path === '/api/letter-templates'
        ? { items: [{ companyId: 'c1', company: 'Financiera Demo', validityBusinessDays: 5, versions: [] }] }
        : [404, { type: 'about:blank', title: 'x', status: 404 }],
    );
    class RefusedUpload {
      status = 400;
      responseText = JSON.stringify({
        type: 'about:blank',
        title: 'Plantilla no válida',
        status: 400,
        errors: [{ field: 'layout.fields.referencia', message: 'Falta el campo referencia (Referencia de pago).' }],
      });
      upload = { onprogress: null };
      onload: (() => void) | null = null;
      open() {}
      setRequestHeader() {}
      send() {
        queueMicrotask(() => this.onload?.());
      }
    }
    vi.stubGlobal('XMLHttpRequest', RefusedUpload);
    renderScreen(<SettlementLetterScreen />, { path: '/creditos/settlement-letter' });
    expect(await screen.findByText('Sin plantilla.')).toBeInTheDocument();
    await user.upload(screen.getByLabelText('PDF de fondo'), new File(['%PDF-1.7'], 'fondo.pdf', { type: 'application/pdf' }));
    await user.upload(screen.getByLabelText('Layout JSON'), new File(['{}'], 'layout.json', { type: 'application/json' }));
    await user.click(screen.getByRole('button', { name: 'Subir versión' }));
    const problems = await screen.findByRole('list', { name: 'Problemas de la plantilla' });
    expect(problems).toHaveTextContent('Falta el campo referencia (Referencia de pago).');
  });
});
