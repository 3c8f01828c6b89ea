import { useState, type DragEvent } from 'react';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { CHAT, EVENTS, INBOX } from '../fake-api/data';
import { DEMO_EPOCH, LIST_ITEMS } from '../fake-api/data';
import { relativeTime } from '../relative-time';
import { DemoPage, initials, money, postJson, useDemoMutation, useDemoQuery } from '../ui';

const WEEKDAYS = ['Lun', 'Mar', 'Mié', 'Jue', 'Vie', 'Sáb', 'Dom'];

/** A month grid of the fake events; a click on a day adds one. */
function Calendar() {
  const { data = [] } = useDemoQuery<typeof EVENTS>('/api/calendar/events');
  const add = useDemoMutation('/api/calendar/events', (day: number) =>
    postJson<typeof EVENTS>('/api/calendar/events', { title: 'Nuevo evento', day }),
  );
  const first = new Date(DEMO_EPOCH);
  const offset = (new Date(first.getFullYear(), first.getMonth(), 1).getDay() + 6) % 7;
  const days = new Date(first.getFullYear(), first.getMonth() + 1, 0).getDate();
  return (
    <DemoPage>
      <Typography variant="h6" component="h2" sx={{ textTransform: 'capitalize' }}>
        {first.toLocaleDateString('es-MX', { month: 'long', year: 'numeric' })}
      </Typography>
      <Box role="grid" aria-label="Mes" sx={{ display: 'grid', gridTemplateColumns: 'repeat(7, 1fr)', gap: 0.5 }}>
        {WEEKDAYS.map((day) => (
          <Typography key={day} role="columnheader" variant="caption" sx={{ textAlign: 'center', fontWeight: 600 }}>
            {day}
          </Typography>
        ))}
        {Array.from({ length: offset }, (_, index) => (
          <Box key={`blank-${index}`} />
        ))}
        {Array.from({ length: days }, (_, index) => index + 1).map((day) => (
          <Paper key={day} role="gridcell" variant="outlined" onDoubleClick={() => add.mutate(day)} sx={{ minHeight: 72, p: 0.5 }}>
            <Typography variant="caption">{day}</Typography>
            {data
              .filter((event) => event.day === day)
              .map((event) => (
                <Typography
                  key={event.id}
                  variant="caption"
                  component="p"
                  sx={{ bgcolor: event.allDay ? 'primary.light' : 'secondary.light', borderRadius: 1, px: 0.5 }}
                >
                  {event.title}
                </Typography>
              ))}
          </Paper>
        ))}
      </Box>
      <Typography variant="body2" color="text.secondary">
        Doble clic en un día para agregar un evento.
      </Typography>
    </DemoPage>
  );
}

function Chat() {
  const { data: contacts = [] } = useDemoQuery<typeof CHAT.contacts>('/api/chat/contacts');
  const { data: messages = [] } = useDemoQuery<typeof CHAT.messages>('/api/chat/messages');
  const send = useDemoMutation('/api/chat/messages', (body: { contactId: string; text: string }) =>
    postJson<typeof CHAT.messages>('/api/chat/messages', body),
  );
  const [contactId, setContactId] = useState('m1');
  const [text, setText] = useState('');
  return (
    <DemoPage>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '260px 1fr' } }}>
        <Paper variant="outlined">
          <List aria-label="Contactos">
            {contacts.map((contact) => (
              <ListItemButton key={contact.id} selected={contact.id === contactId} onClick={() => setContactId(contact.id)}>
                <ListItemAvatar>
                  <Badge variant="dot" color={contact.status === 'en línea' ? 'success' : 'default'} overlap="circular">
                    <Avatar>{initials(contact.name)}</Avatar>
                  </Badge>
                </ListItemAvatar>
                <ListItemText primary={contact.name} secondary={contact.status} />
              </ListItemButton>
            ))}
          </List>
        </Paper>
        <Paper variant="outlined" sx={{ p: 2, display: 'grid', gap: 1, alignContent: 'start' }}>
          {messages
            .filter((message) => message.contactId === contactId)
            .map((message) => (
              <Box
                key={message.id}
                sx={{
                  justifySelf: message.fromMe ? 'end' : 'start',
                  bgcolor: message.fromMe ? 'primary.light' : 'background.default',
                  borderRadius: 2,
                  px: 1.5,
                  py: 1,
                  maxWidth: '70%',
                }}
              >
                <Typography variant="body2">{message.text}</Typography>
                <Typography variant="caption" color="text.secondary">
                  hace {relativeTime(message.timestamp, Math.max(DEMO_EPOCH, message.timestamp))}
                </Typography>
              </Box>
            ))}
          <Box
            component="form"
            onSubmit={(event) => (event.preventDefault(), text && (send.mutate({ contactId, text }), setText('')))}
            sx={{ display: 'flex', gap: 1, mt: 2 }}
          >
            <TextField size="small" fullWidth label="Mensaje" value={text} onChange={(event) => setText(event.target.value)} />
            <Button type="submit" variant="contained">
              Enviar
            </Button>
          </Box>
        </Paper>
      </Box>
    </DemoPage>
  );
}

