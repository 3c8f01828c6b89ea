import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useLocation, useNavigate, useParams } from 'react-router';
import { reportDataset } from '@portal/contract';
import { NotFoundState, isNotFound } from '../../components/not-found-state';
import { RouteLoading } from '../../components/route-loading';
import { formatDateTime } from '../../lib/format';
import { ReportForm } from './report-form';
import { useReportDefinition, useReportProfiles, useUpdateReportDefinition } from './reports.queries';

const ACTIONS: Record<string, string> = {
  'report-definition.create': 'Creó el reporte',
  'report-definition.update': 'Editó el reporte',
  'report-definition.activate': 'Activó el reporte',
  'report-definition.deactivate': 'Desactivó el reporte',
  'report.run': 'Ejecutó el reporte',
};

/** Admon Cartera → a definition: its form on the version read, and its history (edits and runs). */
export default function ReportEditScreen() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const definition = useReportDefinition(id);
  const profiles = useReportProfiles();
  const update = useUpdateReportDefinition(id);
  const [notice, setNotice] = useState<string | null>((location.state as { notice?: string } | null)?.notice ?? null);

  if (definition.isError) {
    if (isNotFound(definition.error))
      return <NotFoundState what="El reporte" backTo="/admon-wallet/reports-list" backLabel="Ir a la lista de reportes" />;
    return <Alert severity="error">{definition.error.message}</Alert>;
  }
  if (profiles.isError) return <Alert severity="error">No se pudieron cargar los perfiles. Recarga la página.</Alert>;
  if (!definition.data || !profiles.data) return <RouteLoading />;
  const current = definition.data;
  const { id: _id, companyId: _companyId, company, profiles: _names, active, version, updatedAt: _updatedAt, history, ...values } = current;

  return (
    <>
      <Typography variant="h1" component="h1" sx={{ mb: 1 }}>
        {current.name}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {reportDataset(current.dataset)?.label} · {company} · versión {version}
        {active ? '' : ' · inactivo'}
      </Typography>
      {notice && (
        <Alert severity="success" sx={{ mb: 2 }} onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <ReportForm
        key={version}
        defaultValues={values}
        profiles={profiles.data.items}
        submitLabel="Guardar cambios"
        onSubmit={async (input) => {
          setNotice(null);
          await update.mutateAsync({ ...input, version });
          setNotice('Cambios guardados');
        }}
        onCancel={() => void navigate('/admon-wallet/reports-list')}
      />
      <Paper sx={{ p: 3, mt: 3 }}>
        <Typography variant="h2" component="h2" gutterBottom>
          Historial
        </Typography>
        <Table size="small" aria-label="Historial del reporte">
          <TableHead>
            <TableRow>
              <TableCell>Fecha</TableCell>
              <TableCell>Quién</TableCell>
              <TableCell>Qué</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {history.map((entry) => (
              <TableRow key={entry.id}>
                <TableCell>{formatDateTime(entry.occurredAt)}</TableCell>
                <TableCell>{entry.actorEmail ?? 'sistema'}</TableCell>
                <TableCell>{ACTIONS[entry.action] ?? entry.action}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
    </>
  );
}
