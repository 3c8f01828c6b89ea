import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Request as LoanRequest } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import { renewableCredit, sampleRequest } from './origination.test-data';
import { RequestActions, availableActions, type PanelNotice } from './request-actions';

const APPROVER = sampleSession({ permissions: [{ path: '/origination/request-list' }, { path: '/actions/origination/approve' }] });
const CLERK = sampleSession({ permissions: [{ path: '/origination/request-list' }, { path: '/origination/request-new' }] });
const TREASURY = sampleSession({ permissions: [{ path: '/origination/request-list' }, { path: '/actions/origination/disburse' }] });

describe('availableActions', () => {
  it('offers what the status machine allows from each status', () => {
    const all = sampleSession({ permissions: [{ path: '/actions/origination/approve' }, { path: '/actions/origination/disburse' }] });
    expect(availableActions(sampleRequest({ status: 'capturada' }), all)).toEqual(['submit', 'cancel']);
    expect(availableActions(sampleRequest({ status: 'en validación' }), all)).toEqual(['approve', 'reject', 'cancel']);
    expect(availableActions(sampleRequest({ status: 'aprobada' }), all)).toEqual(['cancel', 'disburse']);
    for (const status of ['rechazada', 'dispersada', 'cancelada'] as const)
      expect(availableActions(sampleRequest({ status }), all)).toEqual([]);
  });

  it('needs the action permissions to decide or disburse, and never lets whoever captured or changed the request decide', () => {
    expect(availableActions(sampleRequest({ status: 'en validación' }), CLERK)).toEqual(['cancel']);
    expect(availableActions(sampleRequest({ status: 'aprobada' }), APPROVER)).toEqual(['cancel']);
    expect(
      availableActions(sampleRequest({ status: 'en validación', capturedByIds: ['someone-else', APPROVER.user.id] }), APPROVER),
    ).toEqual(['cancel']);
  });
});

