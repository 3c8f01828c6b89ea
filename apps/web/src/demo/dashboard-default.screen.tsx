import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/**
 * The template's default dashboard, kept only as the seed's example of a role-list route (role SA). Template demo
 * areas are not product behaviour: this one shows no data.
 */
export default function DashboardDefaultScreen() {
  return (
    <Paper sx={{ p: 3 }}>
      <Typography variant="h1" component="h1" gutterBottom>
        Tablero
      </Typography>
      <Alert severity="info">Tablero de demostración de la plantilla, visible solo para el rol SA.</Alert>
    </Paper>
  );
}
