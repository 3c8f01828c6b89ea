import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { GridColDef } from '@mui/x-data-grid';
import { useNavigate } from 'react-router';
import { DEDUCTION_ORDER_STATUSES, type DeductionOrder } from '@portal/contract';
import { ListScreen } from '../../components/list-screen';
import type { Notice } from '../../components/notice-snackbar';
import { StatusChip } from '../../components/status-chip';
import { useAgreementOptions } from '../../lib/credit-list';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format';
import { deductionOrderListQuery, useDeductionOrderOptions, useGenerateDeductionOrder } from './deduction-orders.queries';

const figures = (label: string, key: 'altas' | 'bajas' | 'cambios' | 'continuing'): GridColDef<DeductionOrder> => ({
  field: key,
  headerName: label,
  width: 150,
  align: 'right',
  headerAlign: 'right',
  sortable: false,
  valueGetter: (_value, row) => `${row[key].count.toLocaleString('es-MX')} · ${formatMoney(row[key].amount)}`,
});

/** Agreement, payday and status first; the four movements with their amounts; who emitted it and when. */
const columns: GridColDef<DeductionOrder>[] = [
  { field: 'agreement', headerName: 'Convenio', flex: 0.8, minWidth: 160 },
  { field: 'payday', headerName: 'Día de pago', width: 120, valueFormatter: (value: string) => formatDate(value) },
  { field: 'status', headerName: 'Estado', width: 120, renderCell: ({ value }) => <StatusChip status={value as string} /> },
  figures('Altas', 'altas'),
  figures('Bajas', 'bajas'),
  figures('Cambios', 'cambios'),
  figures('Continúan', 'continuing'),
  {
    field: 'instructedAmount',
    headerName: 'Total a descontar',
    width: 150,
    align: 'right',
    headerAlign: 'right',
    sortable: false,
    valueFormatter: (value: string) => formatMoney(value),
  },
  {
    field: 'issuedBy',
    headerName: 'Emitió',
    flex: 0.7,
    minWidth: 180,
    sortable: false,
    valueGetter: (_value, row) => (row.issuedAt ? `${row.issuedBy ?? 'Sistema'} · ${formatDateTime(row.issuedAt)}` : '—'),
  },
];

/** Generar: the agreement's next payday still before its cut-off, computed at the fecha flujo. */
function GeneratePanel({ onNotice }: { onNotice: (notice: Notice) => void }) {
  const options = useDeductionOrderOptions();
  const generate = useGenerateDeductionOrder();
  const navigate = useNavigate();
  const [agreementId, setAgreementId] = useState('');
  const chosen = options.data?.find((option) => option.agreementId === agreementId);
  if (options.isError) return <Alert severity="error">{options.error.message}</Alert>;
  return (
    <Stack spacing={1} sx={{ mb: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          select
          size="small"
          label="Convenio a generar"
          value={agreementId}
          onChange={(event) => setAgreementId(event.target.value)}
          sx={{ minWidth: 260 }}
        >
          {(options.data ?? []).map((option) => (
            <MenuItem key={option.agreementId} value={option.agreementId}>
              {option.agreement}
            </MenuItem>
          ))}
        </TextField>
        <Button
          variant="contained"
          disabled={!chosen || generate.isPending}
          onClick={() =>
            generate.mutate(agreementId, {
              onSuccess: (order) => void navigate(`/wallet/deduction-orders/${order.id}`),
              onError: (error) => onNotice({ kind: 'error', text: error.message }),
            })
          }
        >
          Generar
        </Button>
      </Stack>
      {chosen && (
        <Alert severity="info">
          {`Fecha flujo ${formatDate(chosen.businessDate)}: se genera la cédula del día de pago ${formatDate(chosen.nextPayday)} (corte ${formatDate(chosen.cutOffDate)}).`}
          {chosen.frozenPaydays.length > 0 &&
            ` Ya emitida la del ${chosen.frozenPaydays.map(formatDate).join(', ')}: los cambios de la cartera van en la del ${formatDate(chosen.nextPayday)}.`}
        </Alert>
      )}
    </Stack>
  );
}

/** Cartera → Cédulas de descuento: per agreement and payday, the instruction sent to the employer; a row opens it. */
export default function DeductionOrderListScreen() {
  const agreements = useAgreementOptions();
  const [notice, setNotice] = useState<Notice | null>(null);
  return (
    <ListScreen<DeductionOrder>
      title="Cédulas de descuento"
      aria-label="Cédulas de descuento"
      query={deductionOrderListQuery}
      defaults={{ sort: '-payday' }}
      searchLabel="Buscar por convenio"
      filters={[
        { kind: 'select', key: 'agreementId', label: 'Convenio', options: agreements },
        {
          kind: 'select',
          key: 'status',
          label: 'Estado',
          options: DEDUCTION_ORDER_STATUSES.map((status) => ({ value: status, label: status })),
        },
      ]}
      columns={columns}
      rowTo={(row) => `/wallet/deduction-orders/${row.id}`}
      emptyText="No hay cédulas con estos filtros."
      storageKey="deduction-orders"
      hiddenOnPhone={['altas', 'bajas', 'cambios', 'continuing', 'issuedBy']}
      notice={notice}
      onNotice={setNotice}
      summary={() => <GeneratePanel onNotice={setNotice} />}
    />
  );
}
