import { useState } from 'react';
import type { GridColDef } from '@mui/x-data-grid';
import { PAYMENT_FILE_STATUSES, type PaymentFile } from '@portal/contract';
import { ListScreen } from '../../components/list-screen';
import type { Notice } from '../../components/notice-snackbar';
import { StatusChip } from '../../components/status-chip';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format';
import { useAgreementOptions } from '../../lib/credit-list';
import { paymentFileListQuery } from './payment-files.queries';

const money = (value: string) => formatMoney(value);

/** What the file is and where it stands first (agreement, date, name, status, amounts); who loaded it and when after. */
const columns: GridColDef<PaymentFile>[] = [
  { field: 'agreement', headerName: 'Convenio', flex: 0.8, minWidth: 160 },
  { field: 'discountDate', headerName: 'Fecha de descuento', width: 150, valueFormatter: (value: string) => formatDate(value) },
  {
    field: 'fileName',
    headerName: 'Archivo',
    flex: 1,
    minWidth: 200,
    sortable: false,
    renderCell: ({ value }) => <span title={value as string}>{value as string}</span>,
  },
  { field: 'status', headerName: 'Estado', width: 120, renderCell: ({ value }) => <StatusChip status={value as string} /> },
  {
    field: 'amountApplied',
    headerName: 'Importe aplicado',
    width: 170,
    align: 'right',
    headerAlign: 'right',
    // A reverted file's payments were undone: what it had applied, said as such.
    valueFormatter: (value: string, row) => (row.status === 'revertido' ? `${money(value)} (revertido)` : money(value)),
  },
  {
    field: 'amountRejected',
    headerName: 'Importe rechazado',
    width: 140,
    align: 'right',
    headerAlign: 'right',
    sortable: false,
    valueFormatter: money,
  },
  {
    field: 'rowsTotal',
    headerName: 'Filas',
    width: 90,
    align: 'right',
    headerAlign: 'right',
    sortable: false,
    valueFormatter: (value: number) => value.toLocaleString('es-MX'),
  },
  {
    field: 'rowsValid',
    headerName: 'Válidas / rechazadas',
    width: 160,
    align: 'right',
    headerAlign: 'right',
    sortable: false,
    valueGetter: (_value, row) => `${row.rowsValid.toLocaleString('es-MX')} / ${row.rowsRejected.toLocaleString('es-MX')}`,
  },
  {
    field: 'uploadedBy',
    headerName: 'Cargó',
    flex: 0.7,
    minWidth: 150,
    sortable: false,
    valueFormatter: (value: string | null) => value ?? 'Sistema',
  },
  { field: 'uploadedAt', headerName: 'Fecha de carga', width: 150, valueFormatter: (value: string) => formatDateTime(value) },
];

/** Cartera → Listado de archivos de pagos: every file loaded, filtered in the URL; a row opens the file's detail. */
export default function PaymentFileListScreen() {
  const agreements = useAgreementOptions();
  const [notice, setNotice] = useState<Notice | null>(null);
  return (
    <ListScreen<PaymentFile>
      title="Listado de archivos de pagos"
      aria-label="Archivos de pagos"
      query={paymentFileListQuery}
      defaults={{ sort: '-uploadedAt' }}
      searchLabel="Buscar por nombre de archivo"
      filters={[
        { kind: 'select', key: 'agreementId', label: 'Convenio', options: agreements },
        {
          kind: 'select',
          key: 'status',
          label: 'Estado',
          options: PAYMENT_FILE_STATUSES.map((status) => ({ value: status, label: status })),
        },
        { kind: 'date', key: 'discountFrom', label: 'Descuento desde' },
        { kind: 'date', key: 'discountTo', label: 'Descuento hasta', after: 'discountFrom' },
      ]}
      columns={columns}
      rowTo={(row) => `/wallet/files-pay-detail/${row.id}`}
      emptyText="No hay archivos de pagos con estos filtros."
      storageKey="payment-files"
      hiddenOnPhone={['discountDate', 'uploadedBy', 'uploadedAt', 'rowsTotal', 'rowsValid', 'amountRejected']}
      notice={notice}
      onNotice={setNotice}
    />
  );
}
