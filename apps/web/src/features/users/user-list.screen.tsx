import { useState } from 'react';
import MailOutlined from '@mui/icons-material/MailOutlined';
import PersonAddOutlined from '@mui/icons-material/PersonAddOutlined';
import Button from '@mui/material/Button';
import { Link } from 'react-router';
import type { GridColDef } from '@mui/x-data-grid';
import { DETAIL_ROUTE_PERMISSIONS, USER_COLUMNS, columnLabel, userRoutes, type UserListItem } from '@portal/contract';
import { gridColumn, gridColumns } from '../../components/declared-columns';
import { ListScreen } from '../../components/list-screen';
import type { Notice } from '../../components/notice-snackbar';
import { STATUS_FILTER_OPTIONS, statusActionColumn, statusColumn, useStatusToggle } from '../../components/status-columns';
import { hasPermission } from '../../lib/auth/session';
import { useSession } from '../../lib/auth/use-session';
import { useProfiles, useSetUserStatus, userListQuery } from './users.queries';

type UserColumn = (typeof USER_COLUMNS)[number]['key'];

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
    ...gridColumns<UserListItem, UserColumn>(USER_COLUMNS, {
      email: { flex: 1.4, minWidth: 180 },
      name: { flex: 1, minWidth: 160 },
      profile: { flex: 0.8, minWidth: 130 },
      company: { flex: 0.8, minWidth: 140 },
    }),
    { ...statusColumn<UserListItem>(), headerName: columnLabel(USER_COLUMNS, 'status') },
    gridColumn<UserListItem, UserColumn>(USER_COLUMNS, 'lastSignInAt', { width: 160 }),
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
