import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router';
import { RouteLoading } from '../../app/shell/route-loading';
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
        El usuario recibe un enlace para crear su contraseña (en el modo embebido, en la bandeja de salida).
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
            await navigate(`/user/user-edit/${created.id}`, { state: { notice: 'Usuario creado. Le enviamos su enlace de acceso.' } });
          }}
          onCancel={() => void navigate('/user/user-list')}
        />
      )}
    </Paper>
  );
}
