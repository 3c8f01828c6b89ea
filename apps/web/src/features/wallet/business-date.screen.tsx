import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import Alert from '@mui/material/Alert';
import type { GridColDef } from '@mui/x-data-grid';
import type { BusinessDate, DayClose } from '@portal/contract';
import { useSession } from '../../lib/auth/use-session';
import { hasPermission } from '../../lib/auth/session';
import { useConfirm } from '../../components/confirm-dialog';
import { NoticeSnackbar, type Notice } from '../../components/notice-snackbar';
import { Section } from '../../components/section';
import { ServerDataGrid } from '../../components/server-data-grid';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format';
import { useServerList } from '../../components/list-screen';
import { dayCloseListQuery, useBusinessDates, useStartDayClose, walletKeys } from './credits.queries';
import { ScrollTable } from '../../components/scroll-table';

const historyColumns: GridColDef<DayClose>[] = [
  { field: 'businessDate', headerName: 'Día cerrado', width: 120, valueFormatter: (value: string) => formatDate(value) },
  { field: 'company', headerName: 'Empresa', flex: 1, minWidth: 150 },
  { field: 'creditsProcessed', headerName: 'Créditos procesados', width: 150, align: 'right', headerAlign: 'right' },
  { field: 'newVencidos', headerName: 'Nuevos vencidos', width: 130, align: 'right', headerAlign: 'right' },
  { field: 'toTransit', headerName: 'A tránsito', width: 100, align: 'right', headerAlign: 'right' },
  { field: 'toNotApplied', headerName: 'No aplicados', width: 110, align: 'right', headerAlign: 'right' },
  {
    field: 'moratoryAccrued',
    headerName: 'Moratorios',
    width: 130,
    align: 'right',
    headerAlign: 'right',
    valueFormatter: (value: string) => formatMoney(value),
  },
  {
    field: 'durationMs',
    headerName: 'Duración',
    width: 100,
    align: 'right',
    headerAlign: 'right',
    valueFormatter: (value: number) => `${(value / 1000).toFixed(1)} s`,
  },
  { field: 'closedBy', headerName: 'Cerró', flex: 1, minWidth: 160, valueFormatter: (value: string | null) => value ?? 'Sistema' },
  { field: 'closedAt', headerName: 'Fecha y hora', width: 160, valueFormatter: (value: string) => formatDateTime(value) },
];

function RunProgress({ date }: { date: BusinessDate }) {
  const run = date.activeRun;
  if (!run) return null;
  const percent = run.daysTotal === 0 ? 0 : Math.round((run.daysDone / run.daysTotal) * 100);
  return (
    <Stack spacing={0.5} sx={{ minWidth: 200 }}>
      <LinearProgress
        variant={run.status === 'en espera' ? 'indeterminate' : 'determinate'}
        value={percent}
        aria-label={`Avance del cierre de ${date.company}`}
      />
      <Typography variant="body2">
        {run.status === 'en espera' ? 'En espera…' : `Cerrando: ${run.daysDone} de ${run.daysTotal} días`}
      </Typography>
    </Stack>
  );
}

/** Admin Fecha Flujo: each company's business date, "Cerrar día" as a background job, and the closes so far. */
export default function BusinessDateScreen() {
  const session = useSession();
  const confirm = useConfirm();
  const dates = useBusinessDates();
  const history = useServerList(dayCloseListQuery, { pageSize: 10 });
  const start = useStartDayClose();
  const [message, setMessage] = useState<Notice | null>(null);
  const canClose = hasPermission(session, '/actions/wallet/close-day');
  const client = useQueryClient();
  // When a business date moves (a close ended, here or elsewhere), its days appear in the history and the portfolio's
  // figures moved: read them again.
  const signature = (dates.data ?? []).map((d) => `${d.companyId}:${d.businessDate}`).join();
  const seen = useRef(signature);
  useEffect(() => {
    if (seen.current !== signature) {
      void client.invalidateQueries({ queryKey: walletKeys.dayClosesAll });
      void client.invalidateQueries({ queryKey: walletKeys.credits });
    }
    seen.current = signature;
  }, [signature, client]);

  const close = async (date: BusinessDate) => {
    // A day that has not come is not closed (its payroll and payments have not happened): said before asking.
    if (date.businessDate > date.today) {
      setMessage({
        kind: 'error',
        text: `El día ${formatDate(date.businessDate)} todavía no llega: hoy es ${formatDate(date.today)}. Se cierra hasta el día de hoy.`,
      });
      return;
    }
    const yes = await confirm({
      title: 'Cerrar día',
      message: `Se cerrará el día ${formatDate(date.businessDate)} de ${date.company}: los créditos se envejecen a esa fecha, los descuentos pasan a tránsito o no aplicado y se calculan moratorios. ¿Cerrar el día?`,
    });
    if (!yes) return;
    try {
      await start.mutateAsync({ companyId: date.companyId });
      setMessage({ kind: 'success', text: `Cierre del ${formatDate(date.businessDate)} en proceso.` });
    } catch (error) {
      setMessage({ kind: 'error', text: (error as Error).message });
    }
  };

  return (
    <Paper sx={{ p: { xs: 2, md: 3 } }}>
      <Typography variant="h1" component="h1" gutterBottom>
        Admin Fecha Flujo
      </Typography>
      <Section title="Fecha flujo por empresa">
        {dates.isError && <Alert severity="error">{dates.error.message}</Alert>}
        <ScrollTable label="Fecha flujo por empresa">
          <TableHead>
            <TableRow>
              <TableCell>Empresa</TableCell>
              <TableCell>Fecha flujo</TableCell>
              <TableCell>Cierre</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {(dates.data ?? []).map((date) => (
              <TableRow key={date.companyId}>
                <TableCell>{date.company}</TableCell>
                <TableCell>{formatDate(date.businessDate)}</TableCell>
                <TableCell>
                  <RunProgress date={date} />
                </TableCell>
                <TableCell align="right">
                  {canClose && (
                    <Button variant="contained" disabled={date.activeRun !== null || start.isPending} onClick={() => void close(date)}>
                      Cerrar día
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </ScrollTable>
      </Section>
      <Section title="Historial de cierres">
        <ServerDataGrid<DayClose>
          aria-label="Historial de cierres"
          columns={historyColumns}
          {...history.grid}
          getRowId={(row) => String(row.id)}
          emptyText="Todavía no se ha cerrado ningún día."
          storageKey="day-closes"
          hiddenOnPhone={['company', 'toTransit', 'toNotApplied', 'moratoryAccrued', 'durationMs', 'closedBy', 'closedAt']}
        />
      </Section>
      <NoticeSnackbar notice={message} onClose={() => setMessage(null)} />
    </Paper>
  );
}
