import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import type { GridColDef } from '@mui/x-data-grid';
import { MAIL_KIND_LABELS, MAIL_STATUSES, MAIL_STATUS_LABELS, type OutboxMessage } from '@portal/contract';
import { DetailList } from '../../components/detail-list';
import { ListScreen } from '../../components/list-screen';
import type { Notice } from '../../components/notice-snackbar';
import { SidePanel } from '../../components/side-panel';
import { StatusChip } from '../../components/status-chip';
import { formatDateTime } from '../../lib/format';
import { mailListQuery } from './users.queries';

const kindLabel = (kind: string) => MAIL_KIND_LABELS[kind] ?? MAIL_KIND_LABELS.notice;
const statusLabel = (message: Pick<OutboxMessage, 'status'>) => MAIL_STATUS_LABELS[message.status];

/** When a message is still to be sent, when it will be tried again; once it left or gave up, nothing. */
const nextAttempt = (message: OutboxMessage) => (message.status === 'pending' ? formatDateTime(message.nextAttemptAt) : '—');

/**
 * Correos del portal: every invitation, password reset and notice the portal mailed, newest first, with what became of
 * it (sent, to be tried again and when, or refused with the mail server's answer). A message that has not reached its
 * addressee shows its link, for the administrator to pass on another way.
 */
export default function MailListScreen() {
  const [notice, setNotice] = useState<Notice | null>(null);
  const [open, setOpen] = useState<OutboxMessage | null>(null);

  const columns: GridColDef<OutboxMessage>[] = [
    { field: 'createdAt', headerName: 'Fecha', width: 150, sortable: false, valueFormatter: (value: string) => formatDateTime(value) },
    { field: 'toEmail', headerName: 'Para', flex: 1.2, minWidth: 180, sortable: false },
    { field: 'kind', headerName: 'Tipo', width: 170, sortable: false, valueGetter: (value: string) => kindLabel(value) },
    {
      field: 'status',
      headerName: 'Estado',
      width: 190,
      sortable: false,
      renderCell: ({ row }) => <StatusChip status={statusLabel(row).toLowerCase()} label={statusLabel(row)} />,
    },
    { field: 'attempts', headerName: 'Intentos', width: 90, type: 'number', sortable: false },
    {
      field: 'nextAttemptAt',
      headerName: 'Próximo intento',
      width: 150,
      sortable: false,
      valueGetter: (_value, row) => nextAttempt(row),
    },
    { field: 'lastError', headerName: 'Respuesta del servidor', flex: 1.4, minWidth: 200, sortable: false },
  ];

  const copyLink = async (link: string) => {
    try {
      await navigator.clipboard.writeText(link);
      setNotice({ kind: 'success', text: 'Enlace copiado.' });
    } catch {
      setNotice({ kind: 'error', text: 'No se pudo copiar el enlace: selecciónalo y cópialo a mano.' });
    }
  };

  return (
    <ListScreen<OutboxMessage>
      title="Correos del portal"
      aria-label="Correos"
      query={mailListQuery}
      searchLabel="Buscar por correo o asunto"
      filters={[
        {
          kind: 'select',
          key: 'status',
          label: 'Estado',
          options: MAIL_STATUSES.map((value) => ({ value, label: MAIL_STATUS_LABELS[value] })),
        },
      ]}
      columns={columns}
      onRowClick={setOpen}
      emptyText="No hay correos con estos filtros."
      storageKey="mail"
      hiddenOnPhone={['createdAt', 'kind', 'attempts', 'nextAttemptAt', 'lastError']}
      notice={notice}
      onNotice={setNotice}
    >
      <SidePanel open={open !== null} onClose={() => setOpen(null)} label={open ? `Correo a ${open.toEmail}` : 'Correo'}>
        {open && (
          <Box sx={{ p: { xs: 2, md: 3 } }}>
            <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2 }}>
              <Typography variant="h2" component="h2">
                {open.subject}
              </Typography>
              <IconButton aria-label="Cerrar" onClick={() => setOpen(null)}>
                <CloseOutlined />
              </IconButton>
            </Stack>
            <DetailList
              aria-label="Entrega"
              items={[
                { label: 'Para', value: open.toEmail },
                { label: 'Tipo', value: kindLabel(open.kind) },
                { label: 'Estado', value: <StatusChip status={statusLabel(open).toLowerCase()} label={statusLabel(open)} /> },
                { label: 'Escrito', value: formatDateTime(open.createdAt) },
                { label: 'Intentos', value: String(open.attempts) },
                { label: 'Último intento', value: formatDateTime(open.lastAttemptAt) },
                { label: 'Próximo intento', value: nextAttempt(open) },
                { label: 'Enviado', value: formatDateTime(open.sentAt) },
                { label: 'Respuesta del servidor', value: open.lastError },
              ]}
            />
            {open.link && (
              <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ alignItems: { sm: 'center' }, gap: 1, mt: 3 }}>
                <Typography sx={{ overflowWrap: 'anywhere', flex: 1 }}>
                  Enlace (no ha llegado a su destinatario; compártelo sólo con él): {open.link}
                </Typography>
                <Button variant="outlined" onClick={() => void copyLink(open.link!)}>
                  Copiar enlace
                </Button>
              </Stack>
            )}
            <Typography component="pre" sx={{ mt: 3, whiteSpace: 'pre-wrap', fontFamily: 'inherit', overflowWrap: 'anywhere' }}>
              {open.body}
            </Typography>
          </Box>
        )}
      </SidePanel>
    </ListScreen>
  );
}
