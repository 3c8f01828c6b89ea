import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import NavigateNext from '@mui/icons-material/NavigateNext';
import { Link as RouterLink } from 'react-router';
import { HOME_PATH } from '@portal/contract';
import type { ScreenHandle } from '../routes';

/** Inicio › group › screen, on every product screen. */
export function ScreenBreadcrumbs({ handle }: { handle: ScreenHandle }) {
  return (
    <Breadcrumbs aria-label="Ruta de navegación" separator={<NavigateNext fontSize="small" />} sx={{ mb: 2 }}>
      <Link component={RouterLink} to={HOME_PATH} underline="hover" color="inherit" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <HomeOutlined fontSize="small" />
        Inicio
      </Link>
      {handle.group && <Typography color="text.secondary">{handle.group}</Typography>}
      {handle.title !== 'Inicio' && <Typography color="text.primary">{handle.title}</Typography>}
    </Breadcrumbs>
  );
}
