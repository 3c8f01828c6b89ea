import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentBatch, PaymentBatchLine, Refund, RefundCandidate } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import PaymentBatchScreen from './payment-batch.screen';
import RefundsScreen from './refunds.screen';

const BATCH_ID = '4f0c2a8e-2d1b-4c33-9a51-0b7f3c1d2e10';

const batch = (overrides: Partial<PaymentBatch> = {}): PaymentBatch => ({
  id: BATCH_ID,
  folio: 'LT-000012',
  status: 'por autorizar',
  sourceAccount: '002010077777777771',
  orderCount: 2,
  total: '15234.57',
  settledCount: 0,
  rejectedCount: 0,
  generatedBy: 'tesoreria@demo.mx',
  generatedAt: '2026-11-23T16:00:00.000Z',
  authorizedBy: null,
  authorizedAt: null,
  ...overrides,
});

const line = (overrides: Partial<PaymentBatchLine> = {}): PaymentBatchLine => ({
  line: 1,
  orderId: 'o1',
  orderFolio: 'OP-000001',
  kind: 'dispersión',
  creditFolio: 'CR-00000123',
  beneficiary: 'José Núñez Peña',
  clabe: '012180001234567899',
  amount: '15000.00',
  concept: 'DISPERSION CREDITO 00000123',
  reference: '0000123',
  trackingKey: 'T00000012000001',
  result: 'pendiente',
  reason: null,
  settledOn: null,
  ...overrides,
});

const candidate: RefundCandidate = {
  creditId: 'c7',
  creditFolio: 'CR-00000077',
  client: 'María Gómez',
  clabe: '012180001234567899',
  creditBalance: '500.00',
  committed: '0.00',
  available: '500.00',
  since: '2026-11-16',
};

const refund = (overrides: Partial<Refund> = {}): Refund => ({
  id: 'r1',
  folio: 'DV-000001',
  creditId: 'c7',
  creditFolio: 'CR-00000077',
  client: 'María Gómez',
  amount: '300.00',
  clabe: '012180001234567899',
  clabeSource: 'expediente',
  evidence: null,
  status: 'solicitada',
  orderStatus: null,
  lastRejectionReason: null,
  declineReason: null,
  requestedBy: 'cartera@demo.mx',
  requestedAt: '2026-11-23T16:00:00.000Z',
  decidedBy: null,
  decidedAt: null,
  ...overrides,
});

const page = <T,>(items: T[]) => ({ items, total: items.length, totalCapped: false });

