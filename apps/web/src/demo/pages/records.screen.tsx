import { useState, type ComponentType } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';
import { INVOICES, PEOPLE, PRODUCTS } from '../fake-api/data';
import { DemoPage, money } from '../ui';

/** The template's customer, product and order pages: one list, form and detail view, fed by three record specs. */
type Cell = string | number | boolean;
interface Spec {
  columns: [key: string, label: string, show?: (value: Cell) => string][];
  rows: Record<string, Cell>[];
  newPath?: string;
  viewPath?: string;
}

const CUSTOMERS: Spec = {
  columns: [
    ['name', 'Nombre'],
    ['email', 'Correo'],
    ['city', 'Ciudad'],
    ['balance', 'Saldo', (value) => money(Number(value))],
  ],
  rows: PEOPLE.map((person) => ({ ...person })),
  newPath: '/pages/new-customer',
  viewPath: '/pages/view-customer',
};

const PRODUCT_RECORDS: Spec = {
  columns: [
    ['title', 'Producto'],
    ['brand', 'Marca'],
    ['category', 'Categoría'],
    ['price', 'Precio', (value) => money(Number(value))],
    ['totalUnit', 'Existencias'],
  ],
  rows: PRODUCTS.map(({ id, title, brand, category, price, totalUnit }) => ({ id, title, brand, category, price, totalUnit })),
  newPath: '/pages/new-product',
  viewPath: '/pages/view-product',
};

const ORDERS: Spec = {
  columns: [
    ['orderNo', 'Pedido'],
    ['buyer', 'Cliente'],
    ['status', 'Estado'],
    ['date', 'Fecha', (value) => new Date(Number(value)).toLocaleDateString('es-MX')],
  ],
  rows: INVOICES.map(({ id, orderNo, buyer, status, date }) => ({ id, orderNo, buyer, status, date })),
};

const show = (spec: Spec, key: string, value: Cell | undefined) => {
  const format = spec.columns.find(([column]) => column === key)?.[2];
  return value === undefined ? '' : format ? format(value) : String(value);
};

const recordList = (spec: Spec): ComponentType =>
  function RecordListScreen() {
    return (
      <DemoPage
        actions={
          spec.newPath && (
            <Button variant="contained" component={Link} to={spec.newPath}>
              Agregar
            </Button>
          )
        }
      >
        <Paper variant="outlined">
          <Table size="small">
            <TableHead>
              <TableRow>
                {spec.columns.map(([key, label]) => (
                  <TableCell key={key}>{label}</TableCell>
                ))}
                {spec.viewPath && <TableCell />}
              </TableRow>
            </TableHead>
            <TableBody>
              {spec.rows.map((row) => (
                <TableRow key={String(row.id)}>
                  {spec.columns.map(([key]) => (
                    <TableCell key={key}>{show(spec, key, row[key])}</TableCell>
                  ))}
                  {spec.viewPath && (
                    <TableCell align="right">
                      <Button size="small" component={Link} to={spec.viewPath}>
                        Ver
                      </Button>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      </DemoPage>
    );
  };

const recordNew = (spec: Spec): ComponentType =>
  function RecordNewScreen() {
    const [saved, setSaved] = useState(false);
    return (
      <DemoPage>
        <Paper
          variant="outlined"
          component="form"
          onSubmit={(event) => (event.preventDefault(), setSaved(true))}
          sx={{ p: 3, display: 'grid', gap: 2, maxWidth: 520 }}
        >
          {spec.columns.map(([key, label]) => (
            <TextField key={key} name={key} label={label} required={key === spec.columns[0]![0]} />
          ))}
          {saved && <Alert severity="success">Registro de demostración guardado en esta pantalla.</Alert>}
          <Box>
            <Button type="submit" variant="contained">
              Guardar
            </Button>
          </Box>
        </Paper>
      </DemoPage>
    );
  };

const recordView = (spec: Spec): ComponentType =>
  function RecordViewScreen() {
    const row = spec.rows[0]!;
    return (
      <DemoPage>
        <Paper variant="outlined" sx={{ p: 3, display: 'grid', gap: 1, gridTemplateColumns: 'max-content 1fr', columnGap: 3 }}>
          {spec.columns.map(([key, label]) => (
            <Box key={key} sx={{ display: 'contents' }}>
              <Typography color="text.secondary">{label}</Typography>
              <Typography>{show(spec, key, row[key])}</Typography>
            </Box>
          ))}
        </Paper>
      </DemoPage>
    );
  };

export const screens = {
  customerList: recordList(CUSTOMERS),
  newCustomer: recordNew(CUSTOMERS),
  viewCustomer: recordView(CUSTOMERS),
  productList: recordList(PRODUCT_RECORDS),
  newProduct: recordNew(PRODUCT_RECORDS),
  viewProduct: recordView(PRODUCT_RECORDS),
  orderList: recordList(ORDERS),
};
