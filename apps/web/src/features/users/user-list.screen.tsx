import { useState } from 'react';
import MailOutlined from '@mui/icons-material/MailOutlined';
import PersonAddOutlined from '@mui/icons-material/PersonAddOutlined';
import Button from '@mui/material/Button';
import { Link } from 'react-router';
import type { GridColDef } from '@mui/x-data-grid';
import { DETAIL_ROUTE_PERMISSIONS, userRoutes, type UserListItem } from '@portal/contract';
import { ListScreen } from '../../components/list-screen';
import type { Notice } from '../../components/notice-snackbar';
import { STATUS_FILTER_OPTIONS, statusActionColumn, statusColumn, useStatusToggle } from '../../components/status-columns';
import { hasPermission } from '../../lib/auth/session';
import { useSession } from '../../lib/auth/use-session';
import { formatDateTime } from '../../lib/format';
import { useProfiles, useSetUserStatus, userListQuery } from './users.queries';

export default function UserListScreen() {
  const session = useSession();
  const profiles = useProfiles();
  const setStatus = useSetUserStatus();
  const [notice, setNotice] = useState<Notice | null>(null);
  const toggle = useStatusToggle<UserListItem>({
    setStatus: setStatus.mutateAsync,
    describe: (user, deactivate) =>
      deactivate
        ? {
            title: 'Desactivar usuario',
            message: `${user.email} ya no podrá iniciar sesión en el portal. ¿Desactivarlo?`,
            done: 'Usuario desactivado.',
          }
        : {
            title: 'Reactivar usuario',
            message: `${user.email} podrá volver a iniciar sesión con su perfil ${user.profile}. ¿Reactivarlo?`,
            done: 'Usuario reactivado.',
          },
    onNotice: setNotice,
  });

  const columns: GridColDef<UserListItem>[] = [
    { field: 'email', headerName: 'Correo electrónico', flex: 1.4, minWidth: 180 },
    { field: 'name', headerName: 'Nombre', flex: 1, minWidth: 160 },
    { field: 'profile', headerName: 'Perfil', flex: 0.8, minWidth: 130 },
    { field: 'company', headerName: 'Empresa', flex: 0.8, minWidth: 140 },
    statusColumn<UserListItem>(),
    { field: 'lastSignInAt', headerName: 'Último acceso', width: 160, valueFormatter: (value: string | null) => formatDateTime(value) },
    statusActionColumn<UserListItem>({
      activateLabel: 'Reactivar',
      onToggle: (row) => void toggle(row),
      hidden: (row) => row.id === session?.user.id,
    }),
  ];

  return (
    <ListScreen<UserListItem>
      title="Lista de usuarios"
      aria-label="Usuarios"
      query={userListQuery}
      defaults={{ sort: 'email' }}
      searchLabel="Buscar por correo o nombre"
      filters={[
        {
          kind: 'select',
          key: 'profileId',
          label: 'Perfil',
          options: (profiles.data ?? []).map((profile) => ({ value: profile.id, label: profile.name })),
        },
        { kind: 'company', key: 'companyId' },
        { kind: 'select', key: 'status', label: 'Estado', options: STATUS_FILTER_OPTIONS },
      ]}
      exportTo={{ route: userRoutes.export, fallbackName: 'usuarios.xlsx' }}
      actions={
        // The mail's links open accounts: shown to those who may issue them (the API asks the same permission).
        hasPermission(session, DETAIL_ROUTE_PERMISSIONS['/user/mail']) && (
          <Button variant="outlined" startIcon={<MailOutlined />} component={Link} to="/user/mail">
            Correos
          </Button>
        )
      }
      create={{ to: '/user/user-new', label: 'Nuevo usuario', icon: <PersonAddOutlined /> }}
      columns={columns}
      rowTo={(row) => `/user/user-edit/${row.id}`}
      emptyText="No hay usuarios con estos filtros."
      storageKey="users"
      hiddenOnPhone={['name', 'profile', 'company', 'lastSignInAt', 'actions']}
      notice={notice}
      onNotice={setNotice}
    />
  );
}
