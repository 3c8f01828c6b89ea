import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import type { Invoice } from '../fake-api/data';
import { DemoPage, money, putJson, useDemoQuery } from '../ui';

const STATUS_COLOR = { pendiente: 'warning', enviada: 'info', entregada: 'success' } as const;
const date = (timestamp: number) => new Date(timestamp).toLocaleDateString('es-MX');
const subtotal = (invoice: Invoice) => invoice.items.reduce((sum, item) => sum + item.unitPrice * item.unit, 0);

function InvoiceList() {
  const { data = [] } = useDemoQuery<Invoice[]>('/api/invoices');
  return (
    <DemoPage title="Facturas">
      <Paper variant="outlined">
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>Factura</TableCell>
              <TableCell>Pedido</TableCell>
              <TableCell>Cliente</TableCell>
              <TableCell>Fecha</TableCell>
              <TableCell>Estado</TableCell>
              <TableCell align="right">Total</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {data.map((invoice) => (
              <TableRow key={invoice.id}>
                <TableCell>
                  <Link to={`/invoice/${invoice.id}`}>{invoice.id}</Link>
                </TableCell>
                <TableCell>{invoice.orderNo}</TableCell>
                <TableCell>{invoice.buyer}</TableCell>
                <TableCell>{date(invoice.date)}</TableCell>
                <TableCell>
                  <Chip size="small" label={invoice.status} color={STATUS_COLOR[invoice.status]} />
                </TableCell>
                <TableCell align="right">{money(subtotal(invoice) * (1 + invoice.vat / 100))}</TableCell>
                <TableCell align="right">
                  <Button size="small" component={Link} to={`/invoice/edit/${invoice.id}`}>
                    Editar
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
    </DemoPage>
  );
}

function InvoiceView() {
  const { id = '' } = useParams();
  const { data: invoice, error } = useDemoQuery<Invoice>(`/api/invoices/${id}`);
  const net = invoice ? subtotal(invoice) : 0;
  return (
    <DemoPage
      title="Detalle de factura"
      actions={
        <Button component={Link} to={`/invoice/edit/${id}`}>
          Editar
        </Button>
      }
    >
      {error && <Alert severity="error">{error.message}</Alert>}
      {invoice && (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Typography variant="h6">Factura {invoice.id}</Typography>
          <Typography color="text.secondary">
            {invoice.seller} → {invoice.buyer} · pedido {invoice.orderNo} · {date(invoice.date)}
          </Typography>
          <Table size="small" sx={{ my: 2 }}>
            <TableHead>
              <TableRow>
                <TableCell>Artículo</TableCell>
                <TableCell align="right">Precio</TableCell>
                <TableCell align="right">Unidades</TableCell>
                <TableCell align="right">Importe</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {invoice.items.map((item) => (
                <TableRow key={item.name}>
                  <TableCell>{item.name}</TableCell>
                  <TableCell align="right">{money(item.unitPrice)}</TableCell>
                  <TableCell align="right">{item.unit}</TableCell>
                  <TableCell align="right">{money(item.unitPrice * item.unit)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Box sx={{ textAlign: 'right' }}>
            <Typography>Subtotal: {money(net)}</Typography>
            <Typography>
              IVA ({invoice.vat} %): {money((net * invoice.vat) / 100)}
            </Typography>
            <Typography sx={{ fontWeight: 600 }}>Total: {money(net * (1 + invoice.vat / 100))}</Typography>
          </Box>
        </Paper>
      )}
    </DemoPage>
  );
}

function InvoiceEdit() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { data: invoice } = useDemoQuery<Invoice>(`/api/invoices/${id}`);
  const [change, setChange] = useState<Partial<Pick<Invoice, 'buyer' | 'status'>>>({});
  const save = async () => {
    await putJson(`/api/invoices/${id}`, change);
    await client.invalidateQueries({ queryKey: ['demo'] });
    await navigate(`/invoice/${id}`);
  };
  return (
    <DemoPage title="Editar factura">
      {invoice && (
        <Paper variant="outlined" sx={{ p: 3, display: 'grid', gap: 2, maxWidth: 480 }}>
          <TextField
            label="Cliente"
            value={change.buyer ?? invoice.buyer}
            onChange={(event) => setChange({ ...change, buyer: event.target.value })}
          />
          <TextField
            select
            label="Estado"
            value={change.status ?? invoice.status}
            onChange={(event) => setChange({ ...change, status: event.target.value as Invoice['status'] })}
          >
            {Object.keys(STATUS_COLOR).map((status) => (
              <MenuItem key={status} value={status}>
                {status}
              </MenuItem>
            ))}
          </TextField>
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button variant="contained" onClick={() => void save()}>
              Guardar
            </Button>
            <Button component={Link} to="/invoice/list">
              Cancelar
            </Button>
          </Box>
        </Paper>
      )}
    </DemoPage>
  );
}

export const screens = { list: InvoiceList, view: InvoiceView, edit: InvoiceEdit };
