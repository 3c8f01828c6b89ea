import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { Link, useNavigate, useParams } from 'react-router';
import {
  DEDUCTION_ORDER_CHANNELS,
  deductionOrderRoutes,
  deductionReasonText,
  type DeductionOrder,
  type DeductionOrderChannel,
  type DeductionOrderLine,
} from '@portal/contract';
import { ConfirmedButton, DownloadButtons } from '../../components/action-buttons';
import { DetailList } from '../../components/detail-list';
import { NotFoundState, isNotFound } from '../../components/not-found-state';
import { NoticeSnackbar, type Notice } from '../../components/notice-snackbar';
import { RouteLoading } from '../../components/route-loading';
import { Section } from '../../components/section';
import { localPageGrid } from '../../components/page-grid';
import { ServerDataGrid } from '../../components/server-data-grid';
import { StatusChip } from '../../components/status-chip';
import { hasPermission } from '../../lib/auth/session';
import { useSession } from '../../lib/auth/use-session';
import { downloadRecordFile } from '../../lib/download';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format';
import type { ListState } from '../../lib/list-state';
import {
  useDeductionOrder,
  useDeductionOrderDifferences,
  useDeductionOrderLines,
  useIssueDeductionOrder,
  useSendDeductionOrder,
  useSubstituteDeductionOrder,
  type LineGroup,
} from './deduction-orders.queries';

const FIRST_PAGE: ListState = { page: 1, pageSize: 25, sort: null, q: '', filters: {} };
const byWhom = (who: string | null, when: string | null) => (when ? `${who ?? 'Sistema'} · ${formatDateTime(when)}` : '—');
const figure = (entry: { count: number; amount: string }) => `${entry.count.toLocaleString('es-MX')} · ${formatMoney(entry.amount)}`;

function summary(order: DeductionOrder) {
  return [
    { label: 'Convenio', value: order.agreement },
    { label: 'Empresa', value: order.company },
    { label: 'Día de pago', value: formatDate(order.payday) },
    { label: 'Corte de nómina', value: formatDate(order.cutOffDate) },
    { label: 'Calculada con la fecha flujo', value: formatDate(order.businessDate) },
    { label: 'Altas', value: figure(order.altas) },
    { label: 'Bajas (dejan de descontarse)', value: figure(order.bajas) },
    { label: 'Cambios', value: figure(order.cambios) },
    { label: 'Continúan', value: figure(order.continuing) },
    { label: 'A descontar', value: figure({ count: order.instructedCount, amount: order.instructedAmount }) },
    { label: 'Generó', value: byWhom(order.generatedBy, order.generatedAt) },
    { label: 'Emitió', value: byWhom(order.issuedBy, order.issuedAt) },
    ...(order.sentOn
      ? [
          {
            label: 'Enviada',
            value: `${formatDate(order.sentOn)} · ${order.sentChannel ?? ''}${order.sentNote ? ` · ${order.sentNote}` : ''}`,
          },
        ]
      : []),
  ];
}

const lineColumns: GridColDef<DeductionOrderLine>[] = [
  { field: 'line', headerName: 'Línea', width: 80, sortable: false },
  {
    field: 'creditFolio',
    headerName: 'Crédito',
    width: 140,
    sortable: false,
    renderCell: ({ row }) => <Link to={`/wallet/credits/credits-view/${row.creditId}`}>{row.creditFolio}</Link>,
  },
  { field: 'employeeNumber', headerName: 'Núm. empleado', width: 130, sortable: false },
  { field: 'curp', headerName: 'CURP', width: 200, sortable: false },
  { field: 'name', headerName: 'Nombre', flex: 1, minWidth: 200, sortable: false },
  { field: 'movement', headerName: 'Movimiento', width: 120, sortable: false },
  {
    field: 'amountBefore',
    headerName: 'Antes',
    width: 130,
    align: 'right',
    headerAlign: 'right',
    sortable: false,
    valueFormatter: (value: string) => formatMoney(value),
  },
  {
    field: 'amountAfter',
    headerName: 'Después',
    width: 130,
    align: 'right',
    headerAlign: 'right',
    sortable: false,
    valueFormatter: (value: string) => formatMoney(value),
  },
  {
    field: 'reason',
    headerName: 'Motivo',
    flex: 1,
    minWidth: 220,
    sortable: false,
    // A renewal's cambio names both credits (the agreement's "Renovación en una línea por empleado").
    valueGetter: (_value: unknown, row: DeductionOrderLine) => deductionReasonText(row) ?? '—',
  },
];

