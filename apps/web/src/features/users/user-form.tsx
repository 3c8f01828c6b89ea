import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import { userInputSchema, type Company, type Profile, type UserInput } from '@portal/contract';
import type { z } from 'zod';
import { ErrorSummary, useFocusFirstInvalid } from '../../components/form-feedback';
import { SelectFormField, SwitchFormField, TextFormField, placeSaveError } from '../../components/form-fields';
import { useUnsavedChanges } from '../../components/unsaved-changes';

type Output = z.output<typeof userInputSchema>;
const FIELDS = ['email', 'name', 'profileId', 'companyId', 'active'] as const;

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
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<UserInput, unknown, Output>({ resolver: zodResolver(userInputSchema), defaultValues: props.defaultValues, mode: 'onTouched', shouldFocusError: false });
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const guard = useUnsavedChanges(form.formState.isDirty);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    guard.allowLeaving();
    try {
      await props.onSubmit(values);
    } catch (error) {
      guard.keepGuarding();
      setFailure(placeSaveError(error, FIELDS, form.setError));
      focusFirstInvalid();
    }
  }, focusFirstInvalid);

  return (
    <form ref={formRef} onSubmit={(event) => void submit(event)} noValidate>
      {guard.dialog}
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
            options={props.profiles.map((profile) => ({ value: profile.id, label: profile.name }))}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <SelectFormField control={form.control} name="companyId" label="Empresa" options={props.companies.map((company) => ({ value: company.id, label: company.name }))} />
        </Grid>
        <Grid size={12}>
          <SwitchFormField control={form.control} name="active" label="Activo" />
        </Grid>
      </Grid>
      <Stack sx={{ mt: 3 }}>
        <ErrorSummary errors={form.formState.errors} submitCount={form.formState.submitCount} failure={failure} />
      </Stack>
      <Stack direction="row" spacing={2}>
        <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Guardando…' : props.submitLabel}
        </Button>
        {props.onCancel && <Button onClick={props.onCancel}>Cancelar</Button>}
      </Stack>
    </form>
  );
}
