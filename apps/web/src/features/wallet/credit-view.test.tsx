import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Credit, CreditDeduction, CreditHistory, CreditInstallment, CreditPayment, LetterSummary } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import CreditViewScreen from './credit-view.screen';

const zero = {
  principal: '0.00',
  interest: '0.00',
  iva: '0.00',
  moratoryInterest: '0.00',
  moratoryIva: '0.00',
  fees: '0.00',
  feesIva: '0.00',
  total: '0.00',
};

const credit: Credit = {
  id: 'cr-1',
  folio: 'CR-000001',
  status: 'vigente',
  daysPastDue: 31,
  bucket: '31-60',
  businessDate: '2026-03-31',
  rfc: null,
  company: 'Financiera Demo',
  labels: [],
  requestId: 'r1',
  requestFolio: 'SOL-000007',
  clientId: 'c1',
  clientName: 'Enrique Peña Nieto',
  curp: 'PXNE660720HMCXTN06',
  agreementId: 'a1',
  agreement: 'Gobierno de Jalisco',
  employeeNumber: 'J-1001',
  product: { name: 'Nómina Jalisco 24', annualRatePct: '36', ivaRatePct: '16', openingFeePct: '2', openingFeeFinanced: false },
  frequency: 'quincenal',
  term: 2,
  amount: '2000.00',
  openingFee: '40.00',
  openingFeeIva: '6.40',
  principal: '2000.00',
  netDisbursed: '1960.00',
  installment: '1020.00',
  cat: '48.1',
  clabe: '012180001183597190',
  disbursementDate: '2026-02-11',
  firstDueDate: '2026-02-28',
  lastDueDate: '2026-03-15',
  // 990.00 + 25.86 + 4.14 + 1010.00 + 8.62 + 1.38 = 2040.00, plus 12.00 moratory and 1.92 of its IVA = 2053.92.
  balances: {
    principal: '2000.00',
    interest: '34.48',
    iva: '5.52',
    moratoryInterest: '12.00',
    moratoryIva: '1.92',
    fees: '0.00',
    feesIva: '0.00',
    total: '2053.92',
  },
  disbursedBy: 'tesoreria@demo.mx',
  createdAt: '2026-02-11T15:00:00Z',
  firstInstallment: { interest: '25.86', iva: '4.14' },
  // Period 1 (28/02) is past and period 2 (15/03) too: none is still to come at 31/03.
  nextDeduction: null,
  creditBalance: '0.00',
  paymentCount: 0,
  letterCount: 0,
  liquidationReason: null,
  renewedBy: null,
  renews: [],
};

/** The parts the tabs read, each by its own route. */
interface Parts {
  installments: CreditInstallment[];
  payments: CreditPayment[];
  deductions: CreditDeduction[];
  history: CreditHistory;
  letters: LetterSummary[];
}

const parts: Parts = {
  installments: [
    {
      number: 1,
      dueDate: '2026-02-28',
      principal: '990.00',
      interest: '25.86',
      iva: '4.14',
      payment: '1020.00',
      balance: '1010.00',
      status: 'vencida',
      deductionState: 'no aplicado',
      charged: {
        ...zero,
        principal: '990.00',
        interest: '25.86',
        iva: '4.14',
        moratoryInterest: '12.00',
        moratoryIva: '1.92',
        total: '1033.92',
      },
      paid: zero,
      outstanding: '1033.92',
    },
    {
      number: 2,
      dueDate: '2026-03-15',
      principal: '1010.00',
      interest: '8.62',
      iva: '1.38',
      payment: '1020.00',
      balance: '0.00',
      status: 'vencida',
      deductionState: 'en tránsito',
      charged: { ...zero, principal: '1010.00', interest: '8.62', iva: '1.38', total: '1020.00' },
      paid: zero,
      outstanding: '1020.00',
    },
  ],
  deductions: [
    { period: 1, discountDate: '2026-02-28', amount: '1020.00', state: 'no aplicado' },
    { period: 2, discountDate: '2026-03-15', amount: '1020.00', state: 'en tránsito' },
  ],
  payments: [],
  history: { history: [], labelHistory: [] },
  letters: [],
};

