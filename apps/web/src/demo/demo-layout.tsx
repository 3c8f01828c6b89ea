import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { esES } from '@mui/material/locale';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Link, Outlet, useLocation, useMatches } from 'react-router';

/*
 * The production build gives the demo its own copy of MUI and TanStack Query (see vite.config.ts), so it brings its own
 * providers: the template's blue default theme (seed section 2) and a query client for the fake API.
 */
const demoTheme = createTheme(
  {
    palette: {
      // The template's blue, dark enough for white text at WCAG AA (4.5:1), as in the product's theme.
      primary: { main: '#1565c0', dark: '#0d47a1', light: '#90caf9' },
      secondary: { main: '#5e35b1', light: '#d1c4e9' },
      background: { default: '#eef2f6', paper: '#ffffff' },
      text: { primary: '#364152', secondary: '#4b5565' },
    },
    shape: { borderRadius: 8 },
    typography: { fontFamily: 'Roboto, "Segoe UI", Helvetica, Arial, sans-serif', h1: { fontSize: '1.5rem', fontWeight: 600 } },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiCardHeader: { styleOverrides: { title: { fontSize: '1.1rem', fontWeight: 600 } } },
    },
  },
  esES,
);
const demoQueries = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

/** Starts the fake API while a demo screen is open, stops it when the user leaves the demo. */
function useFakeApi(): 'starting' | 'ready' | 'failed' {
  const [state, setState] = useState<'starting' | 'ready' | 'failed'>('starting');
  useEffect(() => {
    let live = true;
    const api = import('./fake-api/browser');
    api
      .then((module) => module.startFakeApi())
      .then(
        () => live && setState('ready'),
        (error: unknown) => {
          console.warn('Demo: no se pudo iniciar la API simulada', error);
          if (live) setState('failed');
        },
      );
    return () => {
      live = false;
      void api.then((module) => module.stopFakeApi());
    };
  }, []);
  return state;
}

/** The frame of every demo screen: the area's tabs and the screen, once the fake API answers. */
export function DemoLayout() {
  const api = useFakeApi();
  const { pathname } = useLocation();
  const tabs = (useMatches().at(-1)?.handle as { demoTabs?: { path: string; title: string }[] } | undefined)?.demoTabs ?? [];
  const current = tabs.find((tab) => tab.path === pathname)?.path ?? false;

  return (
    <ThemeProvider theme={demoTheme}>
      <QueryClientProvider client={demoQueries}>
        {tabs.length > 1 && (
          <Tabs value={current} variant="scrollable" scrollButtons="auto" aria-label="Pantallas del área" sx={{ mb: 2 }}>
            {tabs.map((tab) => (
              <Tab key={tab.path} value={tab.path} label={tab.title} component={Link} to={tab.path} />
            ))}
          </Tabs>
        )}
        {api === 'starting' && <LinearProgress aria-label="Iniciando la API de demostración" />}
        {api === 'failed' && <Alert severity="error">Este navegador no permite la API de demostración (requiere service workers).</Alert>}
        {api === 'ready' && <Outlet />}
      </QueryClientProvider>
    </ThemeProvider>
  );
}
