import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import LockOutlined from '@mui/icons-material/LockOutlined';
import { Link } from 'react-router';
import { HOME_PATH } from '@portal/contract';

/** A signed-in user without the screen's permission: a 403, never the sign-in page. */
export function Forbidden() {
  return (
    <Box role="alert" sx={{ textAlign: 'center', py: 8 }}>
      <LockOutlined sx={{ fontSize: 64, color: 'text.secondary' }} />
      <Typography variant="h1" component="h1" sx={{ mt: 2 }}>
        Acceso denegado (403)
      </Typography>
      <Typography sx={{ mt: 1, mb: 3 }} color="text.secondary">
        No tienes permiso para ver esta pantalla. Pide a un administrador que lo agregue a tu perfil.
      </Typography>
      <Button variant="contained" component={Link} to={HOME_PATH}>
        Ir al inicio
      </Button>
    </Box>
  );
}
