import { useEffect, useRef, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { reasonBodySchema } from '@portal/contract';

export interface ReasonDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  busy: boolean;
  failure: string | null;
  onClose: () => void;
  onConfirm: (reason: string) => void;
  /** What the user should know before confirming (what stops the action, or that it is being checked). */
  notice?: ReactNode;
  /** The action cannot be confirmed (yet): the reason cannot be typed. */
  disabled?: boolean;
}

/** A mandatory reason (at least 5 characters, as the API asks), with the refusal of the API shown in place. */
export function ReasonDialog(props: ReasonDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  // A reason that could not be typed when the dialog opened (its check still running) takes the focus once it can.
  const field = useRef<HTMLInputElement>(null);
  const wasDisabled = useRef(props.disabled);
  useEffect(() => {
    if (wasDisabled.current && !props.disabled) field.current?.focus();
    wasDisabled.current = props.disabled;
  }, [props.disabled]);
  const confirm = () => {
    const parsed = reasonBodySchema.shape.reason.safeParse(reason);
    if (parsed.success) props.onConfirm(parsed.data);
    else setError(parsed.error.issues[0]?.message ?? 'Escribe el motivo.');
  };
  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm" aria-labelledby="file-reason-title" aria-describedby="file-reason-message">
      <DialogTitle id="file-reason-title">{props.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText id="file-reason-message">{props.message}</DialogContentText>
          {props.notice}
          {props.failure && (
            <Alert severity="error" role="alert">
              {props.failure}
            </Alert>
          )}
          <TextField
            autoFocus
            inputRef={field}
            label="Motivo"
            required
            multiline
            minRows={3}
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              setError(null);
            }}
            error={error !== null}
            helperText={error}
            disabled={props.disabled}
            fullWidth
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>No, volver</Button>
        <Button variant="contained" color="error" onClick={confirm} disabled={props.busy || props.disabled}>
          {props.confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