function Inbox() {
  const { data = [] } = useDemoQuery<typeof INBOX>('/api/inbox/all');
  const [open, setOpen] = useState<string | null>(null);
  const mail = data.find((item) => item.id === open);
  return (
    <DemoPage>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <Paper variant="outlined">
          <List aria-label="Correos">
            {data.map((item) => (
              <ListItemButton key={item.id} selected={item.id === open} onClick={() => setOpen(item.id)} divider>
                <ListItemText
                  primary={item.subject}
                  secondary={`${item.from} · hace ${relativeTime(item.timestamp, DEMO_EPOCH)}`}
                  slotProps={{ primary: { sx: { fontWeight: item.read ? 400 : 700 } } }}
                />
              </ListItemButton>
            ))}
          </List>
        </Paper>
        <Paper variant="outlined" sx={{ p: 2 }}>
          {mail ? (
            <>
              <Typography variant="h6" component="h2">
                {mail.subject}
              </Typography>
              <Typography color="text.secondary">De: {mail.from}</Typography>
              <Typography sx={{ mt: 2 }}>{mail.preview}</Typography>
            </>
          ) : (
            <Typography color="text.secondary">Elige un correo para leerlo.</Typography>
          )}
        </Paper>
      </Box>
    </DemoPage>
  );
}

/** Branches placed by longitude and latitude on a plain SVG: the demo loads no map tiles from the network. */
const BRANCHES = [
  { city: 'Ciudad de México', lat: 19.43, lon: -99.13 },
  { city: 'Guadalajara', lat: 20.67, lon: -103.35 },
  { city: 'Monterrey', lat: 25.69, lon: -100.32 },
  { city: 'Mérida', lat: 20.97, lon: -89.62 },
  { city: 'Tijuana', lat: 32.51, lon: -117.04 },
  { city: 'Oaxaca', lat: 17.07, lon: -96.72 },
];
function MapScreen() {
  const [picked, setPicked] = useState(BRANCHES[0]!);
  const x = (lon: number) => ((lon + 118) / 32) * 600;
  const y = (lat: number) => ((33 - lat) / 19) * 360;
  return (
    <DemoPage>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <svg
          viewBox="0 0 600 360"
          width="100%"
          role="img"
          aria-label="Mapa de sucursales"
          style={{ background: '#e3f2fd', borderRadius: 8 }}
        >
          {BRANCHES.map((branch) => (
            <g key={branch.city} onClick={() => setPicked(branch)} style={{ cursor: 'pointer' }}>
              <circle
                cx={x(branch.lon)}
                cy={y(branch.lat)}
                r={branch === picked ? 10 : 7}
                fill={branch === picked ? '#1565c0' : '#1e88e5'}
              />
              <text x={x(branch.lon) + 12} y={y(branch.lat) + 4} fontSize="13">
                {branch.city}
              </text>
            </g>
          ))}
        </svg>
        <Typography role="status">
          Sucursal: {picked.city} ({picked.lat}, {picked.lon})
        </Typography>
      </Paper>
    </DemoPage>
  );
}

function ItemList() {
  const { data = [] } = useDemoQuery<typeof LIST_ITEMS>('/api/list/all');
  const [view, setView] = useState<'list' | 'grid'>('list');
  return (
    <DemoPage
      actions={
        <ToggleButtonGroup
          size="small"
          exclusive
          value={view}
          onChange={(_, next: 'list' | 'grid' | null) => next && setView(next)}
          aria-label="Vista"
        >
          <ToggleButton value="list">Lista</ToggleButton>
          <ToggleButton value="grid">Cuadrícula</ToggleButton>
        </ToggleButtonGroup>
      }
    >
      <Box
        sx={{
          display: 'grid',
          gap: view === 'grid' ? 2 : 1,
          gridTemplateColumns: view === 'grid' ? 'repeat(auto-fill, minmax(200px, 1fr))' : '1fr',
        }}
      >
        {data.map((item) => (
          <Card key={item.id} variant="outlined">
            <CardContent
              sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, flexDirection: view === 'grid' ? 'column' : 'row' }}
            >
              <Typography sx={{ fontWeight: 600 }}>{item.title}</Typography>
              <Typography color="text.secondary">{item.category}</Typography>
              <Typography>{money(item.price)}</Typography>
            </CardContent>
          </Card>
        ))}
      </Box>
    </DemoPage>
  );
}

function DragAndDrop() {
  const [items, setItems] = useState(() => LIST_ITEMS.slice(0, 5).map((item) => item.title));
  const [dragged, setDragged] = useState<number | null>(null);
  const drop = (target: number) => (event: DragEvent) => {
    event.preventDefault();
    if (dragged === null) return;
    const next = [...items];
    const [moved] = next.splice(dragged, 1);
    next.splice(target, 0, moved!);
    setItems(next);
    setDragged(null);
  };
  return (
    <DemoPage>
      <Typography color="text.secondary">Arrastra los elementos para cambiar su orden.</Typography>
      <Paper variant="outlined" sx={{ maxWidth: 420 }}>
        <List aria-label="Elementos ordenables">
          {items.map((item, index) => (
            <ListItem
              key={item}
              draggable
              onDragStart={() => setDragged(index)}
              onDragOver={(event) => event.preventDefault()}
              onDrop={drop(index)}
              divider
              sx={{ cursor: 'grab', opacity: dragged === index ? 0.5 : 1 }}
            >
              <ListItemText primary={`${index + 1}. ${item}`} />
            </ListItem>
          ))}
        </List>
      </Paper>
    </DemoPage>
  );
}

export const screens = { calendar: Calendar, chat: Chat, inbox: Inbox, map: MapScreen, list: ItemList, dragAndDrop: DragAndDrop };
