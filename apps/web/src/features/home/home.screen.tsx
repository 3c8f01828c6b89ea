import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { lazy, Suspense } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import { Link } from 'react-router';
import { groupPermissionPaths } from '@portal/contract';
import { hasPermission } from '../../lib/auth/session';
import { useSession } from '../../lib/auth/use-session';
import { visibleNavigation } from '../../lib/navigation';

const PortfolioDashboard = lazy(() => import('./portfolio-dashboard'));
const WALLET = groupPermissionPaths('wallet');

/**
 * The landing page: a greeting, the portfolio's figures for whoever holds a Cartera permission, and the areas this
 * user may open, each with its first screen.
 */
export default function HomeScreen() {
  const session = useSession();
  const groups = visibleNavigation(session);
  const seesPortfolio = WALLET.some((path) => hasPermission(session, path));
  return (
    <>
      <Paper sx={{ p: 3, mb: 3 }}>
        <Typography variant="h1" component="h1">
          Hola, {session?.user.name}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          Estas son las áreas del portal a las que tienes acceso.
        </Typography>
      </Paper>
      {seesPortfolio && (
        <Suspense fallback={<LinearProgress aria-label="Cargando las cifras de la cartera" />}>
          <PortfolioDashboard />
        </Suspense>
      )}
      <Grid container spacing={2} sx={{ mt: seesPortfolio ? 3 : 0 }}>
        {groups.map((group) => (
          <Grid key={group.key} size={{ xs: 12, sm: 6, lg: 4 }}>
            <Card>
              <CardActionArea component={Link} to={group.items[0]!.path}>
                <CardContent>
                  <Typography variant="h2" component="h2">
                    {group.label}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                    {group.items.map((entry) => entry.label).join(' · ')}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
    </>
  );
}
