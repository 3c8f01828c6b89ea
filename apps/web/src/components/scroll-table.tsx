import type { ReactNode } from 'react';
import Table from '@mui/material/Table';
import TableContainer from '@mui/material/TableContainer';

/**
 * A table wider than a phone scrolls inside its own box, so the page never scrolls sideways; the box is reachable
 * and named for the keyboard and screen readers (WCAG 2.1.1, axe scrollable-region-focusable).
 */
export function ScrollTable({ label, size = 'small', children }: { label: string; size?: 'small' | 'medium'; children: ReactNode }) {
  return (
    <TableContainer tabIndex={0} role="region" aria-label={`${label} (desplazable)`}>
      <Table size={size} aria-label={label}>
        {children}
      </Table>
    </TableContainer>
  );
}
