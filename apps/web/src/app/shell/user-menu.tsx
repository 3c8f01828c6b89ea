import { useState } from 'react';
import Avatar from '@mui/material/Avatar';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import Box from '@mui/material/Box';
import Logout from '@mui/icons-material/Logout';
import type { Session } from '../../lib/auth/session';
import { signOut } from '../../lib/auth/auth-service';
import { useConfirm } from '../../components/confirm-dialog';

const initials = (name: string) =>
  name
    .split(/[\s@.]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');

export function UserMenu({ session }: { session: Session }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const confirm = useConfirm();
  const { user } = session;

  const logout = async () => {
    setAnchor(null);
    if (await confirm({ title: 'Cerrar sesión', message: '¿Quieres cerrar tu sesión en el portal?', harmless: true })) await signOut();
  };

  return (
    <>
      {/* The name includes the initials the button shows, so speech input can say what it sees (WCAG 2.5.3). */}
      <IconButton
        aria-label={`Menú de usuario ${initials(user.name)}`}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <Avatar src={user.avatar ?? undefined} alt={user.name} sx={{ width: 36, height: 36, bgcolor: 'primary.main', fontSize: 14 }}>
          {initials(user.name)}
        </Avatar>
      </IconButton>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box sx={{ px: 2, py: 1, minWidth: 220 }}>
          <Typography sx={{ fontWeight: 600 }}>{user.name}</Typography>
          <Typography variant="body2" color="text.secondary">
            {user.email}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            Rol: {user.role}
          </Typography>
        </Box>
        <Divider />
        <MenuItem onClick={() => void logout()}>
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          Cerrar sesión
        </MenuItem>
      </Menu>
    </>
  );
}
