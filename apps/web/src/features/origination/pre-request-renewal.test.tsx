import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RenewableCredits } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import { catalog, renewableCredit, sentPreRequest } from './origination.test-data';
import PreRequestNewScreen from './pre-request-new.screen';

/** Capturas' renewal section (issue 48): loaded only for a client with credits to renew. */

const user = userEvent.setup();
const PATH = '/origination/pre-request-new';
const input = (label: string) => screen.getByLabelText(label, { exact: false, selector: 'input' });

async function choose(label: string, option: RegExp | string) {
  await user.click(await screen.findByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

const renewable = (credits: RenewableCredits['credits'], minimumNet = '0.00'): RenewableCredits => ({
  payoffDate: '2026-02-10',
  minimumNet,
  credits,
});

/** The screen with the API answering `answer` to the CURP's renewable credits; the calls made. */
function open(answer: RenewableCredits) {
  const calls = stubApi((_method, path) => {
    if (path === '/api/pre-requests/catalog') return catalog;
    if (path.startsWith('/api/pre-requests?')) return { items: [], total: 0, totalCapped: false };
    if (path.startsWith('/api/requests/renewable-credits?')) return answer;
    return [404, { type: 'about:blank', title: 'No encontrado', status: 404 }];
  });
  renderScreen(<PreRequestNewScreen />, { path: PATH });
  return calls;
}

/** Types as a clerk pastes: each action waits for the browser's next turn, after what was pending drew. */
async function fill(label: string, value: string) {
  await user.click(input(label));
  await user.paste(value);
}

/** The client (CURP) and the loan; `whole` adds what the live verdict needs besides, typed after the CURP's answer. */
async function capture(amount: string, whole = false) {
  await screen.findByLabelText('CURP', { exact: false, selector: 'input' });
  await fill('CURP', sentPreRequest.curp);
  await choose('Convenio', /^GOB-JAL/);
  await choose('Producto', /^Nómina Jalisco 24/);
  await fill('Monto solicitado', amount);
  if (!whole) return;
  await fill('Número de empleado', 'J-1001');
  await fill('Nombre(s)', 'Enrique');
  await fill('Primer apellido', 'Peña');
  await fill('Sueldo neto por periodo', '12,500');
  await choose('Plazo', '24 pagos');
}

describe('pre-request form: renewal section', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: PATH }] }));
    return () => vi.unstubAllGlobals();
  });

  it('appears for a client with a renewable credit; choosing it shows the payoff and the net amount the client receives', async () => {
    const calls = open(renewable([renewableCredit]));
    await capture('30,000');
    const section = await screen.findByRole('group', { name: 'Renovación' });
    expect(calls.find((call) => call.path.startsWith('/api/requests/renewable-credits?'))!.path).toBe(
      `/api/requests/renewable-credits?curp=${sentPreRequest.curp}`,
    );
    const choice = within(section).getByRole('checkbox', {
      name: 'Renovar CR-000002 · GOB-JAL · 4 pagos · 0 días de atraso · finiquito $8,000.00',
    });
    expect(within(section).queryByLabelText('Monto neto de la renovación')).not.toBeInTheDocument();
    await user.click(choice);
    // By hand: opening fee 2 % of 30,000 = 600.00, its IVA 16 % = 96.00, deducted (not financed): 29,304.00 disbursed;
    // less the payoff 8,000.00 = 21,304.00 to the client; the old credit's installment, 1,000.00, freed.
    expect(within(section).getByLabelText('Monto neto de la renovación')).toHaveTextContent(
      'Dispersa $29,304.00 − finiquitos $8,000.00 = monto neto a recibir $21,304.00. Descuentos liberados para la capacidad: $1,000.00.',
    );
  });

  it("says when the net amount is below the company's minimum", async () => {
    open(renewable([renewableCredit], '25000.00'));
    await capture('30000');
    await user.click(within(await screen.findByRole('group', { name: 'Renovación' })).getByRole('checkbox'));
    expect(screen.getByLabelText('Monto neto de la renovación')).toHaveTextContent(
      'El monto neto a recibir ($21,304.00) es menor que el mínimo de renovación de la empresa ($25,000.00).',
    );
  });

  it('is absent for a client without renewable credits', async () => {
    const calls = open(renewable([]));
    // The whole form: the verdict it ends with is drawn after the renewable credits' answer (asked on the CURP).
    await capture('30000', true);
    expect(calls.filter((call) => call.path.startsWith('/api/requests/renewable-credits?'))).toHaveLength(1);
    expect(screen.getByLabelText('Dictamen en vivo')).toHaveTextContent('Pre-aprobada');
    expect(screen.queryByRole('group', { name: 'Renovación' })).not.toBeInTheDocument();
    expect(screen.queryByText('Renovación: créditos activos de esta CURP')).not.toBeInTheDocument();
  });
});
