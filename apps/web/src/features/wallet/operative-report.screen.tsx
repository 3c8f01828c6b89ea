import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { AGING_BUCKET_LABELS, type AgingBucket } from '@portal/lending';
import { REPORT_FILTER_TYPE_LABELS, reportDataset, type ReportParameter, type ReportRun, type RunnableReport } from '@portal/contract';
import { DateField } from '../../components/date-field';
import { useServerList } from '../../components/list-screen';
import { NoticeSnackbar, type Notice } from '../../components/notice-snackbar';
import { RouteLoading } from '../../components/route-loading';
import { Section } from '../../components/section';
import { ServerDataGrid } from '../../components/server-data-grid';
import { StatusChip } from '../../components/status-chip';
import { useAgreementOptions } from '../../lib/credit-list';
import { formatBytes, formatDate, formatDateTime } from '../../lib/format';
import {
  downloadRunFile,
  isRunning,
  reportRunListQuery,
  useActiveRuns,
  useRunnableReports,
  useStartReportRun,
} from './report-runs.queries';

type Parameters = Record<string, ReportParameter>;

/** The words of a run's parameters, for the history ("Convenio: Gobierno de Jalisco · Fecha valor: 01/11/2026 a 15/11/2026"). */
function describeParameters(run: ReportRun, agreements: { value: string; label: string }[]): string {
  const fields = reportDataset(run.dataset)?.fields ?? [];
  const parts = Object.entries(run.parameters).map(([key, parameter]) => {
    const label = fields.find((field) => field.key === key)?.label ?? key;
    if (parameter.from || parameter.to)
      return `${label}: ${parameter.from ? formatDate(parameter.from) : '…'} a ${parameter.to ? formatDate(parameter.to) : '…'}`;
    const value = parameter.value ?? '';
    const shown =
      key === 'agreement'
        ? (agreements.find((option) => option.value === value)?.label ?? value)
        : key === 'bucket'
          ? (AGING_BUCKET_LABELS[value as AgingBucket] ?? value)
          : value;
    return `${label}: ${shown}`;
  });
  return parts.length ? parts.join(' · ') : 'Sin filtros';
}