const PROBLEM_500 = { type: 'about:blank', title: 'Error', status: 500, detail: 'La base de datos no respondió.' };

/**
 * The API as the screen asks it: the view, each tab's part by its route (or an answer given instead, e.g. an error), and
 * a payoff that is never quoted.
 */
function portal(view: Credit, given: Partial<Record<keyof Parts, unknown>> = {}) {
  const answers: Record<keyof Parts, unknown> = {
    installments: { items: parts.installments },
    payments: { items: parts.payments },
    deductions: { items: parts.deductions },
    history: parts.history,
    letters: { items: parts.letters },
    ...given,
  };
  return (_method: string, path: string) => {
    if (path.includes('/payoff')) return [400, { type: 'about:blank', title: 'x', status: 400, detail: 'sin cotización' }];
    const route = new URL(path, 'http://portal').pathname;
    if (route.endsWith('/settlement-letters')) return answers.letters;
    for (const part of ['installments', 'payments', 'deductions', 'history'] as const) if (route.endsWith(`/${part}`)) return answers[part];
    return view;
  };
}

describe('credit view', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession());
    return () => vi.unstubAllGlobals();
  });

  const open = (url = '/wallet/credits/credits-view/cr-1') =>
    renderScreen(<CreditViewScreen />, { path: '/wallet/credits/credits-view/:id', url });

  it('heads the view with status, days past due, bucket, balance and the next discount, above the summary', async () => {
    stubApi(portal(credit));
    open();
    expect(await screen.findByRole('heading', { name: 'Crédito CR-000001' })).toBeInTheDocument();
    const header = screen.getByLabelText('Estado del crédito');
    expect(
      within(header)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual(['Días de atraso', 'Tramo', 'Saldo', 'Próximo descuento', 'Fecha flujo']);
    expect(
      within(header)
        .getAllByRole('definition')
        .map((value) => value.textContent),
    ).toEqual([
      '31',
      '31 a 60 días',
      '$2,053.92',
      // Period 1 (28/02) is past and period 2 (15/03) too: none is still to come at 31/03.
      'Sin descuentos por venir',
      '31/03/2026',
    ]);
    expect(screen.getByRole('tab', { name: 'Resumen' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('Resumen del crédito')).toHaveTextContent('Monto dispersado$1,960.00');
    expect(screen.getByLabelText('Saldos del crédito')).toHaveTextContent('Moratorios$12.00');
    expect(screen.getByLabelText('Saldos del crédito')).toHaveTextContent('Total$2,053.92');
  });

  it('links a renewed credit to the credit that renewed it, says why it was liquidated, and offers no renewal', async () => {
    stubApi(
      portal({
        ...credit,
        status: 'liquidado',
        liquidationReason: 'renovacion',
        renewedBy: { id: 'cr-9', folio: 'CR-000009' },
      }),
    );
    open();
    const header = await screen.findByLabelText('Estado del crédito');
    expect(within(header).getByText('Liquidado por').nextSibling).toHaveTextContent('Renovación');
    expect(within(header).getByRole('link', { name: 'CR-000009' })).toHaveAttribute('href', '/wallet/credits/credits-view/cr-9');
    expect(screen.queryByRole('link', { name: 'Renovar' })).not.toBeInTheDocument();
  });

  it('links a renewal to the credits it renewed, and an active credit offers Renovar with itself named', async () => {
    stubApi(portal({ ...credit, renews: [{ id: 'cr-3', folio: 'CR-000003' }] }));
    open();
    const header = await screen.findByLabelText('Estado del crédito');
    expect(within(header).getByText('Renueva a').nextSibling).toHaveTextContent('CR-000003');
    expect(screen.getByRole('link', { name: 'Renovar' })).toHaveAttribute('href', '/origination/request-new?renews=cr-1');
  });

  it('names the next deduction the view answers: its date and amount', async () => {
    stubApi(portal({ ...credit, nextDeduction: { period: 3, discountDate: '2026-04-15', amount: '1020.00' } }));
    open();
    const header = await screen.findByLabelText('Estado del crédito');
    expect(within(header).getByText('Próximo descuento').nextSibling).toHaveTextContent('15/04/2026 · $1,020.00');
    expect(screen.getByLabelText('Resumen del crédito')).toHaveTextContent('interés $25.86 + IVA $4.14');
  });

  it('shows the schedule once, each row with what it charged, what was paid of it and its deduction; the URL keeps the tab', async () => {
    const calls = stubApi(portal(credit));
    const router = open();
    await userEvent.click(await screen.findByRole('tab', { name: 'Calendario de pagos' }));
    expect(router.state.location.search).toBe('?tab=calendario');
    const rows = within(await screen.findByRole('table', { name: 'Calendario de pagos' })).getAllByRole('row');
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole(row.querySelector('th') ? 'columnheader' : 'cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['No.', 'Fecha de descuento', 'Capital', 'Interés', 'IVA', 'Pago', 'Saldo', 'Cargado', 'Pagado', 'Pendiente', 'Estado', 'Descuento'],
      [
        '1',
        '28/02/2026',
        '$990.00',
        '$25.86',
        '$4.14',
        '$1,020.00',
        '$1,010.00',
        '$1,033.92',
        '$0.00',
        '$1,033.92',
        'vencida',
        'no aplicado',
      ],
      ['2', '15/03/2026', '$1,010.00', '$8.62', '$1.38', '$1,020.00', '$0.00', '$1,020.00', '$0.00', '$1,020.00', 'vencida', 'en tránsito'],
    ]);
    expect(screen.queryByRole('table', { name: 'Tabla de amortización' })).toBeNull();
    await userEvent.click(screen.getByRole('tab', { name: 'Descuentos' }));
    expect(router.state.location.search).toBe('?tab=descuentos');
    const deductions = within(await screen.findByRole('table', { name: 'Descuentos del crédito' })).getAllByRole('row');
    expect(deductions.at(-1)).toHaveTextContent('215/03/2026$1,020.00en tránsito');
    // Each tab read its own part, once; the tabs not opened read nothing.
    const paths = calls.map((call) => new URL(call.path, 'http://portal').pathname);
    expect(paths.filter((path) => path.endsWith('/installments'))).toHaveLength(1);
    expect(paths.filter((path) => path.endsWith('/deductions'))).toHaveLength(1);
    expect(paths.some((path) => /\/(payments|history|settlement-letters)$/.test(path))).toBe(false);
  });

  it('shows a tab loading while its part is on its way, and the reason in Spanish if it cannot be read', async () => {
    let release: (answer: unknown) => void = () => undefined;
    const schedule = new Promise((resolve) => (release = resolve));
    const answer = portal(credit, { payments: [500, PROBLEM_500] });
    vi.stubGlobal('fetch', async (input: string) => {
      const result = new URL(input, 'http://portal').pathname.endsWith('/installments') ? await schedule : answer('GET', input);
      const [status, body] = Array.isArray(result) && typeof result[0] === 'number' ? (result as [number, unknown]) : [200, result];
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    });
    open('/wallet/credits/credits-view/cr-1?tab=calendario');
    expect(await screen.findByRole('progressbar', { name: 'Cargando el calendario de pagos' })).toBeInTheDocument();
    // The header is there already: it does not wait for the schedule.
    expect(screen.getByLabelText('Estado del crédito')).toHaveTextContent('$2,053.92');
    release({ items: parts.installments });
    expect(await screen.findByRole('table', { name: 'Calendario de pagos' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Cargando el calendario de pagos' })).toBeNull();

    await userEvent.click(screen.getByRole('tab', { name: 'Pagos (0)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error al cargar los pagos: La base de datos no respondió.');
    expect(screen.queryByRole('table', { name: 'Pagos del crédito' })).toBeNull();
  });

  it('opens the tab the URL names, and pages a long schedule', async () => {
    const row = parts.installments[1]!;
    stubApi(
      portal(
        { ...credit, term: 30 },
        { installments: { items: Array.from({ length: 30 }, (_, index) => ({ ...row, number: index + 1 })) } },
      ),
    );
    open('/wallet/credits/credits-view/cr-1?tab=calendario');
    expect(await screen.findByRole('tab', { name: 'Calendario de pagos' })).toHaveAttribute('aria-selected', 'true');
    const table = () => screen.getByRole('table', { name: 'Calendario de pagos' });
    await screen.findByRole('table', { name: 'Calendario de pagos' });
    // 13 rows a page, under the header.
    expect(within(table()).getAllByRole('row')).toHaveLength(14);
    expect(screen.getByText('1–13 de 30')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Página siguiente' }));
    expect(within(within(table()).getAllByRole('row')[1]!).getAllByRole('cell')[0]).toHaveTextContent('14');
  });

  it('shows the label history: each change with who, when and the update it came from', async () => {
    const history: CreditHistory = {
      history: [],
      labelHistory: [
        {
          id: 2,
          label: 'Jurídico',
          action: 'agregar',
          actorEmail: 'cartera@demo.mx',
          occurredAt: '2026-03-20T18:30:00.000Z',
          jobId: '9a8b7c6d-0000-4000-8000-000000000002',
          source: 'archivo',
          fileName: 'juridico.csv',
        },
        {
          id: 1,
          label: 'Cobranza',
          action: 'quitar',
          actorEmail: 'cartera@demo.mx',
          occurredAt: '2026-03-20T18:30:00.000Z',
          jobId: '9a8b7c6d-0000-4000-8000-000000000002',
          source: 'archivo',
          fileName: 'juridico.csv',
        },
      ],
    };
    stubApi(portal({ ...credit, labels: ['Jurídico'] }, { history }));
    open('/wallet/credits/credits-view/cr-1?tab=etiquetas');
    expect(await screen.findByRole('listitem')).toHaveTextContent('Jurídico');
    const rows = within(await screen.findByRole('table', { name: 'Historial de etiquetas' })).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'FechaEtiquetaAcciónUsuarioOrigen',
      expect.stringMatching(/^20\/03\/2026.*JurídicoAgregadacartera@demo\.mxArchivo juridico\.csv · actualización 9a8b7c6d$/),
      expect.stringMatching(/CobranzaQuitadacartera@demo\.mxArchivo juridico\.csv · actualización 9a8b7c6d$/),
    ]);
  });

  it('lists the settlement letters with their date, validity, amount, template, who issued them and a download', async () => {
    const letters: LetterSummary[] = [
      {
        id: 'l2',
        creditId: 'cr-1',
        number: 2,
        reference: '00000001000219',
        issuedAt: '2026-03-31T16:05:00.000Z',
        quoteDate: '2026-03-31',
        validUntil: '2026-04-07',
        totalAmount: '2053.92',
        brand: 'Financiera Demo',
        templateVersion: 2,
        pdfSha256: 'ab'.repeat(32),
        issuedBy: 'cartera@demo.mx',
      },
    ];
    stubApi(portal({ ...credit, letterCount: 1 }, { letters: { items: letters } }));
    open('/wallet/credits/credits-view/cr-1?tab=cartas');
    expect(await screen.findByRole('tab', { name: 'Cartas (1)' })).toHaveAttribute('aria-selected', 'true');
    const rows = within(await screen.findByRole('table', { name: 'Cartas de liquidación' })).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'EmitidaVigenciaImporteReferenciaPlantillaEmitió',
      '31/03/2026 10:0507/04/2026$2,053.9200000001000219Financiera Demo v2cartera@demo.mxDescargar',
    ]);
    expect(screen.getByRole('button', { name: 'Descargar la carta 00000001000219' })).toBeInTheDocument();
  });

  it('says so when the credit has no letters', async () => {
    stubApi(portal(credit));
    open();
    await userEvent.click(await screen.findByRole('tab', { name: 'Cartas (0)' }));
    expect(await screen.findByText('Sin cartas de liquidación emitidas.')).toBeInTheDocument();
  });

  it('lists the payments with their source and split, unfolds where each peso went, and shows the saldo a favor', async () => {
    const split = {
      principal: '990.00',
      interest: '25.86',
      iva: '4.14',
      moratoryInterest: '12.00',
      moratoryIva: '1.92',
      fees: '0.00',
      feesIva: '0.00',
      overpayment: '0.00',
    };
    const payments: CreditPayment[] = [
      {
        id: 'pay-1',
        valueDate: '2026-03-15',
        amount: '1033.92',
        source: 'Archivo nomina-0315.csv, línea 12',
        fileId: 'file-1',
        status: 'aplicado',
        appliedAt: '2026-03-16T17:00:00Z',
        split,
        allocation: [
          { installment: 1, component: 'moratoryInterest', amount: '12.00', step: 'due' },
          { installment: 1, component: 'moratoryIva', amount: '1.92', step: 'due' },
          { installment: 1, component: 'interest', amount: '25.86', step: 'accrued' },
          { installment: 1, component: 'iva', amount: '4.14', step: 'accrued' },
          { installment: 1, component: 'principal', amount: '990.00', step: 'due' },
        ],
      },
    ];
    stubApi(portal({ ...credit, creditBalance: '15.50', paymentCount: 1 }, { payments: { items: payments } }));
    open();
    expect(await screen.findByLabelText('Resumen del crédito')).toHaveTextContent('Saldo a favor$15.50');
    await userEvent.click(screen.getByRole('tab', { name: 'Pagos (1)' }));
    const section = screen.getByRole('tabpanel', { name: 'Pagos (1)' });
    expect(within(section).getByText(/Saldo a favor:/)).toHaveTextContent('Saldo a favor: $15.50');
    const table = await within(section).findByRole('table', { name: 'Pagos del crédito' });
    const [, row] = within(table).getAllByRole('row');
    expect(
      within(row!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      '',
      '15/03/2026',
      '$1,033.92',
      'Archivo nomina-0315.csv, línea 12',
      'aplicado',
      '$990.00',
      '$25.86',
      '$4.14',
      '$13.92',
      '$0.00',
      '$0.00',
    ]);
    expect(within(row!).getByRole('link', { name: 'Archivo nomina-0315.csv, línea 12' })).toHaveAttribute(
      'href',
      '/wallet/files-pay-detail/file-1',
    );

    const toggle = within(row!).getByRole('button', { name: 'Reparto del pago del 15/03/2026 por $1,033.92' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    const lines = within(screen.getByRole('table', { name: 'Reparto del pago del 15/03/2026 por $1,033.92' })).getAllByRole('row');
    expect(lines.map((line) => line.textContent)).toEqual([
      'AmortizaciónConceptoImportePaso',
      '1Moratorios$12.00Exigible',
      '1IVA de moratorios$1.92Exigible',
      '1Interés$25.86Devengado del periodo',
      '1IVA del interés$4.14Devengado del periodo',
      '1Capital$990.00Exigible',
    ]);
  });

  it('asks the payoff quote only when Liquidación is opened, at the fecha flujo', async () => {
    const calls = stubApi(portal(credit));
    open();
    expect(await screen.findByLabelText('Resumen del crédito')).toBeInTheDocument();
    expect(calls.some((call) => call.path.includes('/payoff'))).toBe(false);
    await userEvent.click(screen.getByRole('tab', { name: 'Liquidación' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('sin cotización');
    expect(calls.find((call) => call.path.includes('/payoff'))?.path).toContain('date=2026-03-31');
  });

  it('says so when the credit does not exist', async () => {
    stubApi(() => [404, { type: 'about:blank', title: 'No encontrado', status: 404 }]);
    renderScreen(<CreditViewScreen />, { path: '/wallet/credits/credits-view/:id', url: '/wallet/credits/credits-view/nope' });
    expect(await screen.findByRole('heading', { name: 'No encontrado' })).toBeInTheDocument();
    expect(screen.getByText(/El crédito no existe/)).toBeInTheDocument();
  });
});
