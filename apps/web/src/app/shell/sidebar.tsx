import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Tooltip from '@mui/material/Tooltip';
import WidgetsOutlined from '@mui/icons-material/WidgetsOutlined';
import { NavLink } from 'react-router';
import type { NavGroup, ScreenPath } from '@portal/contract';
import { BELOW_APP_BAR, SHELL } from '../../lib/shell-measures';
import { NAV_ICONS } from './nav-icons';

interface NavListProps {
  groups: NavGroup[];
  compact: boolean;
  onNavigate?: () => void;
}

/** The product menu: groups in the seed's order, each item a link; compact shows icons with a tooltip. */
export function NavList({ groups, compact, onNavigate }: NavListProps) {
  return (
    <Box component="nav" aria-label="Menú principal" sx={{ overflowY: 'auto', py: 1 }}>
      {groups.map((group) => (
        <List
          key={group.key}
          dense
          aria-label={compact ? group.label : undefined}
          subheader={
            compact ? undefined : (
              <ListSubheader disableSticky sx={{ lineHeight: '32px', fontWeight: 600, color: 'text.primary', bgcolor: 'transparent' }}>
                {group.label}
              </ListSubheader>
            )
          }
          sx={{ px: 1.5 }}
        >
          {group.items.map((entry) => {
            const Icon = NAV_ICONS[entry.path as ScreenPath] ?? WidgetsOutlined;
            const link = (
              <ListItemButton
                component={NavLink}
                to={entry.path}
                aria-label={compact ? entry.label : undefined}
                onClick={onNavigate}
                sx={{
                  borderRadius: 2,
                  mb: 0.5,
                  justifyContent: compact ? 'center' : 'flex-start',
                  '&.active': { bgcolor: 'primary.light', color: 'primary.dark', '& .MuiListItemIcon-root': { color: 'primary.dark' } },
                }}
              >
                {Icon && (
                  <ListItemIcon sx={{ minWidth: compact ? 0 : 36 }}>
                    <Icon fontSize="small" />
                  </ListItemIcon>
                )}
                {compact ? null : <ListItemText primary={entry.label} />}
              </ListItemButton>
            );
            // Each link in its own <li>: a list holds list items, never links directly (WCAG 1.3.1).
            return (
              <ListItem key={entry.path} disablePadding sx={{ display: 'block' }}>
                {compact ? (
                  <Tooltip title={entry.label} placement="right">
                    {link}
                  </Tooltip>
                ) : (
                  link
                )}
              </ListItem>
            );
          })}
        </List>
      ))}
    </Box>
  );
}

interface SidebarProps extends NavListProps {
  mobile: boolean;
  mobileOpen: boolean;
  onMobileClose: () => void;
}

/** 260 px side bar, 80 px when compact; a temporary drawer on small screens that closes when an item is tapped. */
export function Sidebar({ groups, compact, mobile, mobileOpen, onMobileClose }: SidebarProps) {
  if (mobile) {
    return (
      // Below the app bar, as every panel: the bar stays on top and must not cover the menu's first items.
      <Drawer
        variant="temporary"
        open={mobileOpen}
        onClose={onMobileClose}
        ModalProps={{ keepMounted: true }}
        slotProps={{ paper: { sx: BELOW_APP_BAR } }}
      >
        <Box sx={{ width: SHELL.sidebarWidth }}>
          <NavList groups={groups} compact={false} onNavigate={onMobileClose} />
        </Box>
      </Drawer>
    );
  }
  const width = compact ? SHELL.sidebarCompactWidth : SHELL.sidebarWidth;
  return (
    <Drawer
      variant="permanent"
      sx={{
        width,
        flexShrink: 0,
        '& .MuiDrawer-paper': { width, ...BELOW_APP_BAR, borderRight: 0 },
      }}
    >
      <NavList groups={groups} compact={compact} />
    </Drawer>
  );
}
