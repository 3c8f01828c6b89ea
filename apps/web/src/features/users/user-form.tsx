import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import { userInputSchema, type Company, type Profile, type UserInput } from '@portal/contract';
import type { z } from 'zod';
import { SelectFormField, SwitchFormField, TextFormField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/schema-form';

type Output = z.output<typeof userInputSchema>;

export const EMPTY_USER: UserInput = { email: '', name: '', profileId: '', companyId: '', active: true };

/**
 * The user form of both "Nuevo Usuario" and the edit screen. The contract's zod schema checks it here and again in
 * the API; an API refusal lands next to its field (e.g. an e-mail already used) or above the form.
 */
export function UserForm(props: {
  defaultValues: UserInput;
  profiles: Profile[];
  companies: Company[];
  submitLabel: string;
  onSubmit: (values: Output) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const { form, formProps, dialog, summary } = useSchemaForm(userInputSchema, {
    defaultValues: props.defaultValues,
    onSubmit: props.onSubmit,
  });
  // A company's own profiles are for its users (the API refuses the others): the common catalogue's and the chosen company's.
  const companyId = form.watch('companyId');
  const profiles = props.profiles.filter((profile) => profile.companyId === null || !companyId || profile.companyId === companyId);

  return (
    <form {...formProps}>
      {dialog}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <TextFormField control={form.control} name="email" label="Correo electrónico" type="email" autoComplete="off" required />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <TextFormField control={form.control} name="name" label="Nombre" required />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <SelectFormField
            control={form.control}
            name="profileId"
            label="Perfil"
            options={profiles.map((profile) => ({ value: profile.id, label: profile.name }))}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <SelectFormField
            control={form.control}
            name="companyId"
            label="Empresa"
            options={props.companies.map((company) => ({ value: company.id, label: company.name }))}
          />
        </Grid>
        <Grid size={12}>
          <SwitchFormField control={form.control} name="active" label="Activo" />
        </Grid>
      </Grid>
      <Stack sx={{ mt: 3 }}>{summary}</Stack>
      <Stack direction="row" spacing={2}>
        <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Guardando…' : props.submitLabel}
        </Button>
        {props.onCancel && <Button onClick={props.onCancel}>Cancelar</Button>}
      </Stack>
    </form>
  );
}
