import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import Stack from '@mui/material/Stack';

/** A form dialog's foot: the form's error summary above Cancelar and Guardar (Guardando… while the save runs). */
export function FormDialogActions({ summary, submitting, onCancel }: { summary: ReactNode; submitting: boolean; onCancel: () => void }) {
  return (
    <DialogActions disableSpacing sx={{ flexDirection: 'column', alignItems: 'stretch', gap: 1 }}>
      {summary}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={onCancel}>Cancelar</Button>
        <Button type="submit" variant="contained" disabled={submitting}>
          {submitting ? 'Guardando…' : 'Guardar'}
        </Button>
      </Stack>
    </DialogActions>
  );
}
