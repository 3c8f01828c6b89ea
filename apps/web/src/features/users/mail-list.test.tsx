import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { OutboxMessage } from '@portal/contract';
import { resetSessionCache, saveSession } from '../../lib/auth/session';
import { sampleSession } from '../../test-support';
import { renderScreen, stubApi } from '../../test-render';
import MailListScreen from './mail-list.screen';

const message = (overrides: Partial<OutboxMessage>): OutboxMessage => ({
  id: 'm1',
  kind: 'invitation',
  toEmail: 'nueva@demo.mx',
  subject: 'Tu acceso al portal de crédito',
  body: 'Hola:\n\nTe dieron de alta en el portal.',
  link: null,
  createdAt: '2026-11-23T16:05:00.000Z',
  status: 'sent',
  attempts: 1,
  nextAttemptAt: null,
  lastAttemptAt: '2026-11-23T16:05:02.000Z',
  sentAt: '2026-11-23T16:05:03.000Z',
  lastError: null,
  ...overrides,
});

const failed = message({
  id: 'm2',
  kind: 'password-reset',
  toEmail: 'inexistente@demo.mx',
  subject: 'Restablece tu contraseña del portal',
  status: 'failed',
  link: 'https://portal.test/oidc/reset-password?token=abc',
  sentAt: null,
  lastError: '550 5.1.1 Buzón inexistente',
});
const retrying = message({
  id: 'm3',
  toEmail: 'ocupado@demo.mx',
  status: 'pending',
  attempts: 2,
  sentAt: null,
  nextAttemptAt: '2026-11-23T16:20:00.000Z',
  lastError: '451 4.3.0 Intenta más tarde',
  link: 'https://portal.test/oidc/reset-password?token=def',
});

describe('Correos del portal', () => {
  beforeEach(() => {
    resetSessionCache();
    saveSession(sampleSession({ permissions: [{ path: '/user/user-new' }] }));
    return () => vi.unstubAllGlobals();
  });

  it('lists each message with its delivery: sent, refused with the server’s answer, to be tried again and when', async () => {
    stubApi(() => ({ items: [message({}), failed, retrying], total: 3, totalCapped: false }));
    renderScreen(<MailListScreen />, { path: '/user/mail' });
    const grid = await screen.findByRole('grid', { name: 'Correos' });
    const row = (email: string) => within(grid).getByText(email).closest('[role="row"]') as HTMLElement;
    await within(grid).findByText('nueva@demo.mx');
    expect(within(row('nueva@demo.mx')).getByText('Enviado')).toBeInTheDocument();
    expect(within(row('inexistente@demo.mx')).getByText('No se pudo enviar')).toBeInTheDocument();
    expect(within(row('inexistente@demo.mx')).getByText('550 5.1.1 Buzón inexistente')).toBeInTheDocument();
    expect(within(row('inexistente@demo.mx')).getByText('Restablecer contraseña')).toBeInTheDocument();
    // Mexico City is UTC−6: 16:20 UTC is 10:20 there.
    expect(within(row('ocupado@demo.mx')).getByText('23/11/2026 10:20')).toBeInTheDocument();
    expect(within(row('ocupado@demo.mx')).getByText('Por enviar')).toBeInTheDocument();
  });

  it('asks the API for one status and opens a message with its link to pass on while it has not arrived', async () => {
    const calls = stubApi(() => ({ items: [failed], total: 1, totalCapped: false }));
    renderScreen(<MailListScreen />, { path: '/user/mail', url: '/user/mail?status=failed' });
    await screen.findByText('inexistente@demo.mx');
    expect(calls.map((call) => call.path)).toContainEqual(expect.stringMatching(/^\/api\/outbox\?.*status=failed/));

    await userEvent.click(screen.getByText('inexistente@demo.mx'));
    const panel = await screen.findByRole('dialog', { name: 'Correo a inexistente@demo.mx' });
    expect(within(panel).getByText(/https:\/\/portal\.test\/oidc\/reset-password\?token=abc/)).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Copiar enlace' })).toBeInTheDocument();
    expect(within(panel).getByText('550 5.1.1 Buzón inexistente')).toBeInTheDocument();
  });
});
