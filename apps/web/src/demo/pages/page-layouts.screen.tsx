import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PEOPLE } from '../fake-api/data';
import { DemoPage, initials, postJson } from '../ui';

const SECTIONS = ['Resumen', 'Actividad', 'Configuración'] as const;

function LeftSidebarCard() {
  const [section, setSection] = useState<(typeof SECTIONS)[number]>('Resumen');
  return (
    <DemoPage>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '240px 1fr' } }}>
        <Card variant="outlined">
          <List aria-label="Secciones">
            {SECTIONS.map((item) => (
              <ListItemButton key={item} selected={item === section} onClick={() => setSection(item)}>
                <ListItemText primary={item} />
              </ListItemButton>
            ))}
          </List>
        </Card>
        <Card variant="outlined">
          <CardHeader title={section} />
          <CardContent>
            <Typography color="text.secondary">Contenido de la sección «{section}» en una tarjeta con barra lateral.</Typography>
          </CardContent>
        </Card>
      </Box>
    </DemoPage>
  );
}

/** The profile page also tries the fake auth endpoints, so their demo messages (seed section 8) can be seen. */
function FakeSignIn() {
  const [email, setEmail] = useState('demo@plantilla.mx');
  const [password, setPassword] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      const answer = await postJson<{ user: { name: string } }>('/api/auth/login', { email, password });
      setResult({ ok: true, text: `Sesión de demostración de ${answer.user.name} (token de 7 días).` });
    } catch (error) {
      setResult({ ok: false, text: (error as Error).message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card variant="outlined">
      <CardHeader title="Cuenta de demostración" subheader="Prueba la API simulada: demo@plantilla.mx / demo" />
      <CardContent sx={{ display: 'grid', gap: 2 }}>
        <TextField label="Correo" value={email} onChange={(event) => setEmail(event.target.value)} />
        <TextField label="Contraseña" type="password" value={password} onChange={(event) => setPassword(event.target.value)} />
        <Button variant="contained" onClick={() => void submit()} disabled={busy} sx={{ justifySelf: 'start' }}>
          {busy ? 'Entrando…' : 'Entrar'}
        </Button>
        {result && <Alert severity={result.ok ? 'success' : 'error'}>{result.text}</Alert>}
      </CardContent>
    </Card>
  );
}

function UserProfile() {
  const person = PEOPLE[0];
  return (
    <DemoPage>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 2fr' } }}>
        <Card variant="outlined">
          <CardContent sx={{ textAlign: 'center' }}>
            <Avatar sx={{ width: 80, height: 80, mx: 'auto', mb: 1, bgcolor: 'primary.main', fontSize: 28 }}>
              {initials(person.name)}
            </Avatar>
            <Typography variant="h6">{person.name}</Typography>
            <Typography color="text.secondary">
              {person.role} · {person.city}
            </Typography>
            <Typography variant="body2">{person.email}</Typography>
          </CardContent>
        </Card>
        <FakeSignIn />
      </Box>
    </DemoPage>
  );
}

export const screens = { leftSidebarCard: LeftSidebarCard, userProfile: UserProfile };
