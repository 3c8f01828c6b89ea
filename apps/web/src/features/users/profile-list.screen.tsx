import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { profileInputSchema, type Profile, type ProfileInput } from '@portal/contract';
import { useConfirm } from '../../components/confirm-dialog';
import { RouteLoading } from '../../components/route-loading';
import { ApiError } from '../../lib/api';
import { PermissionTree } from './permission-tree';
import { useDeleteProfile, useProfiles, useSaveProfile } from './users.queries';

type Editing = { profile: Profile | null };

function ProfileDialog({ editing, onClose }: { editing: Editing; onClose: (saved: string | null) => void }) {
  const save = useSaveProfile();
  const [value, setValue] = useState<ProfileInput>(
    editing.profile ? { name: editing.profile.name, roleCode: editing.profile.roleCode, permissions: editing.profile.permissions as ProfileInput['permissions'] } : { name: '', roleCode: '', permissions: [] },
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async () => {
    const parsed = profileInputSchema.safeParse(value);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    setErrors({});
    setFailure(null);
    try {
      await save.mutateAsync({ ...parsed.data, ...(editing.profile ? { id: editing.profile.id, version: editing.profile.version } : {}) });
      onClose(editing.profile ? 'Perfil actualizado.' : 'Perfil creado.');
    } catch (error) {
      const fieldErrors = error instanceof ApiError ? error.fieldErrors : [];
      setErrors(Object.fromEntries(fieldErrors.map((fieldError) => [fieldError.field, fieldError.message])));
      if (fieldErrors.length === 0) setFailure((error as Error).message);
    }
  };

  return (
    <Dialog open onClose={() => onClose(null)} maxWidth="sm" fullWidth aria-labelledby="profile-dialog-title">
      <DialogTitle id="profile-dialog-title">{editing.profile ? 'Editar perfil' : 'Nuevo perfil'}</DialogTitle>
      <DialogContent>
        {failure && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {failure}
          </Alert>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 1, mb: 2 }}>
          <TextField label="Nombre del perfil" value={value.name} onChange={(event) => setValue({ ...value, name: event.target.value })} error={Boolean(errors.name)} helperText={errors.name} fullWidth />
          <TextField
            label="Clave del rol"
            value={value.roleCode}
            onChange={(event) => setValue({ ...value, roleCode: event.target.value.toUpperCase() })}
            error={Boolean(errors.roleCode)}
            helperText={errors.roleCode ?? 'Por ejemplo SA, CARTERA'}
            fullWidth
          />
        </Stack>
        <PermissionTree value={value.permissions} onChange={(permissions) => setValue({ ...value, permissions: permissions as ProfileInput['permissions'] })} />
        {errors.permissions && <Alert severity="error">{errors.permissions}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(null)}>Cancelar</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={save.isPending}>
          {save.isPending ? 'Guardando…' : 'Guardar'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default function ProfileListScreen() {
  const profiles = useProfiles();
  const remove = useDeleteProfile();
  const confirm = useConfirm();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  const destroy = async (profile: Profile) => {
    if (!(await confirm({ title: 'Eliminar perfil', message: `¿Eliminar el perfil ${profile.name}? Esta acción no se puede deshacer.`, destructive: true }))) return;
    try {
      await remove.mutateAsync(profile.id);
      setMessage({ kind: 'success', text: 'Perfil eliminado.' });
    } catch (error) {
      setMessage({ kind: 'error', text: (error as Error).message });
    }
  };

  return (
    <Paper sx={{ p: 3 }}>
      <Stack direction="row" sx={{ mb: 2, alignItems: 'center' }}>
        <Typography variant="h1" component="h1" sx={{ flexGrow: 1 }}>
          Perfiles
        </Typography>
        <Button variant="contained" onClick={() => setEditing({ profile: null })}>
          Nuevo perfil
        </Button>
      </Stack>
      {message && (
        <Alert severity={message.kind} sx={{ mb: 2 }} onClose={() => setMessage(null)}>
          {message.text}
        </Alert>
      )}
      {profiles.isError ? (
        <Alert severity="error">{profiles.error.message}</Alert>
      ) : !profiles.data ? (
        <RouteLoading />
      ) : (
        <Table aria-label="Perfiles">
          <TableHead>
            <TableRow>
              <TableCell>Perfil</TableCell>
              <TableCell>Rol</TableCell>
              <TableCell align="right">Usuarios</TableCell>
              <TableCell align="right">Permisos</TableCell>
              <TableCell align="right">Acciones</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {profiles.data.map((profile) => (
              <TableRow key={profile.id}>
                <TableCell>{profile.name}</TableCell>
                <TableCell>{profile.roleCode}</TableCell>
                <TableCell align="right">{profile.userCount}</TableCell>
                <TableCell align="right">{profile.permissions.length}</TableCell>
                <TableCell align="right">
                  <Button size="small" onClick={() => setEditing({ profile })}>
                    Editar
                  </Button>
                  <Tooltip title={profile.userCount > 0 ? 'Tiene usuarios: asígnales otro perfil antes de eliminarlo' : ''}>
                    <span>
                      <Button size="small" color="error" disabled={profile.userCount > 0} onClick={() => void destroy(profile)}>
                        Eliminar
                      </Button>
                    </span>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {editing && (
        <ProfileDialog
          editing={editing}
          onClose={(saved) => {
            setEditing(null);
            if (saved) setMessage({ kind: 'success', text: saved });
          }}
        />
      )}
    </Paper>
  );
}
