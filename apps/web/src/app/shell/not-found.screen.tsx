import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import { useNavigate } from 'react-router';
import { HOME_PATH } from '@portal/contract';
import { ThemeRoot } from '../theme-root';

/** A lost-map illustration, drawn inline so the page needs nothing else to load. */
function LostIllustration() {
  return (
    <svg width="220" height="150" viewBox="0 0 220 150" role="img" aria-label="Ilustración: mapa sin destino">
      <rect x="20" y="20" width="180" height="110" rx="10" fill="#e3f2fd" />
      <path d="M20 100 L70 60 L110 90 L150 50 L200 85" stroke="#90caf9" strokeWidth="6" fill="none" strokeLinejoin="round" />
      <circle cx="150" cy="50" r="14" fill="#1565c0" />
      <text x="150" y="56" textAnchor="middle" fontSize="18" fontWeight="700" fill="#fff">
        ?
      </text>
      <text x="60" y="120" fontSize="28" fontWeight="700" fill="#1565c0">
        404
      </text>
    </svg>
  );
}

/** Unknown paths land here; "Regresar" returns to the page the user came from. */
export default function NotFoundScreen() {
  const navigate = useNavigate();
  const goBack = () => {
    // A tab opened straight on a wrong address has nothing to go back to: home instead.
    if (window.history.length > 1) void navigate(-1);
    else void navigate(HOME_PATH, { replace: true });
  };
  return (
    <ThemeRoot>
      <Box
        component="main"
        sx={{
          minHeight: '100vh',
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          justifyContent: 'center',
          textAlign: 'center',
          p: 3,
          bgcolor: 'background.default',
        }}
      >
        <LostIllustration />
        <Typography variant="h1" component="h1" sx={{ mt: 3 }}>
          Página no encontrada
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1, mb: 3, maxWidth: 420 }}>
          La dirección que abriste no existe en el portal o cambió de lugar.
        </Typography>
        <Button variant="contained" startIcon={<ArrowBack />} onClick={goBack}>
          Regresar
        </Button>
      </Box>
    </ThemeRoot>
  );
}
