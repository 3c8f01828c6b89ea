import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Company, Profile } from '@portal/contract';
import { ApiError } from '../../lib/api';
import { EMPTY_USER, UserForm } from './user-form';

const profiles: Profile[] = [
  {
    id: '6b0f1c4e-2a7e-4c55-9a37-3f3c2f1d9a10',
    companyId: null,
    name: 'Cartera',
    roleCode: 'CARTERA',
    permissions: [],
    userCount: 1,
    version: 1,
  },
];
const companies: Company[] = [{ id: '9d7c1c7a-6d53-4f0e-8a3e-0c8a1f2b3c4d', code: 'DEMO', name: 'Financiera Demo' }];

function renderForm(onSubmit = vi.fn(async () => undefined)) {
  render(<UserForm defaultValues={EMPTY_USER} profiles={profiles} companies={companies} submitLabel="Guardar" onSubmit={onSubmit} />);
  return onSubmit;
}

async function choose(label: string, option: string) {
  await userEvent.click(screen.getByLabelText(label));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('user form', () => {
  it('shows each validation error next to its field, in Spanish, and sends nothing', async () => {
    const onSubmit = renderForm();
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Escribe el correo electrónico.')).toBeInTheDocument();
    expect(screen.getByText('Escribe el nombre (al menos 2 letras).')).toBeInTheDocument();
    expect(screen.getByText('Elige un perfil.')).toBeInTheDocument();
    expect(screen.getByText('Elige una empresa.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    await userEvent.type(screen.getByLabelText(/Correo electrónico/), 'no-es-correo');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Escribe un correo electrónico válido, por ejemplo nombre@empresa.mx.')).toBeInTheDocument();
  });

  it('submits the parsed values (e-mail in lower case) and places the API refusal on its field', async () => {
    const onSubmit = vi.fn(async () => {
      throw new ApiError(409, {
        type: 'conflict',
        title: 'Correo ya registrado',
        status: 409,
        errors: [{ field: 'email', message: 'Ya existe un usuario con ese correo electrónico.' }],
      });
    });
    renderForm(onSubmit);
    await userEvent.type(screen.getByLabelText(/Correo electrónico/), 'Ana.Perez@Demo.MX');
    await userEvent.type(screen.getByLabelText(/Nombre/), 'Ana Pérez');
    await choose('Perfil', 'Cartera');
    await choose('Empresa', 'Financiera Demo');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Ya existe un usuario con ese correo electrónico.')).toBeInTheDocument();
    expect(onSubmit).toHaveBeenCalledWith({
      email: 'ana.perez@demo.mx',
      name: 'Ana Pérez',
      profileId: profiles[0]!.id,
      companyId: companies[0]!.id,
      active: true,
    });
  });

  it("offers the common catalogue's profiles and the chosen company's own, not another company's", async () => {
    const plus: Company = { id: '1f2e3d4c-5b6a-4798-8a9b-0c1d2e3f4a5b', code: 'PLUS', name: 'Crédito Nómina Plus' };
    const own = (name: string, companyId: string): Profile => ({ ...profiles[0]!, id: crypto.randomUUID(), name, companyId });
    render(
      <UserForm
        defaultValues={{ ...EMPTY_USER, companyId: plus.id }}
        profiles={[...profiles, own('Cobranza Demo', companies[0]!.id), own('Cobranza Plus', plus.id)]}
        companies={[...companies, plus]}
        submitLabel="Guardar"
        onSubmit={vi.fn(async () => undefined)}
      />,
    );
    await userEvent.click(screen.getByLabelText('Perfil'));
    const offered = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(offered).toEqual(['Cartera', 'Cobranza Plus']);
  });
});
