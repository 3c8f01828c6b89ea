import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmProvider } from './confirm-dialog';
import { ConfirmedButton, DownloadButtons } from './action-buttons';

describe('DownloadButtons', () => {
  it('waits on every button while one download runs, and tells a failure with its reason', async () => {
    const user = userEvent.setup();
    let finish: (error?: Error) => void = () => undefined;
    const slow = () =>
      new Promise<void>((resolve, reject) => {
        finish = (error) => (error ? reject(error) : resolve());
      });
    const errors: string[] = [];
    render(
      <DownloadButtons
        downloads={[
          { label: 'Descargar archivo del banco', run: slow },
          { label: 'Descargar CSV', run: slow },
        ]}
        onError={(message) => errors.push(message)}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Descargar archivo del banco' }));
    expect(screen.getByRole('button', { name: 'Descargar CSV' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Descargar archivo del banco' })).toBeDisabled();
    finish(new Error('El lote no existe.'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Descargar CSV' })).toBeEnabled());
    expect(errors).toEqual(['El lote no existe.']);
  });
});

describe('ConfirmedButton', () => {
  it.each([
    ['No', 0],
    ['Sí', 1],
  ])('runs the action only after Sí (answered %s), with No focused', async (answer, runs) => {
    const user = userEvent.setup();
    const run = vi.fn();
    render(
      <ConfirmProvider>
        <ConfirmedButton pending={false} confirmation={{ title: 'Autorizar lote', message: '¿Autorizar el lote?' }} onConfirmed={run}>
          Autorizar
        </ConfirmedButton>
      </ConfirmProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Autorizar' }));
    await screen.findByRole('dialog', { name: 'Autorizar lote' });
    expect(screen.getByRole('button', { name: 'No' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: answer }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(run).toHaveBeenCalledTimes(runs);
  });
});
