import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router';
import { RouteLoading } from '../../components/route-loading';
import { EMPTY_DEFINITION, ReportForm } from './report-form';
import { useCreateReportDefinition, useReportProfiles } from './reports.queries';

/** Admon Cartera → Nuevo Reporte Operativo. */
export default function ReportsNewScreen() {
  const navigate = useNavigate();
  const profiles = useReportProfiles();
  const create = useCreateReportDefinition();
  return (
    <>
      <Typography variant="h1" component="h1" sx={{ mb: 3 }}>
        Nuevo Reporte Operativo
      </Typography>
      {profiles.isError ? (
        <Alert severity="error">No se pudieron cargar los perfiles. Recarga la página.</Alert>
      ) : !profiles.data ? (
        <RouteLoading />
      ) : (
        <ReportForm
          defaultValues={EMPTY_DEFINITION}
          profiles={profiles.data.items}
          submitLabel="Guardar reporte"
          onSubmit={async (input) => {
            const created = await create.mutateAsync(input);
            await navigate(`/admon-wallet/report-edit/${created.id}`, { state: { notice: 'Reporte creado.' } });
          }}
          onCancel={() => void navigate('/admon-wallet/reports-list')}
        />
      )}
    </>
  );
}
