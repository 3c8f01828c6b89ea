import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import type { PreRequest } from '@portal/contract';
import { StatusChip } from '../../components/status-chip';
import { ServerDataGrid } from '../../components/server-data-grid';
import { formatDateTime, formatMoney } from '../../lib/format';
import { useServerList } from '../../components/list-screen';
import { myPreRequestsQuery } from './origination.queries';

const columns: GridColDef<PreRequest>[] = [
  { field: 'folio', headerName: 'Folio', width: 120 },
  { field: 'createdAt', headerName: 'Capturada', width: 150, valueFormatter: (value: string) => formatDateTime(value) },
  {
    field: 'client',
    headerName: 'Cliente',
    flex: 1,
    minWidth: 200,
    sortable: false,
    valueGetter: (_value, row) => `${row.firstNames} ${row.lastName1} ${row.lastName2}`.trim(),
  },
  { field: 'agreement', headerName: 'Convenio', flex: 1, minWidth: 180, sortable: false },
  { field: 'amount', headerName: 'Monto', width: 130, type: 'number', valueFormatter: (value: string) => formatMoney(value) },
  { field: 'term', headerName: 'Plazo', width: 80, sortable: false },
  {
    field: 'result',
    headerName: 'Dictamen',
    width: 130,
    sortable: false,
    renderCell: ({ row }) => <StatusChip status={row.result} />,
  },
  { field: 'status', headerName: 'Estado', width: 120, renderCell: ({ row }) => <StatusChip status={row.status} /> },
];

/** The clerk's own pre-requests, newest first; a row opens its edit screen. */
export function MyPreRequests() {
  const { grid } = useServerList(myPreRequestsQuery, { sort: '-createdAt', pageSize: 10 });
  return (
    <Paper sx={{ p: 3, mt: 3 }} component="section" aria-label="Mis pre-solicitudes">
      <Typography variant="h2" component="h2" sx={{ mb: 2 }}>
        Mis pre-solicitudes
      </Typography>
      {grid.error ? (
        <Alert severity="error">{grid.error}</Alert>
      ) : (
        <ServerDataGrid<PreRequest>
          {...grid}
          aria-label="Mis pre-solicitudes"
          columns={columns}
          rowTo={(row) => `/origination/pre-request-edit/${row.id}`}
          emptyText="Todavía no tienes pre-solicitudes."
        />
      )}
    </Paper>
  );
}
