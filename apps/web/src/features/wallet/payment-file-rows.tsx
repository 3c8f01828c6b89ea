import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { GridColDef } from '@mui/x-data-grid';
import { Link } from 'react-router';
import type { z } from 'zod';
import type { PaymentFile, PaymentFileRow, missingDeductionSchema } from '@portal/contract';
import { localPageGrid } from '../../components/page-grid';
import { ServerDataGrid } from '../../components/server-data-grid';
import { StatusChip } from '../../components/status-chip';
import { formatMoney } from '../../lib/format';
import type { ListState } from '../../lib/list-state';
import { useFileRows, useMissingDeductions, type RowGroup } from './payment-files.queries';
import { AllocationTable, splitColumns } from './payment-split';

type MissingDeduction = z.infer<typeof missingDeductionSchema>;
type RowsTab = RowGroup | 'faltantes';

const FIRST_PAGE: ListState = { page: 1, pageSize: 25, sort: null, q: '', filters: {} };
const creditLink = (creditId: string, folio: string) => <Link to={`/wallet/credits/credits-view/${creditId}`}>{folio}</Link>;
const money = (value: string | null) => (value === null ? '—' : formatMoney(value));

/**
 * A row's outcome; a sobrepago pays the credit off and keeps the rest as saldo a favor, and once applied says so. A row
 * whose payment was undone with its file says that too: its split stays, for the record.
 */
function OutcomeChips({ row }: { row: PaymentFileRow }) {
  return (
    <Box sx={{ display: 'flex', gap: 0.5 }}>
      <StatusChip
        status={row.outcome}
        label={row.outcome === 'sobrepago' && row.paymentStatus === 'aplicado' ? 'aplicado con sobrepago' : row.outcome}
      />
      {row.paymentStatus === 'revertido' && <StatusChip status="revertido" />}
    </Box>
  );
}

/**
 * The identifying and money columns first (line, outcome, credit, amount, and once applied the split), so that at a
 * laptop's width they show without scrolling; the reason, the employee number and the CURP after them.
 */
function rowColumns(applied: boolean, onAllocation: (row: PaymentFileRow) => void): GridColDef<PaymentFileRow>[] {
  const leading: GridColDef<PaymentFileRow>[] = [
    { field: 'line', headerName: 'Línea', width: 70, sortable: false },
    { field: 'outcome', headerName: 'Resultado', width: 200, sortable: false, renderCell: ({ row }) => <OutcomeChips row={row} /> },
    {
      field: 'creditFolio',
      headerName: 'Crédito',
      width: 130,
      sortable: false,
      renderCell: ({ row }) => (row.creditId && row.creditFolio ? creditLink(row.creditId, row.creditFolio) : (row.creditRef ?? '—')),
    },
    { field: 'amount', headerName: 'Importe', width: 120, align: 'right', headerAlign: 'right', sortable: false, valueFormatter: money },
    // Against the payday's emitted cédula (issue 46): what it instructed, and a warning when the row's amount differs.
    {
      field: 'instructedAmount',
      headerName: 'Instruido en cédula',
      width: 190,
      sortable: false,
      renderCell: ({ row }) => (
        <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', justifyContent: 'flex-end', width: '100%' }}>
          {row.amountDiffers && <StatusChip status="importe distinto" />}
          <span>{money(row.instructedAmount)}</span>
        </Box>
      ),
    },
  ];
  const trailing: GridColDef<PaymentFileRow>[] = [
    // The whole reason on hover when the column cuts it.
    {
      field: 'message',
      headerName: 'Motivo',
      flex: 1,
      minWidth: 220,
      sortable: false,
      renderCell: ({ value }) => <span title={value ?? ''}>{value ?? ''}</span>,
    },
    {
      field: 'employeeNumber',
      headerName: 'Núm. empleado',
      width: 130,
      sortable: false,
      valueFormatter: (value: string | null) => value ?? '—',
    },
    { field: 'curpRfc', headerName: 'CURP / RFC', width: 180, sortable: false, valueFormatter: (value: string | null) => value ?? '—' },
  ];
  if (!applied) return [...leading, ...trailing];
  return [
    ...leading,
    ...splitColumns<PaymentFileRow>((row) => row.split),
    {
      field: 'allocation',
      headerName: 'Reparto',
      width: 120,
      sortable: false,
      renderCell: ({ row }) =>
        row.allocation.length > 0 ? (
          <Button size="small" onClick={() => onAllocation(row)} aria-label={`Ver reparto de la línea ${row.line}`}>
            Ver reparto
          </Button>
        ) : null,
    },
    ...trailing,
  ];
}

