import { useState } from 'react';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import NoteAddOutlined from '@mui/icons-material/NoteAddOutlined';
import type { GridColDef } from '@mui/x-data-grid';
import { Link, useLocation, useSearchParams } from 'react-router';
import { REQUEST_STATUSES, type RequestSummary } from '@portal/contract';
import { hasPermission } from '../../app/auth/session';
import { useSession } from '../../app/auth/use-session';
import { DateFilter, FilterBar, SelectFilter, TextFilter } from '../../components/filter-bar';
import { NoticeSnackbar, type Notice } from '../../components/notice-snackbar';
import { ServerDataGrid } from '../../components/server-data-grid';
import { formatDateTime, formatMoney, todayInMexico } from '../../lib/format';
import { useListState } from '../../lib/list-state';
import { useOriginationCatalog, useRequestList } from './origination.queries';
import { RequestDetailDrawer } from './request-detail';
import { RequestStatusChip } from './request-status';

// Key columns first, status leading them, so they fit at 1440 px beside the sidebar; CURP, Convenio and Producto
// start hidden and come back from any column's menu (the choice, widths and order are remembered per browser).
const columns: GridColDef<RequestSummary>[] = [
  { field: 'folio', headerName: 'Folio', width: 110 },
  { field: 'status', headerName: 'Estado', width: 130, renderCell: ({ row }) => <RequestStatusChip status={row.status} /> },
  { field: 'clientName', headerName: 'Cliente', flex: 1, minWidth: 170 },
  { field: 'amount', headerName: 'Monto', width: 115, type: 'number', valueFormatter: (value: string) => formatMoney(value) },
  { field: 'installment', headerName: 'Pago', width: 105, type: 'number', sortable: false, valueFormatter: (value: string) => formatMoney(value) },
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
  const session = useSession();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const { state, update, queryString } = useListState({ sort: '-createdAt' }, ['id']);
  const list = useRequestList(queryString);
  const catalog = useOriginationCatalog();
  const [message, setMessage] = useState<Notice | null>(() => {
    const text = (location.state as { notice?: string } | null)?.notice;
    return text ? { kind: 'success', text } : null;
  });
  const filter = (key: string) => (value: string) => update({ filters: { ...state.filters, [key]: value } });

  const openDetail = (id: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (id) next.set('id', id);
      else next.delete('id');
      return next;
    });

  return (
    <Paper sx={{ p: { xs: 2, md: 3 } }}>
      <Typography variant="h1" component="h1" gutterBottom>
        Capturas
      </Typography>
      <FilterBar
        search={state.q}
        onSearch={(q) => update({ q })}
        searchLabel="Buscar por folio, cliente o CURP"
        actions={
          hasPermission(session, '/origination/request-new') && (
            <Button variant="contained" startIcon={<NoteAddOutlined />} component={Link} to="/origination/request-new">
              Nueva solicitud
            </Button>
          )
        }
      >
        <SelectFilter label="Estado" value={state.filters.status ?? ''} options={REQUEST_STATUSES.map((status) => ({ value: status, label: status }))} onChange={filter('status')} />
        <SelectFilter
          label="Convenio"
          value={state.filters.agreementId ?? ''}
          options={(catalog.data?.agreements ?? []).map((agreement) => ({ value: agreement.id, label: `${agreement.code} · ${agreement.name}` }))}
          onChange={filter('agreementId')}
        />
        <DateFilter label="Desde" value={state.filters.from ?? ''} onChange={filter('from')} />
        <DateFilter label="Hasta" value={state.filters.to ?? ''} onChange={filter('to')} />
        <TextFilter label="Capturó" value={state.filters.capturer ?? ''} onChange={filter('capturer')} />
      </FilterBar>
      <ServerDataGrid<RequestSummary>
        aria-label="Capturas"
        columns={columns}
        rows={list.data?.items ?? []}
        total={list.data?.total ?? 0}
        loading={list.isFetching}
        error={list.isError ? list.error.message : null}
        state={state}
        onChange={update}
        onRowClick={(row) => openDetail(row.id)}
        emptyText="No hay solicitudes con estos filtros."
        storageKey="requests"
        defaultHidden={['curp', 'agreement', 'product']}
        hiddenOnPhone={['clientName', 'installment', 'term', 'documents', 'createdBy', 'createdAt']}
      />
      <RequestDetailDrawer id={params.get('id') ?? ''} today={catalog.data?.today ?? todayInMexico()} onClose={() => openDetail(null)} />
      <NoticeSnackbar notice={message} onClose={() => setMessage(null)} />
    </Paper>
  );
}
