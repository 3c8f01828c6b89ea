import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router';
import { RouteLoading } from '../../components/route-loading';
import { EMPTY_USER, UserForm } from './user-form';
import { useCreateUser, useProfiles } from './users.queries';
import { useCompanies } from '../../lib/catalogs';

export default function UserNewScreen() {
  const navigate = useNavigate();
  const profiles = useProfiles();
  const companies = useCompanies();
  const create = useCreateUser();

  return (
    <Paper sx={{ p: 3 }}>
      <Typography variant="h1" component="h1" gutterBottom>
        Nuevo Usuario
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        La persona crea su contraseña con un enlace de acceso: al guardar, en su ficha, «Reenviar acceso» te lo muestra para que se lo
        compartas.
      </Typography>
      {profiles.isError || companies.isError ? (
        <Alert severity="error">No se pudieron cargar los perfiles y las empresas. Recarga la página.</Alert>
      ) : !profiles.data || !companies.data ? (
        <RouteLoading />
      ) : (
        <UserForm
          defaultValues={{ ...EMPTY_USER, companyId: companies.data.length === 1 ? companies.data[0]!.id : '' }}
          profiles={profiles.data}
          companies={companies.data}
          submitLabel="Guardar"
          onSubmit={async (values) => {
            const created = await create.mutateAsync(values);
            await navigate(`/user/user-edit/${created.id}`, { state: { notice: 'Usuario creado.' } });
          }}
          onCancel={() => void navigate('/user/user-list')}
        />
      )}
    </Paper>
  );
}
