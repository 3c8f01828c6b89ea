import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { Link } from 'react-router';
import type { NavGroup } from '@portal/contract';

/** The top-bar layout: one button per group opening its items. */
export function TopNav({ groups }: { groups: NavGroup[] }) {
  const [open, setOpen] = useState<{ key: string; anchor: HTMLElement } | null>(null);
  return (
    <Box
      component="nav"
      aria-label="Menú principal"
      sx={{ display: 'flex', gap: 1, px: 2, py: 1, bgcolor: 'background.paper', overflowX: 'auto' }}
    >
      {groups.map((group) => (
        <Box key={group.key}>
          <Button
            endIcon={<ExpandMore />}
            aria-haspopup="menu"
            aria-expanded={open?.key === group.key}
            onClick={(event) => setOpen({ key: group.key, anchor: event.currentTarget })}
          >
            {group.label}
          </Button>
          <Menu anchorEl={open?.key === group.key ? open.anchor : null} open={open?.key === group.key} onClose={() => setOpen(null)}>
            {group.items.map((entry) => (
              <MenuItem key={entry.path} component={Link} to={entry.path} onClick={() => setOpen(null)}>
                {entry.label}
              </MenuItem>
            ))}
          </Menu>
        </Box>
      ))}
    </Box>
  );
}
