import { useState } from 'react';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { Link } from 'react-router';
import { PAYMENT_COLUMNS, PAYMENT_STATUSES, paymentRoutes, type Payment } from '@portal/contract';
import { gridColumn } from '../../components/declared-columns';
import { ListScreen } from '../../components/list-screen';
import type { Notice } from '../../components/notice-snackbar';
import { StatusChip } from '../../components/status-chip';
import { formatMoney } from '../../lib/format';
import { useAgreementOptions } from '../../lib/credit-list';
import { useCredit } from './credits.queries';
import { paymentListQuery, usePaymentFile, usePaymentTotals } from './payment-files.queries';
import { SPLIT_FIGURES, splitColumns } from './payment-split';

type PaymentColumn = (typeof PAYMENT_COLUMNS)[number]['key'];
const declared = (key: PaymentColumn, layout: Parameters<typeof gridColumn<Payment, PaymentColumn>>[2]) =>
  gridColumn<Payment, PaymentColumn>(PAYMENT_COLUMNS, key, layout);

/** The declared columns (the export's), the file with its line in one cell and the split as screens show it. */
const columns: GridColDef<Payment>[] = [
  declared('creditFolio', {
    // The list sorts by `folio`.
    field: 'folio',
    width: 130,
    valueGetter: (_value, row) => row.creditFolio,
    renderCell: ({ row }) => <Link to={`/wallet/credits/credits-view/${row.creditId}`}>{row.creditFolio}</Link>,
  }),
  declared('clientName', { flex: 1, minWidth: 180, sortable: false }),
  declared('agreement', { flex: 0.8, minWidth: 150, sortable: false }),
  declared('fileName', {
    flex: 0.8,
    minWidth: 190,
    sortable: false,
    renderCell: ({ row }) =>
      row.fileId ? (
        <Link
          to={`/wallet/files-pay-detail/${row.fileId}`}
        >{`${row.fileName ?? 'Archivo'}${row.fileLine === null ? '' : `, línea ${row.fileLine}`}`}</Link>
      ) : (
        'Manual'
      ),
  }),
  declared('valueDate', { width: 120 }),
  declared('amount', { width: 120 }),
  ...splitColumns<Payment>((row) => row.split),
  declared('status', { width: 110, sortable: false, renderCell: ({ value }) => <StatusChip status={value as string} /> }),
];

/**
 * Count, amount and each component of the whole filtered set (not only the page): of the payments that stand unless
 * the filter asks for the reverted ones (the API's rule: money reverted was not collected).
 */
function Totals({ queryString }: { queryString: string }) {
  const totals = usePaymentTotals(queryString);
  const status = new URLSearchParams(queryString).get('status');
  const reverted = status === 'revertido';
  const figure = (label: string, value: string | undefined) => (
    <Typography key={label}>
      {label}: <strong>{value ?? '…'}</strong>
    </Typography>
  );
  return (
    <Stack direction="row" spacing={4} useFlexGap sx={{ mb: 2, flexWrap: 'wrap' }} aria-label="Totales del filtro" role="group">
      {figure(reverted ? 'Pagos revertidos' : 'Pagos aplicados', totals.data?.count.toLocaleString('es-MX'))}
      {figure('Importe', totals.data && formatMoney(totals.data.amount))}
      {SPLIT_FIGURES.map(({ label, of }) => figure(label, totals.data && formatMoney(of(totals.data.split))))}
      {/* The list shows every status unless filtered; the totals add what stands. */}
      {!status && (
        <Typography variant="body2" color="text.secondary" sx={{ flexBasis: '100%' }}>
          Los totales suman solo los pagos aplicados; la lista muestra también los revertidos (filtra por estado para verlos aparte).
        </Typography>
      )}
    </Stack>
  );
}

/** The file and the credit a link filters by (a file's detail, a credit's view), by name. */
function FileChipLabel({ id }: { id: string }) {
  const file = usePaymentFile(id);
  return `Archivo: ${file.data?.fileName ?? (file.isError ? 'no encontrado' : '…')}`;
}

function CreditChipLabel({ id }: { id: string }) {
  const credit = useCredit(id);
  return `Crédito: ${credit.data?.folio ?? (credit.isError ? 'no encontrado' : '…')}`;
}

/** Cartera → Reporte de pagos: the payments applied, each with how its pesos were split; filters in the URL, totals and export. */
export default function PaymentReportScreen() {
  const agreements = useAgreementOptions();
  const [notice, setNotice] = useState<Notice | null>(null);
  return (
    <ListScreen<Payment>
      title="Reporte de pagos"
      aria-label="Pagos"
      query={paymentListQuery}
      defaults={{ sort: '-valueDate' }}
      searchLabel="Buscar por folio, CURP o nombre"
      filters={[
        { kind: 'select', key: 'agreementId', label: 'Convenio', options: agreements },
        { kind: 'date', key: 'from', label: 'Fecha valor desde' },
        { kind: 'date', key: 'to', label: 'Fecha valor hasta', after: 'from' },
        { kind: 'select', key: 'status', label: 'Estado', options: PAYMENT_STATUSES.map((status) => ({ value: status, label: status })) },
        { kind: 'chip', key: 'fileId', label: (id) => <FileChipLabel id={id} /> },
        { kind: 'chip', key: 'creditId', label: (id) => <CreditChipLabel id={id} /> },
      ]}
      summary={(queryString) => <Totals queryString={queryString} />}
      exportTo={{ route: paymentRoutes.export, fallbackName: 'pagos.xlsx' }}
      columns={columns}
      emptyText="No hay pagos con estos filtros."
      storageKey="payments"
      hiddenOnPhone={[
        'clientName',
        'agreement',
        'fileName',
        'split-principal',
        'split-interest',
        'split-iva',
        'split-moratory',
        'split-fees',
        'split-overpayment',
      ]}
      notice={notice}
      onNotice={setNotice}
    />
  );
}
