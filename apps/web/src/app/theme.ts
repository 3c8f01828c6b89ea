import { createTheme } from '@mui/material/styles';
import { esES } from '@mui/material/locale';

/** The portal's blue theme (seed: default theme blue) with the shell's fixed measures (seed section 9). */
export const SHELL = { headerHeight: 64, sidebarWidth: 260, sidebarCompactWidth: 80 } as const;

export const theme = createTheme(
  {
    palette: {
      primary: { main: '#1e88e5', dark: '#1565c0', light: '#90caf9' },
      secondary: { main: '#5e35b1' },
      background: { default: '#eef2f6', paper: '#ffffff' },
      text: { primary: '#364152', secondary: '#697586' },
    },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily: 'Roboto, "Segoe UI", Helvetica, Arial, sans-serif',
      h1: { fontSize: '1.5rem', fontWeight: 600 },
      h2: { fontSize: '1.25rem', fontWeight: 600 },
    },
    components: {
      MuiAppBar: { defaultProps: { elevation: 0, color: 'inherit' } },
      MuiButton: { defaultProps: { disableElevation: true } },
    },
  },
  esES,
);
