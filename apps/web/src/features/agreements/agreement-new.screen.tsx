import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router';
import { RouteLoading } from '../../components/route-loading';
import { useCompanies } from '../../lib/catalogs';
import { AgreementFormView } from './agreement-form';
import { emptyAgreement } from './agreement-form-model';
import { useCreateAgreement } from './agreements.queries';

export const todayIso = () => new Date().toLocaleDateString('en-CA', { timeZone: 'America/Mexico_City' });

export default function AgreementNewScreen() {
  const navigate = useNavigate();
  const companies = useCompanies();
  const create = useCreateAgreement();
  const today = todayIso();
  return (
    <>
      <Typography variant="h1" component="h1" sx={{ mb: 3 }}>
        Nuevo Convenio
      </Typography>
      {companies.isError ? (
        <Alert severity="error">No se pudieron cargar las empresas. Recarga la página.</Alert>
      ) : !companies.data ? (
        <RouteLoading />
      ) : (
        <AgreementFormView
          defaultValues={{ ...emptyAgreement(today), companyId: companies.data.length === 1 ? companies.data[0]!.id : '' }}
          companies={companies.data}
          today={today}
          submitLabel="Guardar convenio"
          onSubmit={async (input) => {
            const created = await create.mutateAsync(input);
            await navigate(`/catalog/contract-edit/${created.id}`, { state: { notice: 'Convenio creado.' } });
          }}
          onCancel={() => void navigate('/catalog/contract-list')}
        />
      )}
    </>
  );
}
