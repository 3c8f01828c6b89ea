import { useState } from 'react';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { creditRoutes, type CreditListItem } from '@portal/contract';
import { AGING_BUCKET_LABELS } from '@portal/lending';
import { ListScreen } from '../../components/list-screen';
import type { Notice } from '../../components/notice-snackbar';
import { StatusChip } from '../../components/status-chip';
import { formatDate, formatMoney } from '../../lib/format';
import { creditListFilters, creditListQuery, useAgreementOptions } from '../../lib/credit-list';
import { useCreditTotals } from './credits.queries';

const money = (value: string) => formatMoney(value);

const columns: GridColDef<CreditListItem>[] = [
  { field: 'folio', headerName: 'Folio', width: 130 },
  { field: 'clientName', headerName: 'Cliente', flex: 1, minWidth: 180, sortable: false },
  { field: 'curp', headerName: 'CURP', width: 190, sortable: false },
  { field: 'agreement', headerName: 'Convenio', flex: 0.8, minWidth: 150, sortable: false },
  { field: 'company', headerName: 'Empresa', flex: 0.7, minWidth: 140, sortable: false },
  { field: 'principal', headerName: 'Capital', width: 120, align: 'right', headerAlign: 'right', sortable: false, valueFormatter: money },
  { field: 'outstandingBalance', headerName: 'Saldo', width: 130, align: 'right', headerAlign: 'right', valueFormatter: money },
  {
    field: 'installment',
    headerName: 'Descuento',
    width: 110,
    align: 'right',
    headerAlign: 'right',
    sortable: false,
    valueFormatter: money,
  },
  {
    field: 'nextDiscountDate',
    headerName: 'Próximo descuento',
    width: 140,
    sortable: false,
    valueFormatter: (value: string | null) => formatDate(value),
  },
  { field: 'daysPastDue', headerName: 'Días de atraso', width: 120, align: 'right', headerAlign: 'right' },
  { field: 'bucket', headerName: 'Tramo', width: 130, valueFormatter: (value: CreditListItem['bucket']) => AGING_BUCKET_LABELS[value] },
  {
    field: 'status',
    headerName: 'Estado',
    width: 110,
    sortable: false,
    renderCell: ({ value }) => <StatusChip status={value as string} />,
  },
  { field: 'labels', headerName: 'Etiquetas', width: 150, sortable: false, valueFormatter: (value: string[]) => value.join(', ') },
  { field: 'disbursementDate', headerName: 'Disposición', width: 120, valueFormatter: (value: string) => formatDate(value) },
];

/** Count, balance and overdue balance of the whole filtered set (not only the page). */
function Totals({ queryString }: { queryString: string }) {
  const totals = useCreditTotals(queryString);
  const figure = (label: string, value: string | undefined) => (
    <Typography>
      {label}: <strong>{value ?? '…'}</strong>
    </Typography>
  );
  return (
    <Stack direction="row" spacing={4} useFlexGap sx={{ mb: 2, flexWrap: 'wrap' }} aria-label="Totales del filtro" role="group">
      {figure('Créditos', totals.data?.count.toLocaleString('es-MX'))}
      {figure('Saldo', totals.data && formatMoney(totals.data.outstandingBalance))}
      {figure('Saldo vencido', totals.data && formatMoney(totals.data.overdueBalance))}
    </Stack>
  );
}

/** Cartera → Créditos: the company's whole portfolio, paged, sorted and filtered by the API; filters live in the URL. */
export default function CreditListScreen() {
  const agreements = useAgreementOptions();
  const [notice, setNotice] = useState<Notice | null>(null);
  return (
    <ListScreen<CreditListItem>
      title="Créditos"
      aria-label="Créditos"
      query={creditListQuery}
      defaults={{ sort: '-folio' }}
      searchLabel="Buscar por folio, CURP, RFC, nombre o número de empleado"
      filters={creditListFilters(agreements)}
      summary={(queryString) => <Totals queryString={queryString} />}
      exportTo={{ route: creditRoutes.export, fallbackName: 'creditos.xlsx' }}
      columns={columns}
      rowTo={(row) => `/wallet/credits/credits-view/${row.id}`}
      emptyText="No hay créditos con estos filtros."
      storageKey="credits"
      defaultHidden={['company', 'labels']}
      hiddenOnPhone={['curp', 'agreement', 'company', 'principal', 'installment', 'nextDiscountDate', 'labels', 'disbursementDate']}
      notice={notice}
      onNotice={setNotice}
    />
  );
}