describe('request action buttons', () => {
  const notices: PanelNotice[] = [];
  const user = userEvent.setup();

  function show(request: LoanRequest, session = APPROVER) {
    resetSessionCache();
    saveSession(session);
    renderScreen(<RequestActions request={request} today="2026-02-10" onNotice={(notice) => notices.push(notice)} />);
    return screen.queryByRole('group', { name: 'Acciones de la solicitud' });
  }

  beforeEach(() => {
    notices.length = 0;
    return () => vi.unstubAllGlobals();
  });

  it('shows Editar and Enviar a validación on a captured request to its clerk, and asks before sending', async () => {
    const calls = stubApi(() => sampleRequest({ status: 'en validación' }));
    const group = show(sampleRequest({ status: 'capturada' }), CLERK)!;
    expect(
      within(group)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Enviar a validación', 'Cancelar']);
    expect(within(group).getByRole('link', { name: 'Editar' })).toHaveAttribute(
      'href',
      `/origination/request-new?edit=${sampleRequest().id}`,
    );

    await user.click(within(group).getByRole('button', { name: 'Enviar a validación' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enviar solicitud a validación' });
    expect(dialog).toHaveTextContent('¿Seguro que quieres enviar a validación la solicitud SOL-000007?');
    // An action that cannot be taken back: "No" has the focus, so Enter does no harm.
    expect(within(dialog).getByRole('button', { name: 'No' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Sí' }));
    await waitFor(() => expect(notices).toEqual([{ kind: 'success', text: 'Solicitud SOL-000007: en validación.' }]));
    expect(calls.at(-1)).toMatchObject({ method: 'POST', path: `/api/requests/${sampleRequest().id}/submit`, body: { version: 3 } });
  });

  it('hides Aprobar and Rechazar from the capturer and from users without the permission', () => {
    expect(show(sampleRequest({ status: 'en validación', capturedByIds: ['someone-else', APPROVER.user.id] }))).toHaveTextContent(
      /^Cancelar$/,
    );
  });

  it('asks the reason of a rejection (at least 5 characters) and shows the API refusal', async () => {
    stubApi(() => [
      409,
      { type: 'conflict', title: 'Conflicto', status: 409, detail: 'La solicitud SOL-000007 ya está aprobada; no se puede rechazar.' },
    ]);
    const group = show(sampleRequest({ status: 'en validación' }))!;
    expect(
      within(group)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Aprobar', 'Rechazar', 'Cancelar']);

    await user.click(within(group).getByRole('button', { name: 'Rechazar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rechazar solicitud SOL-000007' });
    await user.type(within(dialog).getByLabelText('Motivo'), 'no');
    await user.click(within(dialog).getByRole('button', { name: 'Rechazar' }));
    expect(within(dialog).getByText('Escribe el motivo del rechazo (al menos 5 caracteres).')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Motivo'), ' cumple la antigüedad');
    await user.click(within(dialog).getByRole('button', { name: 'Rechazar' }));
    await waitFor(() =>
      expect(notices).toEqual([{ kind: 'error', text: 'La solicitud SOL-000007 ya está aprobada; no se puede rechazar.' }]),
    );
  });

  it('disburses on the date chosen, after showing amount, fee, net, CLABE and bank, and tells the credit created', async () => {
    const approved = sampleRequest({ status: 'aprobada' });
    const calls = stubApi(() => ({ request: { ...approved, status: 'dispersada' }, creditId: 'cr-1', creditFolio: 'CR-000001' }));
    const group = show(approved, TREASURY)!;
    expect(
      within(group)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Cancelar', 'Dispersar']);

    await user.click(within(group).getByRole('button', { name: 'Dispersar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dispersar solicitud SOL-000007' });
    const summary = within(dialog).getByLabelText('Resumen de la dispersión');
    expect(summary).toHaveTextContent('$20,000.00');
    expect(summary).toHaveTextContent('$400.00');
    expect(summary).toHaveTextContent('$64.00');
    expect(summary).toHaveTextContent('$19,536.00');
    expect(summary).toHaveTextContent(approved.clabe);
    expect(summary).toHaveTextContent('BBVA México');
    // A date picker in es-MX: dd/mm/aaaa whatever the browser's language, typed section by section.
    const date = within(dialog).getByRole('group', { name: 'Fecha de dispersión' });
    expect(within(dialog).getByDisplayValue('10/02/2026')).toBeInTheDocument();
    await user.click(within(date).getAllByRole('spinbutton')[0]!);
    await user.keyboard('11022026');
    await user.click(within(dialog).getByRole('button', { name: 'Dispersar' }));

    await waitFor(() =>
      expect(notices).toEqual([
        { kind: 'success', text: 'Solicitud SOL-000007 dispersada: crédito CR-000001.', credit: { id: 'cr-1', folio: 'CR-000001' } },
      ]),
    );
    expect(calls.at(-1)).toMatchObject({
      method: 'POST',
      path: `/api/requests/${approved.id}/disburse`,
      body: { version: 3, disbursementDate: '2026-02-11' },
    });
  });

  it("offers a renewal's disbursement on the company's current fecha flujo, which a day's close moved past the approval's and today", async () => {
    const base = sampleRequest({ status: 'aprobada' });
    const approved: LoanRequest = {
      ...base,
      renews: ['cr-old'],
      simulation: {
        ...base.simulation,
        renewal: {
          payoffDate: '2026-02-10',
          credits: [renewableCredit],
          otherDeductionsAfter: '0.00',
          netDisbursement: '19536.00',
          payoffTotal: '8000.00',
          netAmount: '11536.00',
          minimumNet: '0.00',
          rule: { minPaidInstallments: 3, maxDaysPastDue: 0 },
        },
      },
    };
    const calls = stubApi((method, path) =>
      method === 'GET' && path.startsWith('/api/requests/renewable-credits')
        ? {
            payoffDate: '2026-02-11',
            minimumNet: '0.00',
            credits: [renewableCredit],
          }
        : { request: { ...approved, status: 'dispersada' }, creditId: 'cr-1', creditFolio: 'CR-000001', amountToTransfer: '11536.00' },
    );
    const group = show(approved, TREASURY)!;
    await user.click(within(group).getByRole('button', { name: 'Dispersar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dispersar solicitud SOL-000007' });
    expect(within(dialog).getByDisplayValue('11/02/2026')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Dispersar' }));
    await waitFor(() => expect(notices).toHaveLength(1));
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({ body: { version: 3, disbursementDate: '2026-02-11' } });
    expect(notices[0]!.text).toBe('Solicitud SOL-000007 dispersada: crédito CR-000001; renovación, a transferir $11,536.00.');
  });

  it('offers nothing on a closed request', () => {
    expect(show(sampleRequest({ status: 'dispersada', creditId: 'cr-1', creditFolio: 'CR-000001' }), TREASURY)).toBeNull();
  });
});
