import { useState } from 'react';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CREDIT_COLUMNS, creditRoutes, type CreditListItem } from '@portal/contract';
import { AGING_BUCKET_LABELS } from '@portal/lending';
import { gridColumns } from '../../components/declared-columns';
import { ListScreen } from '../../components/list-screen';
import type { Notice } from '../../components/notice-snackbar';
import { StatusChip } from '../../components/status-chip';
import { formatMoney } from '../../lib/format';
import { creditListFilters, creditListQuery, useAgreementOptions } from '../../lib/credit-list';
import { useCreditTotals } from './credits.queries';

const columns = gridColumns<CreditListItem, (typeof CREDIT_COLUMNS)[number]['key']>(CREDIT_COLUMNS, {
  folio: { width: 130 },
  clientName: { flex: 1, minWidth: 180, sortable: false },
  curp: { width: 190, sortable: false },
  agreement: { flex: 0.8, minWidth: 150, sortable: false },
  company: { flex: 0.7, minWidth: 140, sortable: false },
  principal: { width: 120, sortable: false },
  outstandingBalance: { width: 130 },
  installment: { width: 110, sortable: false },
  nextDiscountDate: { width: 140, sortable: false },
  daysPastDue: { width: 120 },
  bucket: { width: 150, valueFormatter: (value: CreditListItem['bucket']) => AGING_BUCKET_LABELS[value] },
  status: { width: 110, sortable: false, renderCell: ({ value }) => <StatusChip status={value as string} /> },
  labels: { width: 150, sortable: false, valueFormatter: (value: string[]) => value.join(', ') },
  disbursementDate: { width: 150 },
});

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
