import { useState } from 'react';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import PersonAddOutlined from '@mui/icons-material/PersonAddOutlined';
import type { GridColDef } from '@mui/x-data-grid';
import { Link, useNavigate } from 'react-router';
import type { UserListItem } from '@portal/contract';
import { useSession } from '../../app/auth/use-session';
import { hasPermission } from '../../app/auth/session';
import { useConfirm } from '../../app/shell/confirm-dialog';
import { CompanyFilter, FilterBar, SelectFilter } from '../../components/filter-bar';
import { ExportButton } from '../../components/export-button';
import { NoticeSnackbar, type Notice } from '../../components/notice-snackbar';
import { ServerDataGrid } from '../../components/server-data-grid';
import { STATUS_FILTER_OPTIONS, statusActionColumn, statusColumn } from '../../components/status-columns';
import { formatDateTime } from '../../lib/format';
import { useListState } from '../../lib/list-state';
import { useProfiles, useSetUserStatus, useUserList } from './users.queries';

export default function UserListScreen() {
  const navigate = useNavigate();
  const session = useSession();
  const confirm = useConfirm();
  const { state, update, queryString } = useListState({ sort: 'email' });
  const list = useUserList(queryString);
  const profiles = useProfiles();
  const setStatus = useSetUserStatus();
  const [message, setMessage] = useState<Notice | null>(null);

  const toggle = async (user: UserListItem) => {
    const deactivate = user.active;
    const yes = await confirm({
      title: deactivate ? 'Desactivar usuario' : 'Reactivar usuario',
      destructive: deactivate,
      message: deactivate
        ? `${user.email} ya no podrá iniciar sesión en el portal. ¿Desactivarlo?`
        : `${user.email} podrá volver a iniciar sesión con su perfil ${user.profile}. ¿Reactivarlo?`,
    });
    if (!yes) return;
    try {
      await setStatus.mutateAsync({ id: user.id, active: !deactivate, version: user.version });
      setMessage({ kind: 'success', text: deactivate ? 'Usuario desactivado.' : 'Usuario reactivado.' });
    } catch (error) {
      setMessage({ kind: 'error', text: (error as Error).message });
    }
  };

  const columns: GridColDef<UserListItem>[] = [
    { field: 'email', headerName: 'Correo electrónico', flex: 1.4, minWidth: 180 },
    { field: 'name', headerName: 'Nombre', flex: 1, minWidth: 160 },
    { field: 'profile', headerName: 'Perfil', flex: 0.8, minWidth: 130 },
    { field: 'company', headerName: 'Empresa', flex: 0.8, minWidth: 140 },
    statusColumn<UserListItem>(),
    { field: 'lastSignInAt', headerName: 'Último acceso', width: 160, valueFormatter: (value: string | null) => formatDateTime(value) },
    statusActionColumn<UserListItem>({ activateLabel: 'Reactivar', onToggle: (row) => void toggle(row), hidden: (row) => row.id === session?.user.id }),
  ];

  return (
    <Paper sx={{ p: { xs: 2, md: 3 } }}>
      <Typography variant="h1" component="h1" gutterBottom>
        Lista de usuarios
      </Typography>
      <FilterBar
        search={state.q}
        onSearch={(q) => update({ q })}
        searchLabel="Buscar por correo o nombre"
        actions={
          <>
            <ExportButton path="/api/users/export.xlsx" queryString={queryString} fallbackName="usuarios.xlsx" onError={(text) => setMessage({ kind: 'error', text })} />
            {hasPermission(session, '/user/user-new') && (
              <Button variant="contained" startIcon={<PersonAddOutlined />} component={Link} to="/user/user-new">
                Nuevo usuario
              </Button>
            )}
          </>
        }
      >
        <SelectFilter
          label="Perfil"
          value={state.filters.profileId ?? ''}
          options={(profiles.data ?? []).map((profile) => ({ value: profile.id, label: profile.name }))}
          onChange={(profileId) => update({ filters: { ...state.filters, profileId } })}
        />
        <CompanyFilter value={state.filters.companyId ?? ''} onChange={(companyId) => update({ filters: { ...state.filters, companyId } })} />
        <SelectFilter label="Estado" value={state.filters.status ?? ''} options={STATUS_FILTER_OPTIONS} onChange={(status) => update({ filters: { ...state.filters, status } })} />
      </FilterBar>
      <ServerDataGrid<UserListItem>
        aria-label="Usuarios"
        columns={columns}
        rows={list.data?.items ?? []}
        total={list.data?.total ?? 0}
        loading={list.isFetching}
        error={list.isError ? list.error.message : null}
        state={state}
        onChange={update}
        onRowClick={(row) => void navigate(`/user/user-edit/${row.id}`)}
        emptyText="No hay usuarios con estos filtros."
        storageKey="users"
        hiddenOnPhone={['name', 'profile', 'company', 'lastSignInAt', 'actions']}
      />
      <NoticeSnackbar notice={message} onClose={() => setMessage(null)} />
    </Paper>
  );
}
