import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useNavigate } from 'react-router';
import { PAYMENT_BATCH_STATUSES, type PaymentBatch, type PaymentOrder } from '@portal/contract';
import { useConfirm } from '../../components/confirm-dialog';
import { ListScreen } from '../../components/list-screen';
import type { Notice } from '../../components/notice-snackbar';
import { localPageGrid } from '../../components/page-grid';
import { ServerDataGrid } from '../../components/server-data-grid';
import { StatusChip } from '../../components/status-chip';
import { hasPermission } from '../../lib/auth/session';
import { useSession } from '../../lib/auth/use-session';
import { formatDateTime, formatMoney } from '../../lib/format';
import type { ListState } from '../../lib/list-state';
import { paymentBatchListQuery, useGenerateBatch, usePendingOrders } from './treasury.queries';

const money = { align: 'right', headerAlign: 'right', valueFormatter: (value: string) => formatMoney(value) } as const;

const batchColumns: GridColDef<PaymentBatch>[] = [
  { field: 'folio', headerName: 'Lote', width: 120, sortable: false },
  {
    field: 'status',
    headerName: 'Estado',
    width: 140,
    sortable: false,
    renderCell: ({ value }) => <StatusChip status={value as string} />,
  },
  { field: 'orderCount', headerName: 'Órdenes', width: 100, sortable: false, align: 'right', headerAlign: 'right' },
  { field: 'total', headerName: 'Importe', width: 150, sortable: false, ...money },
  {
    field: 'results',
    headerName: 'Liquidadas · rechazadas',
    width: 190,
    sortable: false,
    valueGetter: (_value, row) => `${row.settledCount} · ${row.rejectedCount}`,
  },
  {
    field: 'generatedBy',
    headerName: 'Generó',
    flex: 1,
    minWidth: 200,
    sortable: false,
    valueGetter: (_value, row) => `${row.generatedBy ?? 'Sistema'} · ${formatDateTime(row.generatedAt)}`,
  },
  {
    field: 'authorizedBy',
    headerName: 'Autorizó',
    flex: 1,
    minWidth: 200,
    sortable: false,
    valueGetter: (_value, row) => (row.authorizedAt ? `${row.authorizedBy ?? 'Sistema'} · ${formatDateTime(row.authorizedAt)}` : '—'),
  },
];

const orderColumns: GridColDef<PaymentOrder>[] = [
  { field: 'folio', headerName: 'Orden', width: 110, sortable: false },
  { field: 'kind', headerName: 'Tipo', width: 110, sortable: false },
  { field: 'creditFolio', headerName: 'Crédito', width: 130, sortable: false },
  { field: 'beneficiary', headerName: 'Beneficiario', flex: 1, minWidth: 200, sortable: false },
  { field: 'clabe', headerName: 'CLABE', width: 190, sortable: false, valueGetter: (_value, row) => `${row.clabe} (${row.bank})` },
  { field: 'amount', headerName: 'Importe', width: 140, sortable: false, ...money },
  {
    field: 'lastRejectionReason',
    headerName: 'Último rechazo',
    flex: 1,
    minWidth: 180,
    sortable: false,
    valueFormatter: (value: string | null) => value ?? '—',
  },
];

const FIRST_PAGE: ListState = { page: 1, pageSize: 10, sort: null, q: '', filters: {} };

/** What is pending (por enviar, rejected ones again with their reason) and Generar lote. */
function PendingOrders({ onNotice }: { onNotice: (notice: Notice) => void }) {
  const session = useSession();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const [state, setState] = useState(FIRST_PAGE);
  const pending = usePendingOrders(state.page, state.pageSize);
  const generate = useGenerateBatch();
  const [sourceAccount, setSourceAccount] = useState('');
  const mayGenerate = hasPermission(session, '/actions/treasury/generate-batch');
  const count = pending.data?.total ?? 0;
  const validAccount = /^\d{18}$/.test(sourceAccount);
  return (
    <Stack spacing={2} sx={{ mb: 3 }}>
      <Typography variant="h2" component="h2">
        Órdenes por enviar
      </Typography>
      <ServerDataGrid<PaymentOrder>
        aria-label="Órdenes por enviar"
        columns={orderColumns}
        {...localPageGrid(pending, state, setState)}
        emptyText="No hay órdenes por enviar."
        hiddenOnPhone={['folio', 'clabe', 'lastRejectionReason']}
      />
      {mayGenerate && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <TextField
            size="small"
            label="Cuenta de origen (CLABE)"
            value={sourceAccount}
            onChange={(event) => setSourceAccount(event.target.value.replace(/\D/g, '').slice(0, 18))}
            error={sourceAccount !== '' && !validAccount}
            helperText={sourceAccount !== '' && !validAccount ? 'La CLABE tiene 18 dígitos.' : ' '}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            sx={{ minWidth: 280 }}
          />
          <Button
            variant="contained"
            disabled={count === 0 || !validAccount || generate.isPending}
            onClick={async () => {
              const yes = await confirm({
                title: 'Generar lote',
                message: `¿Generar un lote con las órdenes por enviar (${count.toLocaleString('es-MX')})? Otra persona deberá autorizarlo antes de enviarlo al banco.`,
              });
              if (yes)
                generate.mutate(sourceAccount, {
                  onSuccess: (batch) => void navigate(`/treasury/payment-orders/${batch.id}`),
                  onError: (error) => onNotice({ kind: 'error', text: error.message }),
                });
            }}
          >
            Generar lote
          </Button>
        </Stack>
      )}
      <Typography variant="h2" component="h2">
        Lotes
      </Typography>
    </Stack>
  );
}

/** Tesorería → Órdenes de pago: what is pending, Generar lote, and the batches; a row opens the batch and its lines. */
export default function PaymentOrdersScreen() {
  const [notice, setNotice] = useState<Notice | null>(null);
  return (
    <ListScreen<PaymentBatch>
      title="Órdenes de pago"
      aria-label="Lotes de órdenes de pago"
      query={paymentBatchListQuery}
      searchLabel="Buscar"
      filters={[
        {
          kind: 'select',
          key: 'status',
          label: 'Estado',
          options: PAYMENT_BATCH_STATUSES.map((status) => ({ value: status, label: status })),
        },
      ]}
      columns={batchColumns}
      rowTo={(row) => `/treasury/payment-orders/${row.id}`}
      emptyText="Aún no hay lotes."
      storageKey="payment-batches"
      hiddenOnPhone={['results', 'generatedBy', 'authorizedBy']}
      notice={notice}
      onNotice={setNotice}
      summary={() => (
        <>
          <PendingOrders onNotice={setNotice} />
          <Alert severity="info" sx={{ mb: 2 }}>
            Quien genera un lote no lo autoriza. El archivo del banco se descarga del lote autorizado.
          </Alert>
        </>
      )}
    />
  );
}
