import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ConfirmProvider, useConfirm } from './confirm-dialog';

function Probe({ destructive, harmless }: { destructive?: boolean; harmless?: boolean }) {
  const confirm = useConfirm();
  const [answer, setAnswer] = useState('sin respuesta');
  return (
    <button
      type="button"
      onClick={() =>
        void confirm({ title: 'Desactivar usuario', message: '¿Seguro?', destructive, harmless }).then((yes) =>
          setAnswer(yes ? 'sí' : 'no'),
        )
      }
    >
      {answer}
    </button>
  );
}

describe('confirm dialog', () => {
  it.each([
    ['Sí', 'sí'],
    ['No', 'no'],
  ])('answers %s', async (button, expected) => {
    const user = userEvent.setup();
    render(
      <ConfirmProvider>
        <Probe />
      </ConfirmProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'sin respuesta' }));
    const dialog = await screen.findByRole('dialog', { name: 'Desactivar usuario' });
    expect(dialog).toHaveTextContent('¿Seguro?');
    await user.click(screen.getByRole('button', { name: button }));
    expect(await screen.findByRole('button', { name: expected })).toBeInTheDocument();
  });

  it.each([
    ['a destructive action', { destructive: true }],
    ['an irreversible one (the default)', {}],
  ])('focuses "No" on %s, so Enter does no harm', async (_what, props) => {
    const user = userEvent.setup();
    render(
      <ConfirmProvider>
        <Probe {...props} />
      </ConfirmProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'sin respuesta' }));
    await screen.findByRole('dialog', { name: 'Desactivar usuario' });
    expect(screen.getByRole('button', { name: 'No' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('button', { name: 'no' })).toBeInTheDocument();
  });

  it('focuses "Sí" only on a harmless question', async () => {
    const user = userEvent.setup();
    render(
      <ConfirmProvider>
        <Probe harmless />
      </ConfirmProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'sin respuesta' }));
    await screen.findByRole('dialog', { name: 'Desactivar usuario' });
    expect(screen.getByRole('button', { name: 'Sí' })).toHaveFocus();
  });
});
