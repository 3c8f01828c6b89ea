import { useState } from 'react';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useNavigate } from 'react-router';
import { AGING_BUCKETS, CREDIT_STATUSES, type CreditListItem } from '@portal/contract';
import { AGING_BUCKET_LABELS } from '@portal/lending';
import { DateFilter, FilterBar, SelectFilter, TextFilter } from '../../components/filter-bar';
import { ExportButton } from '../../components/export-button';
import { NoticeSnackbar, type Notice } from '../../components/notice-snackbar';
import { ServerDataGrid } from '../../components/server-data-grid';
import { StatusChip } from '../../components/status-chip';
import { formatDate, formatMoney } from '../../lib/format';
import { useListState } from '../../lib/list-state';
import { useAgreementOptions, useCreditList, useCreditTotals } from './credits.queries';

const money = (value: string) => formatMoney(value);

/** Cartera → Créditos: the company's whole portfolio, paged, sorted and filtered by the API; filters live in the URL. */
export default function CreditListScreen() {
  const navigate = useNavigate();
  const { state, update, queryString } = useListState({ sort: '-folio' });
  const list = useCreditList(queryString);
  const totals = useCreditTotals(queryString);
  const agreements = useAgreementOptions();
  const [message, setMessage] = useState<Notice | null>(null);
  const filter = (key: string) => (value: string) => update({ filters: { ...state.filters, [key]: value } });

  const columns: GridColDef<CreditListItem>[] = [
    { field: 'folio', headerName: 'Folio', width: 130 },
    { field: 'clientName', headerName: 'Cliente', flex: 1, minWidth: 180, sortable: false },
    { field: 'curp', headerName: 'CURP', width: 190, sortable: false },
    { field: 'agreement', headerName: 'Convenio', flex: 0.8, minWidth: 150, sortable: false },
    { field: 'company', headerName: 'Empresa', flex: 0.7, minWidth: 140, sortable: false },
    { field: 'principal', headerName: 'Monto', width: 120, align: 'right', headerAlign: 'right', sortable: false, valueFormatter: money },
    { field: 'outstandingBalance', headerName: 'Saldo', width: 130, align: 'right', headerAlign: 'right', valueFormatter: money },
    { field: 'installment', headerName: 'Descuento', width: 110, align: 'right', headerAlign: 'right', sortable: false, valueFormatter: money },
    { field: 'nextDiscountDate', headerName: 'Próximo descuento', width: 140, sortable: false, valueFormatter: (value: string | null) => formatDate(value) },
    { field: 'daysPastDue', headerName: 'Días de atraso', width: 120, align: 'right', headerAlign: 'right' },
    { field: 'bucket', headerName: 'Tramo', width: 130, valueFormatter: (value: CreditListItem['bucket']) => AGING_BUCKET_LABELS[value] },
    { field: 'status', headerName: 'Estado', width: 110, sortable: false, renderCell: ({ value }) => <StatusChip status={value as string} /> },
    { field: 'labels', headerName: 'Etiquetas', width: 150, sortable: false, valueFormatter: (value: string[]) => value.join(', ') },
    { field: 'disbursementDate', headerName: 'Disposición', width: 120, valueFormatter: (value: string) => formatDate(value) },
  ];

  return (
    <Paper sx={{ p: { xs: 2, md: 3 } }}>
      <Typography variant="h1" component="h1" gutterBottom>
        Créditos
      </Typography>
      <FilterBar
        search={state.q}
        onSearch={(q) => update({ q })}
        searchLabel="Buscar por folio, CURP, RFC, nombre o número de empleado"
        actions={<ExportButton path="/api/portfolio/credits/export.xlsx" queryString={queryString} fallbackName="creditos.xlsx" onError={(text) => setMessage({ kind: 'error', text })} />}
      >
        <SelectFilter label="Convenio" value={state.filters.agreementId ?? ''} options={agreements} onChange={filter('agreementId')} />
        <SelectFilter label="Estado" value={state.filters.status ?? ''} options={CREDIT_STATUSES.map((s) => ({ value: s, label: s }))} onChange={filter('status')} />
        <SelectFilter label="Tramo de atraso" value={state.filters.bucket ?? ''} options={AGING_BUCKETS.map((b) => ({ value: b, label: AGING_BUCKET_LABELS[b] }))} onChange={filter('bucket')} />
        <TextFilter label="Etiqueta" value={state.filters.label ?? ''} onChange={filter('label')} />
        <DateFilter label="Dispuesto desde" value={state.filters.disbursedFrom ?? ''} onChange={filter('disbursedFrom')} />
        <DateFilter label="Dispuesto hasta" value={state.filters.disbursedTo ?? ''} onChange={filter('disbursedTo')} />
      </FilterBar>
      <Stack direction="row" spacing={4} useFlexGap sx={{ mb: 2, flexWrap: 'wrap' }} aria-label="Totales del filtro" role="group">
        <Typography>
          Créditos: <strong>{totals.data ? totals.data.count.toLocaleString('es-MX') : '…'}</strong>
        </Typography>
        <Typography>
          Saldo: <strong>{totals.data ? formatMoney(totals.data.outstandingBalance) : '…'}</strong>
        </Typography>
        <Typography>
          Saldo vencido: <strong>{totals.data ? formatMoney(totals.data.overdueBalance) : '…'}</strong>
        </Typography>
      </Stack>
      <ServerDataGrid<CreditListItem>
        aria-label="Créditos"
        columns={columns}
        rows={list.data?.items ?? []}
        total={list.data?.total ?? 0}
        loading={list.isFetching}
        error={list.isError ? list.error.message : null}
        state={state}
        onChange={update}
        onRowClick={(row) => void navigate(`/wallet/credits/credits-view/${row.id}`)}
        emptyText="No hay créditos con estos filtros."
        storageKey="credits"
        defaultHidden={['company', 'labels']}
        hiddenOnPhone={['curp', 'agreement', 'company', 'principal', 'installment', 'nextDiscountDate', 'labels', 'disbursementDate']}
      />
      <NoticeSnackbar notice={message} onClose={() => setMessage(null)} />
    </Paper>
  );
}
