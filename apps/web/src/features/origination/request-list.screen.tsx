import { useState } from 'react';
import NoteAddOutlined from '@mui/icons-material/NoteAddOutlined';
import type { GridColDef } from '@mui/x-data-grid';
import { useLocation, useSearchParams } from 'react-router';
import { REQUEST_STATUSES, type RequestSummary } from '@portal/contract';
import { ListScreen } from '../../components/list-screen';
import type { Notice } from '../../components/notice-snackbar';
import { formatDateTime, formatMoney, todayInMexico } from '../../lib/format';
import { requestListQuery, useOriginationCatalog } from './origination.queries';
import { RequestDetailDrawer } from './request-detail';
import { RequestStatusChip } from './request-status';

// Key columns first, status leading them, so they fit at 1440 px beside the sidebar; CURP, Convenio and Producto
// start hidden and come back from any column's menu (the choice, widths and order are remembered per browser).
const columns: GridColDef<RequestSummary>[] = [
  { field: 'folio', headerName: 'Folio', width: 110 },
  { field: 'status', headerName: 'Estado', width: 130, renderCell: ({ row }) => <RequestStatusChip status={row.status} /> },
  { field: 'clientName', headerName: 'Cliente', flex: 1, minWidth: 170 },
  { field: 'amount', headerName: 'Monto', width: 115, type: 'number', valueFormatter: (value: string) => formatMoney(value) },
  {
    field: 'installment',
    headerName: 'Pago',
    width: 105,
    type: 'number',
    sortable: false,
    valueFormatter: (value: string) => formatMoney(value),
  },
  { field: 'term', headerName: 'Plazo', width: 70, type: 'number', sortable: false },
  { field: 'documents', headerName: 'Docs', width: 70, sortable: false, valueFormatter: (value: number) => `${value}/3` },
  { field: 'createdBy', headerName: 'Capturó', flex: 0.7, minWidth: 140, sortable: false },
  { field: 'createdAt', headerName: 'Fecha', width: 140, valueFormatter: (value: string) => formatDateTime(value) },
  { field: 'curp', headerName: 'CURP', width: 200, sortable: false },
  { field: 'agreement', headerName: 'Convenio', flex: 1, minWidth: 160, sortable: false },
  { field: 'product', headerName: 'Producto', flex: 0.8, minWidth: 140, sortable: false },
];

/** Capturas: every request, filtered and paged by the API; a row opens its detail panel (`?id=`). */
export default function RequestListScreen() {
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const catalog = useOriginationCatalog();
  const [notice, setNotice] = useState<Notice | null>(() => {
    const text = (location.state as { notice?: string } | null)?.notice;
    return text ? { kind: 'success', text } : null;
  });

  const openDetail = (id: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (id) next.set('id', id);
      else next.delete('id');
      return next;
    });

  return (
    <ListScreen<RequestSummary>
      title="Capturas"
      aria-label="Capturas"
      query={requestListQuery}
      defaults={{ sort: '-createdAt' }}
      kept={['id']}
      searchLabel="Buscar por folio, cliente o CURP"
      filters={[
        { kind: 'select', key: 'status', label: 'Estado', options: REQUEST_STATUSES.map((status) => ({ value: status, label: status })) },
        {
          kind: 'select',
          key: 'agreementId',
          label: 'Convenio',
          options: (catalog.data?.agreements ?? []).map((agreement) => ({
            value: agreement.id,
            label: `${agreement.code} · ${agreement.name}`,
          })),
        },
        { kind: 'date', key: 'from', label: 'Desde' },
        { kind: 'date', key: 'to', label: 'Hasta', after: 'from' },
        { kind: 'text', key: 'capturer', label: 'Capturó' },
      ]}
      create={{ to: '/origination/request-new', label: 'Nueva solicitud', icon: <NoteAddOutlined /> }}
      columns={columns}
      onRowClick={(row) => openDetail(row.id)}
      emptyText="No hay solicitudes con estos filtros."
      storageKey="requests"
      defaultHidden={['curp', 'agreement', 'product']}
      hiddenOnPhone={['clientName', 'installment', 'term', 'documents', 'createdBy', 'createdAt']}
      notice={notice}
      onNotice={setNotice}
    >
      <RequestDetailDrawer id={params.get('id') ?? ''} today={catalog.data?.today ?? todayInMexico()} onClose={() => openDetail(null)} />
    </ListScreen>
  );
}
