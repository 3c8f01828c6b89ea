import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useMatches } from 'react-router';

/** A product screen that is not built yet: its title, and a plain statement of that. */
export default function PlaceholderScreen() {
  // The route's title, from its handle (ScreenHandle in app/routes.ts, which loads this screen: not imported back).
  const handle = useMatches().at(-1)?.handle as { title?: string } | undefined;
  return (
    <Paper sx={{ p: 3 }}>
      <Typography variant="h1" component="h1" gutterBottom>
        {handle?.title}
      </Typography>
      <Alert severity="info">Esta pantalla todavía no está disponible.</Alert>
    </Paper>
  );
}