const GROUPS: { value: LineGroup; label: string }[] = [
  { value: 'todas', label: 'Todas' },
  { value: 'movimientos', label: 'Movimientos' },
  { value: 'alta', label: 'Altas' },
  { value: 'baja', label: 'Bajas' },
  { value: 'cambio', label: 'Cambios' },
  { value: 'continúa', label: 'Continúan' },
];

function Lines({ order }: { order: DeductionOrder }) {
  const [group, setGroup] = useState<LineGroup>('movimientos');
  const [state, setState] = useState(FIRST_PAGE);
  const lines = useDeductionOrderLines(order.id, group, state.page, state.pageSize);
  return (
    <Stack spacing={2}>
      <Tabs
        value={group}
        onChange={(_event, next: LineGroup) => {
          setGroup(next);
          setState(FIRST_PAGE);
        }}
        variant="scrollable"
        aria-label="Líneas por movimiento"
      >
        {GROUPS.map((entry) => (
          <Tab key={entry.value} value={entry.value} label={entry.label} />
        ))}
      </Tabs>
      <ServerDataGrid<DeductionOrderLine>
        aria-label="Líneas de la cédula"
        columns={lineColumns}
        {...localPageGrid(lines, state, setState)}
        getRowId={(row) => String(row.line)}
        emptyText="Ninguna línea en este grupo."
        hiddenOnPhone={['line', 'curp', 'employeeNumber', 'amountBefore', 'reason']}
      />
    </Stack>
  );
}

function Differences({ order }: { order: DeductionOrder }) {
  const differences = useDeductionOrderDifferences(order.id, order.supersedesId !== null);
  if (!order.supersedesId) return null;
  const describe = (side: { movement: string; amount: string } | null) => (side ? `${side.movement} ${formatMoney(side.amount)}` : '—');
  return (
    <Section title="Diferencias con la cédula sustituida">
      <Stack spacing={1}>
        <Typography>
          Sustituye a <Link to={`/wallet/deduction-orders/${order.supersedesId}`}>la cédula anterior</Link> del mismo día de pago.
        </Typography>
        {(differences.data?.items ?? []).map((item) => (
          <Typography key={item.creditFolio}>
            {`${item.creditFolio} · ${item.employeeNumber} · ${item.name}: ${describe(item.before)} → ${describe(item.after)}`}
          </Typography>
        ))}
      </Stack>
    </Section>
  );
}

const today = () => new Date().toLocaleDateString('en-CA', { timeZone: 'America/Mexico_City' });

