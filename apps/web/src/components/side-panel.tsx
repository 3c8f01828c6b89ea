import type { ReactNode } from 'react';
import Drawer from '@mui/material/Drawer';
import { BELOW_APP_BAR } from '../lib/shell-measures';

/**
 * A record's detail opened beside its list, on the right: below the app bar (so its title, status and close button
 * are always on screen, on a phone too), named for assistive technology, full width on small screens.
 */
export function SidePanel(props: { open: boolean; onClose: () => void; label: string; children: ReactNode }) {
  return (
    <Drawer
      anchor="right"
      open={props.open}
      onClose={props.onClose}
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-label': props.label,
          sx: { ...BELOW_APP_BAR, width: { xs: '100%', md: 960 }, bgcolor: 'background.default' },
        },
      }}
    >
      {props.children}
    </Drawer>
  );
}
