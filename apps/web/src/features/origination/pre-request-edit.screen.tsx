import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link, useLocation, useParams } from 'react-router';
import { preRequestInputOf } from '@portal/contract';
import { hasPermission } from '../../lib/auth/session';
import { useSession } from '../../lib/auth/use-session';
import { RouteLoading } from '../../components/route-loading';
import { useConfirm } from '../../components/confirm-dialog';
import { useOriginationCatalog, usePreRequest, useSendPreRequest, useUpdatePreRequest } from './origination.queries';
import { StatusChip } from '../../components/status-chip';
import { PreRequestForm } from './pre-request-form';
import { NotFoundState, isNotFound } from '../../components/not-found-state';

export default function PreRequestEditScreen() {
  const { id = '' } = useParams();
  const location = useLocation();
  const confirm = useConfirm();
  const session = useSession();
  const preRequest = usePreRequest(id);
  const catalog = useOriginationCatalog();
  const update = useUpdatePreRequest(id);
  const send = useSendPreRequest(id);
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; text: string } | null>(() => {
    const text = (location.state as { notice?: string } | null)?.notice;
    return text ? { kind: 'success', text } : null;
  });

  if (preRequest.isError) {
    if (isNotFound(preRequest.error))
      return <NotFoundState what="La pre-solicitud" backTo="/origination/pre-request-new" backLabel="Ir a Pre-Solicitudes" />;
    return <Alert severity="error">{preRequest.error.message}</Alert>;
  }
  if (!preRequest.data || !catalog.data) return <RouteLoading />;
  const current = preRequest.data;
  const draft = current.status === 'borrador';

  const sendNow = async () => {
    if (
      !(await confirm({
        title: 'Enviar pre-solicitud',
        message: `¿Quieres enviar la pre-solicitud ${current.folio}? Ya no podrás editarla.`,
      }))
    )
      return;
    try {
      await send.mutateAsync(current.version);
      setNotice({ kind: 'success', text: `${current.folio} enviada.` });
    } catch (error) {
      setNotice({ kind: 'error', text: (error as Error).message });
    }
  };

  return (
    <>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { md: 'center' } }}>
        <Typography variant="h1" component="h1" sx={{ flexGrow: 1 }}>
          Pre-solicitud {current.folio}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography color="text.secondary">Estado</Typography>
          <StatusChip status={current.status} aria-label={`Estado: ${current.status}`} />
          <Typography color="text.secondary">Dictamen</Typography>
          <StatusChip status={current.result} aria-label={`Dictamen: ${current.result}`} />
        </Stack>
        {draft && (
          <Button
            variant="contained"
            color="secondary"
            disabled={current.result !== 'pre-aprobada' || send.isPending}
            onClick={() => void sendNow()}
          >
            Enviar
          </Button>
        )}
        {current.status === 'enviada' && hasPermission(session, '/origination/request-new') && (
          <Button variant="contained" component={Link} to={`/origination/request-new?preRequest=${current.id}`}>
            Convertir en solicitud
          </Button>
        )}
      </Stack>
      {notice && (
        <Alert severity={notice.kind} sx={{ mb: 2 }} onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      )}
      {current.result === 'rechazada' && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {current.reasons.map((reason) => reason.message).join(' ')}
        </Alert>
      )}
      <PreRequestForm
        key={current.version}
        catalog={catalog.data}
        readOnly={!draft}
        defaultValues={preRequestInputOf(current)}
        submitLabel="Guardar cambios"
        onSubmit={async (values) => {
          setNotice(null);
          await update.mutateAsync({ ...values, version: current.version });
          setNotice({ kind: 'success', text: 'Cambios guardados y dictamen actualizado.' });
        }}
      />
    </>
  );
}