function SendDialog({ order, onClose, onNotice }: { order: DeductionOrder; onClose: () => void; onNotice: (notice: Notice) => void }) {
  const send = useSendDeductionOrder();
  const [sentOn, setSentOn] = useState(today());
  const [channel, setChannel] = useState<DeductionOrderChannel>('correo');
  const [note, setNote] = useState('');
  return (
    <Dialog open onClose={onClose} aria-labelledby="send-title">
      <DialogTitle id="send-title">Marcar enviada</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            type="date"
            label="Fecha de envío"
            value={sentOn}
            onChange={(event) => setSentOn(event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField select label="Canal" value={channel} onChange={(event) => setChannel(event.target.value as DeductionOrderChannel)}>
            {DEDUCTION_ORDER_CHANNELS.map((entry) => (
              <MenuItem key={entry} value={entry}>
                {entry}
              </MenuItem>
            ))}
          </TextField>
          <TextField label="Nota" value={note} onChange={(event) => setNote(event.target.value)} multiline minRows={2} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          Cancelar
        </Button>
        <Button
          variant="contained"
          disabled={send.isPending || sentOn === ''}
          onClick={() =>
            send.mutate(
              { id: order.id, body: { sentOn, channel, note } },
              {
                onSuccess: () => {
                  onNotice({ kind: 'success', text: 'Cédula marcada como enviada.' });
                  onClose();
                },
                onError: (error) => onNotice({ kind: 'error', text: error.message }),
              },
            )
          }
        >
          Marcar enviada
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function Actions({ order, onNotice }: { order: DeductionOrder; onNotice: (notice: Notice) => void }) {
  const session = useSession();
  const navigate = useNavigate();
  const issue = useIssueDeductionOrder();
  const substitute = useSubstituteDeductionOrder();
  const [sending, setSending] = useState(false);
  const mayIssue = hasPermission(session, '/actions/wallet/issue-deduction-order');
  const standing = order.status === 'emitida' || order.status === 'enviada';
  const failed = (error: Error) => onNotice({ kind: 'error', text: error.message });
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {order.status === 'borrador' && mayIssue && (
        <ConfirmedButton
          variant="contained"
          pending={issue.isPending}
          confirmation={{
            title: 'Emitir cédula',
            message: `¿Emitir la cédula del ${formatDate(order.payday)} de ${order.agreement}? Una vez emitida no cambia: ${order.instructedCount.toLocaleString('es-MX')} descuentos por ${formatMoney(order.instructedAmount)}.`,
          }}
          onConfirmed={() =>
            issue.mutate(order.id, { onSuccess: () => onNotice({ kind: 'success', text: 'Cédula emitida.' }), onError: failed })
          }
        >
          Emitir
        </ConfirmedButton>
      )}
      {order.status === 'emitida' && (
        <Button variant="outlined" onClick={() => setSending(true)}>
          Marcar enviada
        </Button>
      )}
      {standing && mayIssue && (
        <ConfirmedButton
          pending={substitute.isPending}
          confirmation={{
            title: 'Sustituir cédula',
            message: `¿Sustituir la cédula del ${formatDate(order.payday)} por una nueva calculada con la cartera de hoy? La actual quedará sustituida.`,
            destructive: true,
          }}
          onConfirmed={() =>
            substitute.mutate(order.id, {
              onSuccess: (created) => {
                onNotice({ kind: 'success', text: 'Cédula sustituida.' });
                void navigate(`/wallet/deduction-orders/${created.id}`);
              },
              onError: failed,
            })
          }
        >
          Sustituir
        </ConfirmedButton>
      )}
      <DownloadButtons
        downloads={[
          {
            label: 'Descargar en el layout del convenio',
            run: () => downloadRecordFile(deductionOrderRoutes.download, { id: order.id }, `cedula-${order.payday}`),
          },
        ]}
        onError={(text) => onNotice({ kind: 'error', text })}
      />
      {sending && <SendDialog order={order} onClose={() => setSending(false)} onNotice={onNotice} />}
    </Stack>
  );
}

/** Una cédula: its summary and figures, the actions its status allows, what it replaced, and every line. */
export default function DeductionOrderDetailScreen() {
  const { id = '' } = useParams();
  const order = useDeductionOrder(id);
  const [notice, setNotice] = useState<Notice | null>(null);
  if (order.isError) {
    if (isNotFound(order.error))
      return <NotFoundState what="La cédula" backTo="/wallet/deduction-orders" backLabel="Ir a Cédulas de descuento" />;
    return <Alert severity="error">{order.error.message}</Alert>;
  }
  if (!order.data) return <RouteLoading />;
  const current = order.data;
  return (
    <>
      <Stack direction="row" spacing={2} useFlexGap sx={{ mb: 3, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h1" component="h1">
          Cédula del {formatDate(current.payday)} · {current.agreement}
        </Typography>
        <StatusChip status={current.status} size="medium" />
      </Stack>
      {current.status !== 'borrador' && current.status !== 'sustituida' && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Emitida: un cambio en la cartera después del corte ({formatDate(current.cutOffDate)}) va en la cédula del siguiente día de pago.
        </Alert>
      )}
      {current.supersededById && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          Sustituida por <Link to={`/wallet/deduction-orders/${current.supersededById}`}>una cédula nueva</Link>.
        </Alert>
      )}
      <Section title="Resumen">
        <Stack spacing={3}>
          <DetailList aria-label="Resumen de la cédula" items={summary(current)} />
          <Actions order={current} onNotice={setNotice} />
        </Stack>
      </Section>
      <Differences order={current} />
      <Section title="Líneas">
        <Lines order={current} />
      </Section>
      <NoticeSnackbar notice={notice} onClose={() => setNotice(null)} />
    </>
  );
}
