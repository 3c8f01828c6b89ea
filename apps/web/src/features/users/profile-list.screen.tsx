import { useState } from 'react';
import { useController } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { profileInputSchema, type Profile, type ProfileInput } from '@portal/contract';
import { useConfirm } from '../../components/confirm-dialog';
import { RouteLoading } from '../../components/route-loading';
import { TextFormField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/schema-form';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { PermissionTree } from './permission-tree';
import { useDeleteProfile, useProfiles, useSaveProfile } from './users.queries';
import { ScrollTable } from '../../components/scroll-table';

type Editing = { profile: Profile | null };

const EMPTY_PROFILE: ProfileInput = { name: '', roleCode: '', permissions: [] };

function ProfileDialog({ editing, onClose }: { editing: Editing; onClose: (saved: string | null) => void }) {
  const save = useSaveProfile();
  const { profile } = editing;
  const [defaultValues] = useState<ProfileInput>(() =>
    profile
      ? { name: profile.name, roleCode: profile.roleCode, permissions: profile.permissions as ProfileInput['permissions'] }
      : EMPTY_PROFILE,
  );
  const { form, formProps, dialog, summary } = useSchemaForm(profileInputSchema, {
    defaultValues,
    onSubmit: async (values) => {
      await save.mutateAsync({ ...values, ...(profile ? { id: profile.id, version: profile.version } : {}) });
      onClose(profile ? 'Perfil actualizado.' : 'Perfil creado.');
    },
  });
  const permissions = useController({ control: form.control, name: 'permissions' });

  return (
    <Dialog open onClose={() => onClose(null)} maxWidth="sm" fullWidth aria-labelledby="profile-dialog-title">
      <form {...formProps}>
        {dialog}
        <DialogTitle id="profile-dialog-title">{profile ? 'Editar perfil' : 'Nuevo perfil'}</DialogTitle>
        <DialogContent>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 1, mb: 2 }}>
            <TextFormField control={form.control} name="name" label="Nombre del perfil" />
            <TextFormField
              control={form.control}
              name="roleCode"
              label="Clave del rol"
              normalize={(value) => value.toUpperCase()}
              helperText="Por ejemplo SA, CARTERA"
            />
          </Stack>
          <PermissionTree value={permissions.field.value} onChange={permissions.field.onChange} />
          {permissions.fieldState.error && <Alert severity="error">{permissions.fieldState.error.message}</Alert>}
        </DialogContent>
        <FormDialogActions summary={summary} submitting={form.formState.isSubmitting} onCancel={() => onClose(null)} />
      </form>
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
    if (
      !(await confirm({
        title: 'Eliminar perfil',
        message: `¿Eliminar el perfil ${profile.name}? Esta acción no se puede deshacer.`,
        destructive: true,
      }))
    )
      return;
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
        <ScrollTable label="Perfiles" size="medium">
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
        </ScrollTable>
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
