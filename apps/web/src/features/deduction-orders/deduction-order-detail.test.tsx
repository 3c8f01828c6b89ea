import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeductionOrder, DeductionOrderLine } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import DeductionOrderDetailScreen from './deduction-order-detail.screen';

const ID = '4f0c2a8e-2d1b-4c33-9a51-0b7f3c1d2e10';

const draft = (overrides: Partial<DeductionOrder> = {}): DeductionOrder => ({
  id: ID,
  agreementId: 'a1',
  agreement: 'Gobierno de Jalisco',
  company: 'Financiera Demo',
  payday: '2026-11-30',
  cutOffDate: '2026-11-25',
  businessDate: '2026-11-23',
  status: 'borrador',
  altas: { count: 1, amount: '700.00' },
  bajas: { count: 2, amount: '1300.00' },
  cambios: { count: 2, amount: '1548.37' },
  continuing: { count: 1, amount: '1000.00' },
  instructedCount: 4,
  instructedAmount: '3248.37',
  generatedBy: 'cartera@demo.mx',
  generatedAt: '2026-11-23T16:00:00.000Z',
  issuedBy: null,
  issuedAt: null,
  sentOn: null,
  sentChannel: null,
  sentNote: null,
  sentBy: null,
  supersedesId: null,
  supersededById: null,
  ...overrides,
});

const line: DeductionOrderLine = {
  line: 1,
  creditId: 'c1',
  creditFolio: 'CR-00000007',
  employeeNumber: 'E-100',
  curp: 'GORS800101HJCNMN09',
  name: 'Ana Núñez',
  movement: 'cambio',
  amountBefore: '1200.00',
  amountAfter: '950.00',
  reason: 'cuota-recalculada',
  replacesCreditFolio: null,
};

/** A renewal as one cambio (the agreement's renewalAsChange): the new credit in place of the renewed one. */
const renewal: DeductionOrderLine = {
  line: 2,
  creditId: 'c9',
  creditFolio: 'CR-00000031',
  employeeNumber: 'E-200',
  curp: 'LOPM850505MJCPRR02',
  name: 'María López',
  movement: 'cambio',
  amountBefore: '800.00',
  amountAfter: '700.00',
  reason: 'renovacion-cambio',
  replacesCreditFolio: 'CR-00000012',
};

describe('Cédula de descuentos', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: '/wallet/deduction-orders' }, { path: '/actions/wallet/issue-deduction-order' }] }));
    return () => vi.unstubAllGlobals();
  });

  it('shows the figures and each line with its reason, and emits only after a confirmation whose No holds the focus', async () => {
    let issued = false;
    const calls = stubApi((method, path) => {
      if (method === 'POST' && path.endsWith('/issue')) {
        issued = true;
        return draft({ status: 'emitida', issuedBy: 'cartera@demo.mx', issuedAt: '2026-11-23T17:00:00.000Z' });
      }
      if (path.includes('/lines')) return { items: [line, renewal], total: 2, totalCapped: false };
      return issued ? draft({ status: 'emitida', issuedBy: 'cartera@demo.mx', issuedAt: '2026-11-23T17:00:00.000Z' }) : draft();
    });
    renderScreen(<DeductionOrderDetailScreen />, { path: '/wallet/deduction-orders/:id', url: `/wallet/deduction-orders/${ID}` });

    const summary = await screen.findByLabelText('Resumen de la cédula');
    expect(within(summary).getByText('2 · $1,548.37')).toBeInTheDocument();
    expect(within(summary).getByText('4 · $3,248.37')).toBeInTheDocument();
    const grid = await screen.findByRole('grid', { name: 'Líneas de la cédula' });
    expect(await within(grid).findByText('Cuota recalculada (pago anticipado o reestructura)')).toBeInTheDocument();
    expect(within(grid).getByText('$1,200.00')).toBeInTheDocument();
    expect(within(grid).getByText('Renovación: CR-00000031 sustituye a CR-00000012')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Emitir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Emitir cédula' });
    expect(within(dialog).getByRole('button', { name: 'No' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'No' }));
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await userEvent.click(await screen.findByRole('button', { name: 'Emitir' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Emitir cédula' })).getByRole('button', { name: 'Sí' }));
    expect(await screen.findByText('Cédula emitida.')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([`/api/deduction-orders/${ID}/issue`]);
    expect(await screen.findByRole('button', { name: 'Marcar enviada' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Emitir' })).not.toBeInTheDocument();
  });

  it('hides Emitir and Sustituir from a user without the action permission', async () => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: '/wallet/deduction-orders' }] }));
    stubApi((_method, path) => (path.includes('/lines') ? { items: [], total: 0, totalCapped: false } : draft()));
    renderScreen(<DeductionOrderDetailScreen />, { path: '/wallet/deduction-orders/:id', url: `/wallet/deduction-orders/${ID}` });
    expect(await screen.findByRole('button', { name: 'Descargar en el layout del convenio' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Emitir' })).not.toBeInTheDocument();
  });
});