describe('Tesorería screens', () => {
  beforeEach(() => {
    resetSessionCache();
    return () => vi.unstubAllGlobals();
  });

  it('authorizes a batch only after a confirmation whose No holds the focus, then offers the bank file and the result', async () => {
    saveSession(sampleSession({ permissions: [{ path: '/treasury/payment-orders' }, { path: '/actions/treasury/authorize-batch' }] }));
    let authorized = false;
    const calls = stubApi((method, path) => {
      if (method === 'POST' && path.endsWith('/authorize')) {
        authorized = true;
        return batch({ status: 'autorizado', authorizedBy: 'admin@demo.mx', authorizedAt: '2026-11-23T17:00:00.000Z' });
      }
      if (method === 'POST' && path.endsWith('/results')) return { batch: batch({ status: 'cerrado' }), settled: 0, rejected: 1 };
      if (path.endsWith('/lines')) return { items: [line()] };
      return authorized
        ? batch({ status: 'autorizado', authorizedBy: 'admin@demo.mx', authorizedAt: '2026-11-23T17:00:00.000Z' })
        : batch();
    });
    renderScreen(<PaymentBatchScreen />, { path: '/treasury/payment-orders/:id', url: `/treasury/payment-orders/${BATCH_ID}` });
    const summary = await screen.findByLabelText('Resumen del lote');
    expect(within(summary).getByText('$15,234.57')).toBeInTheDocument();
    expect(await screen.findByText('T00000012000001')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Descargar archivo del banco' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Autorizar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Autorizar lote' });
    expect(within(dialog).getByRole('button', { name: 'No' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'No' }));
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await userEvent.click(await screen.findByRole('button', { name: 'Autorizar' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Autorizar lote' })).getByRole('button', { name: 'Sí' }));
    expect(await screen.findByText('Lote autorizado: descarga el archivo y envíalo al banco.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Descargar archivo del banco' })).toBeInTheDocument();

    // A rejection needs its reason before it can be registered.
    await userEvent.click(screen.getByRole('button', { name: 'Registrar resultado' }));
    const results = await screen.findByRole('dialog', { name: 'Registrar resultado' });
    await userEvent.click(within(results).getByLabelText('Resultado de T00000012000001'));
    await userEvent.click(await screen.findByRole('option', { name: 'Rechazada' }));
    expect(within(results).getByRole('button', { name: 'Registrar' })).toBeDisabled();
    await userEvent.type(within(results).getByLabelText('Motivo de T00000012000001'), 'Cuenta cancelada');
    await userEvent.click(within(results).getByRole('button', { name: 'Registrar' }));
    expect(await screen.findByText('Resultado registrado: 0 liquidadas, 1 rechazadas.')).toBeInTheDocument();
    const posted = calls.find((call) => call.path.endsWith('/results'));
    expect(posted?.body).toEqual({ lines: [{ trackingKey: 'T00000012000001', result: 'rechazada', reason: 'Cuenta cancelada' }] });
  });

  it('hides Autorizar from a user without the action permission', async () => {
    saveSession(sampleSession({ permissions: [{ path: '/treasury/payment-orders' }] }));
    stubApi((_method, path) => (path.endsWith('/lines') ? { items: [line()] } : batch()));
    renderScreen(<PaymentBatchScreen />, { path: '/treasury/payment-orders/:id', url: `/treasury/payment-orders/${BATCH_ID}` });
    expect(await screen.findByLabelText('Resumen del lote')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Autorizar' })).not.toBeInTheDocument();
  });

  it('requests a refund of a saldo a favor and approves another person’s after a confirmation whose No holds the focus', async () => {
    saveSession(
      sampleSession({
        permissions: [{ path: '/wallet/refunds' }, { path: '/actions/wallet/request-refund' }, { path: '/actions/wallet/approve-refund' }],
      }),
    );
    const calls = stubApi((method, path) => {
      if (method === 'POST' && path.endsWith('/decision')) return refund({ status: 'aprobada', orderStatus: 'por enviar' });
      if (method === 'POST') return [201, refund()];
      if (path.includes('/refunds/candidates')) return page([candidate]);
      return page([refund()]);
    });
    renderScreen(<RefundsScreen />, { path: '/wallet/refunds' });
    const grid = await screen.findByRole('grid', { name: 'Créditos con saldo a favor' });
    expect(await within(grid).findByText('CR-00000077')).toBeInTheDocument();
    await userEvent.click(within(grid).getByRole('button', { name: 'Solicitar devolución' }));
    const dialog = await screen.findByRole('dialog', { name: 'Solicitar devolución' });
    const amount = within(dialog).getByLabelText('Importe a devolver');
    await userEvent.clear(amount);
    await userEvent.type(amount, '300');
    await userEvent.click(within(dialog).getByLabelText('Otra CLABE, con su evidencia'));
    expect(within(dialog).getByRole('button', { name: 'Solicitar' })).toBeDisabled();
    await userEvent.click(within(dialog).getByLabelText(/CLABE del expediente/));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Solicitar' }));
    expect(await screen.findByText('Devolución solicitada: otra persona debe aprobarla.')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ creditId: 'c7', amount: '300', clabeSource: 'expediente' });

    const requests = await screen.findByRole('grid', { name: 'Devoluciones' });
    await userEvent.click(await within(requests).findByRole('button', { name: 'Aprobar' }));
    const confirm = await screen.findByRole('dialog', { name: 'Aprobar devolución' });
    expect(within(confirm).getByRole('button', { name: 'No' })).toHaveFocus();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Sí' }));
    expect(await screen.findByText('Devolución aprobada: entra en el siguiente lote.')).toBeInTheDocument();
    expect(calls.filter((call) => call.path.endsWith('/decision')).map((call) => call.body)).toEqual([{ decision: 'aprobar' }]);
  });
  it('declines a refund only with a written reason, in a dialog that asks for it', async () => {
    saveSession(sampleSession({ permissions: [{ path: '/wallet/refunds' }, { path: '/actions/wallet/approve-refund' }] }));
    const calls = stubApi((method, path) => {
      if (method === 'POST' && path.endsWith('/decision')) return refund({ status: 'declinada', declineReason: 'Cuenta de un tercero' });
      if (path.includes('/refunds/candidates')) return page([]);
      return page([refund()]);
    });
    renderScreen(<RefundsScreen />, { path: '/wallet/refunds' });
    const requests = await screen.findByRole('grid', { name: 'Devoluciones' });
    await userEvent.click(await within(requests).findByRole('button', { name: 'Declinar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Declinar devolución' });
    const reason = within(dialog).getByRole('textbox', { name: /Motivo/ });
    expect(reason).toHaveFocus();
    await userEvent.type(reason, 'no');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sí, declinar' }));
    expect(await within(dialog).findByText('Escribe el motivo (al menos 5 caracteres).')).toBeInTheDocument();
    expect(calls.filter((call) => call.path.endsWith('/decision'))).toEqual([]);
    await userEvent.clear(reason);
    await userEvent.type(reason, 'Cuenta de un tercero');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sí, declinar' }));
    expect(await screen.findByText('Devolución declinada.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Declinar devolución' })).not.toBeInTheDocument();
    expect(calls.filter((call) => call.path.endsWith('/decision')).map((call) => call.body)).toEqual([
      { decision: 'declinar', reason: 'Cuenta de un tercero' },
    ]);
  });
});
