import type { ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { theme } from './theme';

/**
 * MUI's theme for the screens that use MUI (the shell and everything inside it, the 404 page). The sign-in page does
 * not: it stays under its JavaScript budget with plain markup and the same look in CSS.
 */
export function ThemeRoot({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}
