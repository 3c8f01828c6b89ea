import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import SearchOffOutlined from '@mui/icons-material/SearchOffOutlined';
import { Link } from 'react-router';
import { ApiError } from '../lib/api';

/**
 * True when a record named in the URL does not exist: the API answered 404, or refused the id itself (a mistyped or
 * cut-off link answers 400 on `id`). Such a page says "No encontrado", never "Revisa los campos marcados".
 */
export function isNotFound(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.status === 404 || (error.status === 400 && error.fieldErrors.some((field) => field.field === 'id'));
}

/** The one "No encontrado" every detail and edit screen shows for a bad id, with the way back to its list. */
export function NotFoundState(props: { what: string; backTo: string; backLabel: string; onBack?: () => void }) {
  return (
    <Paper component="section" aria-labelledby="not-found-title" sx={{ p: 4, textAlign: 'center' }}>
      <SearchOffOutlined sx={{ fontSize: 56, color: 'text.secondary' }} aria-hidden />
      <Typography id="not-found-title" variant="h1" component="h1" sx={{ mt: 1 }}>
        No encontrado
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        {props.what} no existe o ya no está disponible. Revisa el enlace o búscalo en la lista.
      </Typography>
      <Button variant="contained" startIcon={<ArrowBack />} component={Link} to={props.backTo} onClick={props.onBack}>
        {props.backLabel}
      </Button>
    </Paper>
  );
}
