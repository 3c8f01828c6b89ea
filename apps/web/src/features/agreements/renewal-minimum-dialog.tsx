import { useState } from 'react';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { renewalMinimumInputSchema, type RenewalMinimumInput } from '@portal/contract';
import { TextFormField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/schema-form';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { formatMoney } from '../../lib/format';
import { useSetRenewalMinimum } from './agreements.queries';

/** Editar the company's minimum net amount of a renewal: pesos as people type them, checked by the contract's schema. */
export default function RenewalMinimumDialog({
  title,
  current,
  onClose,
}: {
  title: string;
  current: string;
  onClose: (saved: boolean) => void;
}) {
  const save = useSetRenewalMinimum();
  const [defaultValues] = useState<RenewalMinimumInput>(() => ({ renewalMinimumNet: formatMoney(current) }));
  const { form, formProps, dialog, summary } = useSchemaForm(renewalMinimumInputSchema, {
    defaultValues,
    onSubmit: async (values) => {
      await save.mutateAsync(values);
      onClose(true);
    },
  });

  return (
    <Dialog open onClose={() => onClose(false)} maxWidth="xs" fullWidth aria-labelledby="renewal-minimum-title">
      <form {...formProps}>
        {dialog}
        <DialogTitle id="renewal-minimum-title">{title}</DialogTitle>
        <DialogContent>
          <TextFormField
            control={form.control}
            name="renewalMinimumNet"
            label="Monto neto mínimo"
            helperText="En pesos; 0 para no pedir mínimo."
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            sx={{ mt: 1 }}
            autoFocus
          />
        </DialogContent>
        <FormDialogActions summary={summary} submitting={form.formState.isSubmitting} onCancel={() => onClose(false)} />
      </form>
    </Dialog>
  );
}
