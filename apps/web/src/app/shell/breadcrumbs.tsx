import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import NavigateNext from '@mui/icons-material/NavigateNext';
import { Link as RouterLink } from 'react-router';
import { HOME_PATH } from '@portal/contract';
import type { NavGroup } from '@portal/contract';
import type { ScreenHandle } from '../routes';

/** Where the group's crumb leads: its first screen this user may open (the sidebar's own order), if any. */
export function groupHome(groups: NavGroup[], label: string | undefined): string | undefined {
  return groups.find((group) => group.label === label)?.items[0]?.path;
}

/** Inicio › group › screen, on every product screen; the group is a link to its first screen the user may open. */
export function ScreenBreadcrumbs({ handle, groups }: { handle: ScreenHandle; groups: NavGroup[] }) {
  const groupPath = groupHome(groups, handle.group);
  return (
    <Breadcrumbs aria-label="Ruta de navegación" separator={<NavigateNext fontSize="small" />} sx={{ mb: 2 }}>
      <Link
        component={RouterLink}
        to={HOME_PATH}
        underline="hover"
        color="inherit"
        sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}
      >
        <HomeOutlined fontSize="small" />
        Inicio
      </Link>
      {handle.group &&
        (groupPath ? (
          <Link component={RouterLink} to={groupPath} underline="hover" color="inherit">
            {handle.group}
          </Link>
        ) : (
          <Typography color="text.secondary">{handle.group}</Typography>
        ))}
      {handle.title !== 'Inicio' && <Typography color="text.primary">{handle.title}</Typography>}
    </Breadcrumbs>
  );
}
