import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useLocation, useNavigate, useParams } from 'react-router';
import type { AuditEntry } from '@portal/contract';
import { RouteLoading } from '../../components/route-loading';
import { formatDateTime } from '../../lib/format';
import { hasPermission } from '../../lib/auth/session';
import { useSession } from '../../lib/auth/use-session';
import { ResendAccess } from './access-link';
import { UserForm } from './user-form';
import { useProfiles, useUpdateUser, useUser } from './users.queries';
import { useCompanies } from '../../lib/catalogs';
import { NotFoundState, isNotFound } from '../../components/not-found-state';

const ACTIONS: Record<string, string> = {
  'user.create': 'Alta',
  'user.update': 'Edición',
  'user.deactivate': 'Desactivación',
  'user.reactivate': 'Reactivación',
  'password.set': 'Creó su contraseña',
  'password.reset': 'Restableció su contraseña',
  'user.access-link': 'Enlace de acceso reenviado',
};

const LABELS: Record<string, string> = { email: 'correo', name: 'nombre', profileId: 'perfil', companyId: 'empresa', active: 'activo' };

/** "nombre, perfil" — which fields an audit event changed. */
function changedFields(entry: AuditEntry): string {
  const before = (entry.before ?? {}) as Record<string, unknown>;
  const after = (entry.after ?? {}) as Record<string, unknown>;
  const keys = Object.keys(after).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return entry.before ? keys.map((key) => LABELS[key] ?? key).join(', ') : '';
}

export default function UserEditScreen() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const session = useSession();
  const location = useLocation();
  const user = useUser(id);
  const profiles = useProfiles();
  const companies = useCompanies();
  const update = useUpdateUser(id);
  const [saved, setSaved] = useState<string | null>((location.state as { notice?: string } | null)?.notice ?? null);

  if (user.isError) {
    if (isNotFound(user.error)) return <NotFoundState what="El usuario" backTo="/user/user-list" backLabel="Ir a la lista de usuarios" />;
    return <Alert severity="error">{user.error.message}</Alert>;
  }
  if (!user.data || !profiles.data || !companies.data) return <RouteLoading />;
  const current = user.data;

  return (
    <>
      <Paper sx={{ p: 3, mb: 3 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 3, alignItems: { sm: 'flex-start' } }}>
          <Box sx={{ flexGrow: 1 }}>
            <Typography variant="h1" component="h1" gutterBottom>
              Editar usuario
            </Typography>
            <Typography color="text.secondary">
              {current.email} · último acceso: {formatDateTime(current.lastSignInAt)}
            </Typography>
          </Box>
          {current.active && hasPermission(session, '/user/user-new') && <ResendAccess userId={current.id} email={current.email} />}
        </Stack>
        {saved && (
          <Alert severity="success" sx={{ mb: 2 }} onClose={() => setSaved(null)}>
            {saved}
          </Alert>
        )}
        <UserForm
          key={current.version}
          defaultValues={{
            email: current.email,
            name: current.name ?? '',
            profileId: current.profileId,
            companyId: current.companyId,
            active: current.active,
          }}
          profiles={profiles.data}
          companies={companies.data}
          submitLabel="Guardar cambios"
          onSubmit={async (values) => {
            setSaved(null);
            await update.mutateAsync({ ...values, version: current.version });
            setSaved('Cambios guardados');
          }}
          onCancel={() => void navigate('/user/user-list')}
        />
      </Paper>
      <Paper sx={{ p: 3 }}>
        <Typography variant="h2" component="h2" gutterBottom>
          Historial
        </Typography>
        <Table size="small" aria-label="Historial del usuario">
          <TableHead>
            <TableRow>
              <TableCell>Fecha</TableCell>
              <TableCell>Quién</TableCell>
              <TableCell>Qué</TableCell>
              <TableCell>Campos</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {current.history.map((entry) => (
              <TableRow key={entry.id}>
                <TableCell>{formatDateTime(entry.occurredAt)}</TableCell>
                <TableCell>{entry.actorEmail ?? 'sistema'}</TableCell>
                <TableCell>{ACTIONS[entry.action] ?? entry.action}</TableCell>
                <TableCell>{changedFields(entry)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
    </>
  );
}
