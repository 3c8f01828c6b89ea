import type { ReactNode } from 'react';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import Close from '@mui/icons-material/Close';
import { DEMO_EPOCH, PRODUCTS } from '../fake-api/data';
import type { Notification } from '../fake-api/state';
import { relativeTime } from '../relative-time';
import { DemoPage, Row, StatCard, money, postJson, useDemoMutation, useDemoQuery } from '../ui';

/** The notification list of the template's top bar, here as a card: delete one, delete all, add (seed section 4). */
function NotificationsCard() {
  const { data = [] } = useDemoQuery<Notification[]>('/api/notification');
  const remove = useDemoMutation('/api/notification', (id: string) => postJson<Notification[]>('/api/notification/delete', { id }));
  const clear = useDemoMutation('/api/notification', () => postJson<Notification[]>('/api/notification/delete-all', {}));
  const add = useDemoMutation('/api/notification', () => postJson<Notification[]>('/api/notification/add', {}));
  return (
    <Card variant="outlined" sx={{ flex: '1 1 320px' }}>
      <CardHeader
        title="Notificaciones"
        action={
          <>
            <Button onClick={() => add.mutate(undefined)}>Agregar</Button>
            <Button color="error" onClick={() => clear.mutate(undefined)} disabled={data.length === 0}>
              Borrar todas
            </Button>
          </>
        }
      />
      <List dense aria-label="Notificaciones">
        {data.length === 0 && <ListItem>Sin notificaciones.</ListItem>}
        {data.map((item) => (
          <ListItem
            key={item.id}
            secondaryAction={
              <IconButton edge="end" aria-label={`Borrar ${item.title}`} onClick={() => remove.mutate(item.id)}>
                <Close fontSize="small" />
              </IconButton>
            }
          >
            <ListItemAvatar>
              <Avatar sx={{ bgcolor: `${item.icon.color}.main`, width: 32, height: 32, fontSize: 14 }}>{item.heading[0]}</Avatar>
            </ListItemAvatar>
            <ListItemText primary={item.title} secondary={`${item.subtitle} · hace ${relativeTime(item.timestamp, DEMO_EPOCH)}`} />
          </ListItem>
        ))}
      </List>
    </Card>
  );
}

function ProductTable({ stock }: { stock: boolean }) {
  return (
    <Card variant="outlined" sx={{ flex: '2 1 420px' }}>
      <CardHeader title={stock ? 'Existencias' : 'Productos más vendidos'} />
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>Producto</TableCell>
            <TableCell>Marca</TableCell>
            <TableCell align="right">{stock ? 'Disponibles' : 'Precio'}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {PRODUCTS.slice(0, 6).map((product, index) => (
            <TableRow key={product.id}>
              <TableCell>{product.title}</TableCell>
              <TableCell>{product.brand}</TableCell>
              <TableCell align="right">
                {stock ? `${product.totalUnit - index * 13} / ${product.totalUnit}` : money(product.price)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}

function GoalsCard() {
  const goals = [
    ['Ventas del trimestre', 72],
    ['Clientes nuevos', 45],
    ['Tickets resueltos', 91],
  ] as const;
  return (
    <Card variant="outlined" sx={{ flex: '1 1 300px' }}>
      <CardHeader title="Metas" />
      <CardContent>
        {goals.map(([label, value]) => (
          <div key={label}>
            <Typography variant="body2">
              {label}: {value} %
            </Typography>
            <LinearProgress variant="determinate" value={value} aria-label={label} sx={{ mb: 2, height: 8, borderRadius: 4 }} />
          </div>
        ))}
      </CardContent>
    </Card>
  );
}

type Stat = [label: string, value: string, hint: string];

interface Variant {
  title: string;
  stats: Stat[];
  body: () => ReactNode;
}

const VARIANTS = {
  default: {
    title: 'Tablero',
    stats: [
      ['Ventas de hoy', money(48_250), '+12 % contra ayer'],
      ['Pedidos', '126', '18 por enviar'],
      ['Visitas', '3,482', 'últimas 24 h'],
    ],
    body: () => (
      <>
        <NotificationsCard />
        <ProductTable stock={false} />
      </>
    ),
  },
  analytics: {
    title: 'Tablero de analítica',
    stats: [
      ['Sesiones', '18,920', 'mes en curso'],
      ['Tasa de rebote', '38 %', '−4 puntos'],
      ['Conversión', '3.2 %', 'meta 3.5 %'],
      ['Ingresos', money(612_300), 'mes en curso'],
    ],
    body: () => (
      <>
        <ProductTable stock={false} />
        <GoalsCard />
      </>
    ),
  },
  alternative: {
    title: 'Tablero alternativo',
    stats: [
      ['Proyectos activos', '14', '3 por cerrar'],
      ['Horas registradas', '1,240', 'este mes'],
    ],
    body: () => (
      <>
        <GoalsCard />
        <NotificationsCard />
      </>
    ),
  },
  inventory: {
    title: 'Gestión de inventario',
    stats: [
      ['Artículos', String(PRODUCTS.length), 'en catálogo'],
      ['Unidades', String(PRODUCTS.reduce((sum, product) => sum + product.totalUnit, 0)), 'en almacén'],
      ['Por reabastecer', '2', 'debajo del mínimo'],
    ],
    body: () => <ProductTable stock />,
  },
} satisfies Record<string, Variant>;

const dashboard = (variant: Variant) =>
  function DashboardScreen() {
    return (
      <DemoPage title={variant.title}>
        <Row>
          {variant.stats.map(([label, value, hint]) => (
            <StatCard key={label} label={label} value={value} hint={hint} />
          ))}
        </Row>
        <Row>{variant.body()}</Row>
      </DemoPage>
    );
  };

export const screens = {
  default: dashboard(VARIANTS.default),
  analytics: dashboard(VARIANTS.analytics),
  alternative: dashboard(VARIANTS.alternative),
  inventory: dashboard(VARIANTS.inventory),
};
