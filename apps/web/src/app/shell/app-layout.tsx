import { useEffect, useState } from 'react';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import MenuIcon from '@mui/icons-material/Menu';
import MenuOpen from '@mui/icons-material/MenuOpen';
import ViewQuiltOutlined from '@mui/icons-material/ViewQuiltOutlined';
import ViewSidebarOutlined from '@mui/icons-material/ViewSidebarOutlined';
import { QueryClientProvider } from '@tanstack/react-query';
import { Link, Outlet, useMatches, useNavigation } from 'react-router';
import { HOME_PATH, type NavGroup } from '@portal/contract';
import { queryClient } from '../../lib/query-client';
import { expireSession, prepareAuth } from '../../lib/auth/auth-service';
import type { Session } from '../../lib/auth/session';
import { canAccess, type ScreenHandle } from '../routes';
import { SHELL } from '../theme';
import { ScreenBreadcrumbs } from './breadcrumbs';
import { ThemeRoot } from '../theme-root';
import { ConfirmProvider } from '../../components/confirm-dialog';
import { Forbidden } from './forbidden';
import { useLayoutPrefs } from './layout-prefs';
import { visibleNavigation } from '../../lib/navigation';
import { Sidebar } from './sidebar';
import { TopNav } from './top-nav';
import { UserMenu } from './user-menu';

/** The identity provider's client is started this long before the token lapses; it renews a minute before. */
const RENEWAL_LEAD_MS = 2 * 60_000;
const clampTimeout = (ms: number) => Math.max(0, Math.min(ms, 2 ** 31 - 1));

/**
 * Signs out when the token lapses without a silent renewal (the renewal runs about a minute before). The client that
 * renews it (oidc-client-ts) is loaded two minutes before, not with the screen (decision 0027).
 */
function useSessionExpiry(session: Session) {
  useEffect(() => {
    const remaining = session.token.expiresAt * 1000 - Date.now();
    const renewal = window.setTimeout(() => void prepareAuth().catch(() => undefined), clampTimeout(remaining - RENEWAL_LEAD_MS));
    const timer = window.setTimeout(() => expireSession(), clampTimeout(remaining));
    return () => {
      window.clearTimeout(renewal);
      window.clearTimeout(timer);
    };
  }, [session.token.expiresAt]);
}

/**
 * The template's demo areas add a "Demo" group when they are built in (VITE_DEMO=false leaves them out). Loaded apart,
 * so the demo's route table is its own chunk that the product's chunks never list.
 */
function useDemoNavGroup(): NavGroup | null {
  const [group, setGroup] = useState<NavGroup | null>(null);
  useEffect(() => {
    if (import.meta.env.VITE_DEMO !== 'false') void import('../../demo/registry').then((demo) => setGroup(demo.DEMO_NAV_GROUP));
  }, []);
  return group;
}

/** The shell around every product screen: header, side or top navigation, breadcrumb, access gate. */
export function AppLayout({ session }: { session: Session }) {
  const theme = useTheme();
  const mobile = useMediaQuery(theme.breakpoints.down('md'));
  const [prefs, setPrefs] = useLayoutPrefs();
  const [mobileOpen, setMobileOpen] = useState(false);
  const navigation = useNavigation();
  const handle = useMatches().at(-1)?.handle as ScreenHandle | undefined;
  const demoGroup = useDemoNavGroup();
  const groups = demoGroup ? [...visibleNavigation(session), demoGroup] : visibleNavigation(session);
  const side = prefs.layout === 'side' || mobile;
  useSessionExpiry(session);

  useEffect(() => {
    document.title = handle ? `${handle.title} · Portal de crédito` : 'Portal de crédito';
  }, [handle]);

  const allowed = canAccess(session, handle?.access);

  return (
    <ThemeRoot>
      <QueryClientProvider client={queryClient}>
        <ConfirmProvider>
          <AppBar
            position="fixed"
            sx={{
              height: SHELL.headerHeight,
              justifyContent: 'center',
              borderBottom: 1,
              borderColor: 'divider',
              zIndex: (t) => t.zIndex.drawer + 1,
            }}
          >
            <Toolbar sx={{ gap: 1 }}>
              {side && (
                <IconButton
                  aria-label={mobile ? 'Abrir menú' : prefs.compact ? 'Expandir menú lateral' : 'Compactar menú lateral'}
                  onClick={() => (mobile ? setMobileOpen(true) : setPrefs({ compact: !prefs.compact }))}
                >
                  {prefs.compact || mobile ? <MenuIcon /> : <MenuOpen />}
                </IconButton>
              )}
              <Typography
                component={Link}
                to={HOME_PATH}
                variant="h6"
                sx={{ color: 'primary.main', fontWeight: 700, textDecoration: 'none', flexGrow: 1 }}
                noWrap
              >
                Portal de crédito
              </Typography>
              {!mobile && (
                <Tooltip title={prefs.layout === 'side' ? 'Usar menú superior' : 'Usar menú lateral'}>
                  <IconButton
                    aria-label={prefs.layout === 'side' ? 'Usar menú superior' : 'Usar menú lateral'}
                    onClick={() => setPrefs({ layout: prefs.layout === 'side' ? 'top' : 'side' })}
                  >
                    {prefs.layout === 'side' ? <ViewQuiltOutlined /> : <ViewSidebarOutlined />}
                  </IconButton>
                </Tooltip>
              )}
              <UserMenu session={session} />
            </Toolbar>
          </AppBar>
          <Box sx={{ display: 'flex', pt: `${SHELL.headerHeight}px`, minHeight: '100vh', bgcolor: 'background.default' }}>
            {side && (
              <Sidebar
                groups={groups}
                compact={prefs.compact && !mobile}
                mobile={mobile}
                mobileOpen={mobileOpen}
                onMobileClose={() => setMobileOpen(false)}
              />
            )}
            <Box sx={{ flexGrow: 1, minWidth: 0 }}>
              {!side && <TopNav groups={groups} />}
              {navigation.state === 'loading' && (
                <LinearProgress aria-label="Cargando pantalla" sx={{ position: 'sticky', top: SHELL.headerHeight }} />
              )}
              <Box component="main" sx={{ p: { xs: 2, md: 3 } }}>
                {handle && <ScreenBreadcrumbs handle={handle} groups={groups} />}
                {allowed ? <Outlet /> : <Forbidden />}
              </Box>
            </Box>
          </Box>
        </ConfirmProvider>
      </QueryClientProvider>
    </ThemeRoot>
  );
}
