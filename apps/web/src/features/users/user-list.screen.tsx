import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Snackbar from '@mui/material/Snackbar';
import Typography from '@mui/material/Typography';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import PersonAddOutlined from '@mui/icons-material/PersonAddOutlined';
import type { GridColDef } from '@mui/x-data-grid';
import { Link, useNavigate } from 'react-router';
import type { UserListItem } from '@portal/contract';
import { useSession } from '../../app/auth/use-session';
import { hasPermission } from '../../app/auth/session';
import { useConfirm } from '../../app/shell/confirm-dialog';
import { FilterBar, SelectFilter } from '../../components/filter-bar';
import { ServerDataGrid } from '../../components/server-data-grid';
import { downloadFromApi, exportQuery } from '../../lib/download';
import { formatDateTime } from '../../lib/format';
import { useListState } from '../../lib/list-state';
import { useProfiles, useSetUserStatus, useUserList } from './users.queries';
import { useCompanies } from '../../lib/catalogs';

const STATUS_OPTIONS = [
  { value: 'active', label: 'Activos' },
  { value: 'inactive', label: 'Inactivos' },
];

export default function UserListScreen() {
  const navigate = useNavigate();
  const session = useSession();
  const confirm = useConfirm();
  const { state, update, queryString } = useListState({ sort: 'email' });
  const list = useUserList(queryString);
  const profiles = useProfiles();
  const companies = useCompanies();
  const setStatus = useSetUserStatus();
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [exporting, setExporting] = useState(false);

  const toggle = async (user: UserListItem) => {
    const deactivate = user.active;
    const yes = await confirm({
      title: deactivate ? 'Desactivar usuario' : 'Reactivar usuario',
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
    { field: 'email', headerName: 'Correo electrónico', flex: 1.4, minWidth: 220 },
    { field: 'name', headerName: 'Nombre', flex: 1, minWidth: 160 },
    { field: 'profile', headerName: 'Perfil', flex: 0.8, minWidth: 130 },
    { field: 'company', headerName: 'Empresa', flex: 0.8, minWidth: 140 },
    {
      field: 'active',
      headerName: 'Estado',
      width: 110,
      renderCell: ({ row }) => <Chip size="small" color={row.active ? 'success' : 'default'} label={row.active ? 'Activo' : 'Inactivo'} />,
    },
    { field: 'lastSignInAt', headerName: 'Último acceso', width: 160, valueFormatter: (value: string | null) => formatDateTime(value) },
    {
      field: 'actions',
      headerName: 'Acciones',
      sortable: false,
      width: 130,
      renderCell: ({ row }) =>
        row.id === session?.user.id ? null : (
          <Button
            size="small"
            color={row.active ? 'error' : 'primary'}
            onClick={(event) => {
              event.stopPropagation();
              void toggle(row);
            }}
          >
            {row.active ? 'Desactivar' : 'Reactivar'}
          </Button>
        ),
    },
  ];

  return (
    <Paper sx={{ p: 3 }}>
      <Typography variant="h1" component="h1" gutterBottom>
        Lista de usuarios
      </Typography>
      <FilterBar
        search={state.q}
        onSearch={(q) => update({ q })}
        searchLabel="Buscar por correo o nombre"
        actions={
          <>
            <Button
              variant="outlined"
              startIcon={<FileDownloadOutlined />}
              disabled={exporting}
              onClick={() => {
                setExporting(true);
                downloadFromApi(`/api/users/export.xlsx?${exportQuery(queryString)}`, 'usuarios.xlsx')
                  .catch((error: Error) => setMessage({ kind: 'error', text: error.message }))
                  .finally(() => setExporting(false));
              }}
            >
              {exporting ? 'Exportando…' : 'Exportar a Excel'}
            </Button>
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
        <SelectFilter
          label="Empresa"
          value={state.filters.companyId ?? ''}
          options={(companies.data ?? []).map((company) => ({ value: company.id, label: company.name }))}
          onChange={(companyId) => update({ filters: { ...state.filters, companyId } })}
        />
        <SelectFilter label="Estado" value={state.filters.status ?? ''} options={STATUS_OPTIONS} onChange={(status) => update({ filters: { ...state.filters, status } })} />
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
      />
      <Snackbar open={message !== null} autoHideDuration={5000} onClose={() => setMessage(null)}>
        {message ? (
          <Alert severity={message.kind} onClose={() => setMessage(null)} variant="filled">
            {message.text}
          </Alert>
        ) : undefined}
      </Snackbar>
    </Paper>
  );
}
