import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import { userRoutes } from '@portal/contract';
import { call } from '../../lib/api-client';
import { loadAuthConfig } from '../../lib/auth-config';
import { formatDateTime } from '../../lib/format';

/**
 * "Reenviar acceso": with the portal's own sign-in, a fresh link to set the password, shown to the administrator to hand
 * over (and mailed to the person when SMTP_URL is set); the API records that it was issued.
 */
export function ResendAccess({ userId, email }: { userId: string; email: string }) {
  const config = useQuery({ queryKey: ['auth-config'], queryFn: loadAuthConfig, staleTime: Infinity });
  const client = useQueryClient();
  const issue = useMutation({
    mutationFn: () => call(userRoutes.accessLink, { params: { id: userId } }),
    // The user's history now shows the link was issued.
    onSuccess: () => client.invalidateQueries({ queryKey: ['users', 'detail', userId] }),
  });
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);

  // With an external provider, access is managed there: nothing to offer here.
  if (!config.data?.embedded) return null;

  const close = () => {
    setOpen(false);
    setCopied(false);
    issue.reset();
  };

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<KeyOutlined />}
        onClick={() => {
          setOpen(true);
          issue.mutate();
        }}
      >
        Reenviar acceso
      </Button>
      <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="access-link-title">
        <DialogTitle id="access-link-title">Enlace de acceso de {email}</DialogTitle>
        <DialogContent>
          {issue.isError ? (
            <Alert severity="error">{issue.error.message}</Alert>
          ) : !issue.data ? (
            <DialogContentText>Creando el enlace…</DialogContentText>
          ) : (
            <>
              <DialogContentText sx={{ mb: 2 }}>
                Compártelo sólo con la persona para que cree su contraseña (con servidor de correo también se le envía; su entrega se ve en
                Correos). Sirve una sola vez y vence el {formatDateTime(issue.data.expiresAt)}. Los enlaces anteriores siguen sirviendo
                hasta que venzan.
              </DialogContentText>
              <TextField
                label="Enlace para crear la contraseña"
                value={issue.data.link}
                fullWidth
                slotProps={{ input: { readOnly: true } }}
                onFocus={(event) => event.target.select()}
              />
            </>
          )}
        </DialogContent>
        <DialogActions>
          {issue.data && (
            <Button
              onClick={() => {
                void navigator.clipboard?.writeText(issue.data.link).then(() => setCopied(true));
              }}
            >
              {copied ? 'Copiado' : 'Copiar enlace'}
            </Button>
          )}
          <Button variant="contained" onClick={close}>
            Cerrar
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