function ParameterFields(props: {
  report: RunnableReport;
  values: Parameters;
  onChange: (values: Parameters) => void;
  agreements: { value: string; label: string }[];
}) {
  const fields = reportDataset(props.report.dataset)?.fields ?? [];
  const set = (key: string, parameter: ReportParameter) =>
    props.onChange({ ...props.values, [key]: { ...props.values[key], ...parameter } });
  if (props.report.filters.length === 0)
    return <Typography color="text.secondary">Este reporte no pide parámetros: trae todo el conjunto de datos.</Typography>;
  return (
    <Grid container spacing={2}>
      {props.report.filters.map((filter) => {
        const field = fields.find((candidate) => candidate.key === filter.field);
        const label = field?.label ?? filter.field;
        const value = props.values[filter.field] ?? {};
        if (filter.type === 'dateRange') {
          return (
            <Grid key={filter.field} size={{ xs: 12, md: 6 }}>
              <Stack direction="row" spacing={1}>
                <DateField fullWidth label={`${label} desde`} value={value.from ?? ''} onChange={(from) => set(filter.field, { from })} />
                <DateField fullWidth label={`${label} hasta`} value={value.to ?? ''} onChange={(to) => set(filter.field, { to })} />
              </Stack>
            </Grid>
          );
        }
        const options =
          filter.type === 'agreement'
            ? props.agreements
            : (field?.options ?? []).map((option) => ({
                value: option,
                label: filter.type === 'bucket' ? (AGING_BUCKET_LABELS[option as AgingBucket] ?? option) : option,
              }));
        return (
          <Grid key={filter.field} size={{ xs: 12, md: 4 }}>
            <TextField
              select
              fullWidth
              label={filter.type === 'agreement' ? REPORT_FILTER_TYPE_LABELS.agreement : label}
              value={value.value ?? ''}
              onChange={(event) => set(filter.field, { value: event.target.value })}
            >
              <MenuItem value="">Todos</MenuItem>
              {options.map((option) => (
                <MenuItem key={option.value} value={option.value}>
                  {option.label}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
        );
      })}
    </Grid>
  );
}

function RunProgress({ run }: { run: ReportRun }) {
  const percent = run.rowsTotal ? Math.min(100, Math.round((run.rowsDone / run.rowsTotal) * 100)) : 0;
  return (
    <Stack spacing={0.5} sx={{ mb: 2 }}>
      <Typography variant="body2">
        {run.definitionName}:{' '}
        {run.status === 'en espera'
          ? 'en espera…'
          : run.rowsTotal === null
            ? 'preparando…'
            : `${run.rowsDone.toLocaleString('es-MX')} de ${run.rowsTotal.toLocaleString('es-MX')} filas`}
      </Typography>
      <LinearProgress
        variant={run.status === 'en espera' || run.rowsTotal === null ? 'indeterminate' : 'determinate'}
        value={percent}
        aria-label={`Avance de ${run.definitionName}`}
      />
    </Stack>
  );
}

/** Cartera → Reportes Operativos: run a report the profile may run, follow its progress, download its file. */
export default function OperativeReportScreen() {
  const runnable = useRunnableReports();
  const agreements = useAgreementOptions();
  const start = useStartReportRun();
  const { active } = useActiveRuns();
  const history = useServerList(reportRunListQuery, { pageSize: 10 });
  const [chosenId, setChosenId] = useState('');
  const [parameters, setParameters] = useState<Parameters>({});
  const [notice, setNotice] = useState<Notice | null>(null);
  const reports = runnable.data?.items ?? [];
  const chosen = reports.find((report) => report.id === chosenId) ?? null;

  const columns = useMemo<GridColDef<ReportRun>[]>(
    () => [
      {
        field: 'requestedAt',
        headerName: 'Solicitado',
        width: 150,
        sortable: false,
        valueFormatter: (value: string) => formatDateTime(value),
      },
      { field: 'definitionName', headerName: 'Reporte', flex: 1, minWidth: 180, sortable: false },
      {
        field: 'parameters',
        headerName: 'Parámetros',
        flex: 1.2,
        minWidth: 200,
        sortable: false,
        valueGetter: (_value, row) => describeParameters(row, agreements),
      },
      {
        field: 'status',
        headerName: 'Estado',
        width: 120,
        sortable: false,
        renderCell: ({ value }) => <StatusChip status={value as string} />,
      },
      {
        field: 'rowsDone',
        headerName: 'Filas',
        width: 100,
        sortable: false,
        align: 'right',
        headerAlign: 'right',
        valueFormatter: (value: number) => value.toLocaleString('es-MX'),
      },
      {
        field: 'size',
        headerName: 'Tamaño',
        width: 100,
        sortable: false,
        align: 'right',
        headerAlign: 'right',
        valueFormatter: (value: number | null) => (value === null ? '' : formatBytes(value)),
      },
      {
        field: 'durationMs',
        headerName: 'Duración',
        width: 100,
        sortable: false,
        align: 'right',
        headerAlign: 'right',
        valueFormatter: (value: number | null) => (value === null ? '' : `${(value / 1000).toFixed(1)} s`),
      },
      { field: 'requestedBy', headerName: 'Quién', flex: 0.6, minWidth: 130, sortable: false },
      {
        field: 'file',
        headerName: 'Archivo',
        width: 140,
        sortable: false,
        renderCell: ({ row }) =>
          row.status === 'completado' ? (
            <Button
              size="small"
              onClick={(event) => {
                event.stopPropagation();
                downloadRunFile(row).catch((error: unknown) => setNotice({ kind: 'error', text: (error as Error).message }));
              }}
              aria-label={`Descargar ${row.fileName ?? row.definitionName}`}
            >
              Descargar
            </Button>
          ) : row.status === 'fallido' ? (
            <Typography variant="body2" color="error" title={row.error ?? ''}>
              {row.error ?? 'Falló'}
            </Typography>
          ) : null,
      },
    ],
    [agreements],
  );

  const run = async () => {
    if (!chosen) return;
    try {
      await start.mutateAsync({ definitionId: chosen.id, parameters });
      setNotice({ kind: 'success', text: `«${chosen.name}» en proceso. Cuando termine, descárgalo del historial.` });
    } catch (error) {
      setNotice({ kind: 'error', text: (error as Error).message });
    }
  };

  return (
    <Paper sx={{ p: { xs: 2, md: 3 } }}>
      <Typography variant="h1" component="h1" gutterBottom>
        Reportes Operativos
      </Typography>
      <Section title="Ejecutar un reporte">
        {runnable.isError ? (
          <Alert severity="error">{runnable.error.message}</Alert>
        ) : !runnable.data ? (
          <RouteLoading />
        ) : reports.length === 0 ? (
          <Alert severity="info">Tu perfil no tiene reportes que ejecutar. Pide a quien administra la cartera que te permita uno.</Alert>
        ) : (
          <Stack spacing={2}>
            <TextField
              select
              label="Reporte"
              value={chosenId}
              onChange={(event) => {
                setChosenId(event.target.value);
                setParameters({});
              }}
              helperText={
                chosen
                  ? `${reportDataset(chosen.dataset)?.label} · ${chosen.format.toUpperCase()}${chosen.description ? ` · ${chosen.description}` : ''}`
                  : 'Elige el reporte que quieres ejecutar.'
              }
              sx={{ maxWidth: 560 }}
            >
              {reports.map((report) => (
                <MenuItem key={report.id} value={report.id}>
                  {report.name}
                </MenuItem>
              ))}
            </TextField>
            {chosen && <ParameterFields report={chosen} values={parameters} onChange={setParameters} agreements={agreements} />}
            <div>
              <Button variant="contained" disabled={!chosen || start.isPending} onClick={() => void run()}>
                {start.isPending ? 'Enviando…' : 'Ejecutar'}
              </Button>
            </div>
          </Stack>
        )}
      </Section>
      <Section title="Mis ejecuciones">
        {active.map((item) => (
          <RunProgress key={item.id} run={item} />
        ))}
        <ServerDataGrid<ReportRun>
          aria-label="Historial de ejecuciones"
          columns={columns}
          emptyText="Todavía no has ejecutado reportes."
          {...history.grid}
          rows={history.grid.rows.map((row) => active.find((item) => item.id === row.id) ?? row)}
        />
        {active.some(isRunning) && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            Puedes cerrar o recargar la página: el reporte sigue en el servidor.
          </Typography>
        )}
      </Section>
      <NoticeSnackbar notice={notice} onClose={() => setNotice(null)} />
    </Paper>
  );
}
