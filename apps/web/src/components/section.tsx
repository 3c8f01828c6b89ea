import type { ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** A titled block of a form or a detail screen, reachable as a named region. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper sx={{ p: 3, mb: 3 }} component="section" aria-label={title}>
      <Typography variant="h2" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}