const missingColumns: GridColDef<MissingDeduction>[] = [
  {
    field: 'creditFolio',
    headerName: 'Crédito',
    width: 140,
    sortable: false,
    renderCell: ({ row }) => creditLink(row.creditId, row.creditFolio),
  },
  { field: 'clientName', headerName: 'Cliente', flex: 1, minWidth: 200, sortable: false },
  { field: 'employeeNumber', headerName: 'Núm. empleado', width: 130, sortable: false },
  { field: 'period', headerName: 'Periodo', width: 90, sortable: false },
  {
    field: 'amount',
    headerName: 'Importe esperado',
    width: 150,
    align: 'right',
    headerAlign: 'right',
    sortable: false,
    valueFormatter: (value: string) => formatMoney(value),
  },
  { field: 'state', headerName: 'Estado del descuento', width: 170, sortable: false },
];

function RowsGrid({ file, group, onAllocation }: { file: PaymentFile; group: RowGroup; onAllocation: (row: PaymentFileRow) => void }) {
  const [state, setState] = useState(FIRST_PAGE);
  const rows = useFileRows(file.id, group, state.page, state.pageSize);
  // Rejected rows have no payment: their tab shows no split.
  const applied = (file.status === 'aplicado' || file.status === 'revertido') && group !== 'rechazados';
  return (
    <ServerDataGrid<PaymentFileRow>
      aria-label={`Filas: ${group}`}
      columns={rowColumns(applied, onAllocation)}
      {...localPageGrid(rows, state, setState)}
      getRowId={(row) => String(row.line)}
      emptyText={group === 'rechazados' ? 'Ninguna fila rechazada.' : 'Ninguna fila en este grupo.'}
      hiddenOnPhone={['message', 'employeeNumber', 'curpRfc', 'instructedAmount']}
    />
  );
}

function MissingGrid({ file }: { file: PaymentFile }) {
  const [state, setState] = useState(FIRST_PAGE);
  const missing = useMissingDeductions(file.id, state.page, state.pageSize);
  return (
    <ServerDataGrid<MissingDeduction>
      aria-label="Descuentos faltantes"
      columns={missingColumns}
      {...localPageGrid(missing, state, setState)}
      getRowId={(row) => `${row.creditId}-${row.period}`}
      emptyText="El archivo trae todos los descuentos esperados en la fecha."
      hiddenOnPhone={['employeeNumber', 'state']}
    />
  );
}

/**
 * The file's rows by outcome, each with its reason, and the expected deductions it lacks. `all` adds the tab of every
 * row (the detail); the upload preview starts on the accepted ones.
 */
export function FileRows({ file, all = false }: { file: PaymentFile; all?: boolean }) {
  const tabs: { value: RowsTab; label: string }[] = [
    ...(all ? [{ value: 'todos' as const, label: `Todas (${file.rowsTotal.toLocaleString('es-MX')})` }] : []),
    { value: 'aceptados', label: `Aceptados (${file.rowsValid.toLocaleString('es-MX')})` },
    { value: 'rechazados', label: `Rechazados (${file.rowsRejected.toLocaleString('es-MX')})` },
    { value: 'faltantes', label: `Descuentos faltantes (${file.missingCount.toLocaleString('es-MX')})` },
  ];
  const [tab, setTab] = useState<RowsTab>(tabs[0]!.value);
  const [allocation, setAllocation] = useState<PaymentFileRow | null>(null);
  return (
    <>
      <Tabs
        value={tab}
        onChange={(_event, value: RowsTab) => setTab(value)}
        aria-label="Filas del archivo"
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        sx={{ mb: 2 }}
      >
        {tabs.map((entry) => (
          <Tab key={entry.value} value={entry.value} label={entry.label} id={`file-tab-${entry.value}`} aria-controls="file-tab-panel" />
        ))}
      </Tabs>
      <Box role="tabpanel" id="file-tab-panel" aria-labelledby={`file-tab-${tab}`}>
        {tab === 'faltantes' ? <MissingGrid file={file} /> : <RowsGrid key={tab} file={file} group={tab} onAllocation={setAllocation} />}
      </Box>
      {allocation && (
        <Dialog open onClose={() => setAllocation(null)} fullWidth maxWidth="sm" aria-labelledby="allocation-title">
          <DialogTitle id="allocation-title">Reparto de la línea {allocation.line}</DialogTitle>
          <DialogContent>
            <AllocationTable lines={allocation.allocation} aria-label={`Reparto de la línea ${allocation.line}`} />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setAllocation(null)}>Cerrar</Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}
