import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Rating from '@mui/material/Rating';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import ShoppingCartOutlined from '@mui/icons-material/ShoppingCartOutlined';
import { Link } from 'react-router';
import { ECOMMERCE_USER, type Product } from '../fake-api/data';
import { DemoPage, money, postJson, useDemoAction, useDemoQuery } from '../ui';

const uid = ECOMMERCE_USER.id;
const CART = `/api/ecommerce/get-cart-list?data=${uid}`;
type CartLine = Product & { amount: number };

function useCart() {
  const { data = [] } = useDemoQuery<CartLine[]>(CART);
  const add = useDemoAction((productId: string) => postJson('/api/ecommerce/add-to-cart', { uid, productId }), CART);
  const remove = useDemoAction((productId: string) => postJson('/api/ecommerce/delete-from-cart', { uid, productId }), CART);
  const update = useDemoAction(
    ({ productId, amount }: { productId: string; amount: number }) =>
      postJson('/api/ecommerce/update-cart-amount', { uid, productId, amount }),
    CART,
  );
  const total = data.reduce((sum, line) => sum + line.price * line.amount, 0);
  const units = data.reduce((sum, line) => sum + line.amount, 0);
  return { lines: data, add, remove, update, total, units };
}

const CartButton = ({ units }: { units: number }) => (
  <Button
    component={Link}
    to="/ecommerce/cart"
    startIcon={
      <Badge badgeContent={units} color="primary">
        <ShoppingCartOutlined />
      </Badge>
    }
  >
    Carrito
  </Button>
);

function Filter<T extends string | number>({
  label,
  options,
  value,
  onChange,
  show,
}: {
  label: string;
  options: { key: T; count: number }[];
  value: T | '';
  onChange: (value: T | '') => void;
  show: (key: T) => string;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value as T | '')}
      sx={{ minWidth: 180 }}
    >
      <MenuItem value="">Todas</MenuItem>
      {options.map((option) => (
        <MenuItem key={option.key} value={option.key}>
          {show(option.key)} ({option.count})
        </MenuItem>
      ))}
    </TextField>
  );
}

function Shop() {
  const { data: products = [] } = useDemoQuery<Product[]>('/api/ecommerce/get-product-list');
  const { data: categories = [] } = useDemoQuery<{ title: string; product: number }[]>('/api/ecommerce/get-category-list');
  const { data: brands = [] } = useDemoQuery<{ title: string; product: number }[]>('/api/ecommerce/get-brand-list');
  const { data: ratings = [] } = useDemoQuery<{ rate: number; product: number }[]>('/api/ecommerce/get-rating-list');
  const cart = useCart();
  const [category, setCategory] = useState('');
  const [brand, setBrand] = useState('');
  const [rating, setRating] = useState<number | ''>('');
  const shown = products.filter(
    (product) =>
      (!category || product.category === category) && (!brand || product.brand === brand) && (rating === '' || product.rating >= rating),
  );
  return (
    <DemoPage title="Tienda" actions={<CartButton units={cart.units} />}>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <Filter
          label="Categoría"
          value={category}
          onChange={setCategory}
          options={categories.map((item) => ({ key: item.title, count: item.product }))}
          show={(key) => key}
        />
        <Filter
          label="Marca"
          value={brand}
          onChange={setBrand}
          options={brands.map((item) => ({ key: item.title, count: item.product }))}
          show={(key) => key}
        />
        <Filter
          label="Calificación mínima"
          value={rating}
          onChange={setRating}
          options={ratings.map((item) => ({ key: item.rate, count: item.product }))}
          show={(key) => `${key} ★`}
        />
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' }}>
        {shown.map((product) => (
          <Card key={product.id} variant="outlined" aria-label={product.title}>
            <CardContent>
              <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                {product.title}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {product.brand} · {product.category}
              </Typography>
              <Rating value={product.rating} readOnly size="small" />
              <Typography variant="h6">{money(product.price)}</Typography>
              {product.freeShipping && <Chip size="small" label="Envío gratis" color="success" variant="outlined" />}
            </CardContent>
            <CardActions>
              <Button
                size="small"
                variant="contained"
                onClick={() => cart.add.mutate(product.id)}
                aria-label={`Agregar ${product.title} al carrito`}
              >
                Agregar al carrito
              </Button>
            </CardActions>
          </Card>
        ))}
      </Box>
    </DemoPage>
  );
}

function CartScreen() {
  const cart = useCart();
  return (
    <DemoPage
      title="Carrito"
      actions={
        <Button variant="contained" component={Link} to="/ecommerce/checkout" disabled={cart.lines.length === 0}>
          Pagar
        </Button>
      }
    >
      <Paper variant="outlined">
        <Table size="small" aria-label="Artículos del carrito">
          <TableHead>
            <TableRow>
              <TableCell>Producto</TableCell>
              <TableCell align="right">Precio</TableCell>
              <TableCell align="right">Cantidad</TableCell>
              <TableCell align="right">Importe</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {cart.lines.length === 0 && (
              <TableRow>
                <TableCell colSpan={5}>
                  El carrito está vacío. <Link to="/ecommerce/shop">Ir a la tienda</Link>
                </TableCell>
              </TableRow>
            )}
            {cart.lines.map((line) => (
              <TableRow key={line.id}>
                <TableCell>{line.title}</TableCell>
                <TableCell align="right">{money(line.price)}</TableCell>
                <TableCell align="right">
                  <TextField
                    type="number"
                    size="small"
                    value={line.amount}
                    onChange={(event) => {
                      const amount = Number(event.target.value);
                      if (Number.isInteger(amount) && amount >= 1 && amount <= line.totalUnit)
                        cart.update.mutate({ productId: line.id, amount });
                    }}
                    slotProps={{ htmlInput: { min: 1, max: line.totalUnit, 'aria-label': `Cantidad de ${line.title}` } }}
                    sx={{ width: 90 }}
                  />
                </TableCell>
                <TableCell align="right">{money(line.price * line.amount)}</TableCell>
                <TableCell align="right">
                  <IconButton aria-label={`Quitar ${line.title}`} onClick={() => cart.remove.mutate(line.id)}>
                    <DeleteOutlined />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
      <Typography variant="h6" sx={{ textAlign: 'right' }} aria-label="Total del carrito">
        Total: {money(cart.total)}
      </Typography>
    </DemoPage>
  );
}

function Checkout() {
  const cart = useCart();
  const [placed, setPlaced] = useState(false);
  return (
    <DemoPage title="Pago">
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' } }}>
        <Paper variant="outlined" sx={{ p: 3, display: 'grid', gap: 2 }}>
          <Typography variant="h6">Datos de envío</Typography>
          <TextField label="Nombre" defaultValue={ECOMMERCE_USER.name} />
          <TextField label="Dirección" />
          <TextField label="Código postal" />
        </Paper>
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Typography variant="h6">Resumen</Typography>
          {cart.lines.map((line) => (
            <Typography key={line.id} variant="body2">
              {line.amount} × {line.title}: {money(line.price * line.amount)}
            </Typography>
          ))}
          <Typography sx={{ fontWeight: 600, my: 2 }}>Total: {money(cart.total)}</Typography>
          <Button variant="contained" fullWidth disabled={cart.lines.length === 0} onClick={() => setPlaced(true)}>
            Confirmar pedido
          </Button>
        </Paper>
      </Box>
      {placed && <Alert severity="success">Pedido de demostración confirmado: no se cobra nada.</Alert>}
    </DemoPage>
  );
}

export const screens = { shop: Shop, cart: CartScreen, checkout: Checkout };
