import { Fragment, useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import KeyboardArrowDown from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUp from '@mui/icons-material/KeyboardArrowUp';
import { PEOPLE } from '../fake-api/data';
import { DemoPage, money } from '../ui';

type Person = { id: string; name: string; email: string; role: string; city: string; balance: number };
const COLUMNS = [
  ['name', 'Nombre'],
  ['email', 'Correo'],
  ['role', 'Área'],
  ['city', 'Ciudad'],
] as const;

function PeopleTable({
  rows,
  lead,
  trail,
  after,
}: {
  rows: Person[];
  lead?: (row: Person) => ReactNode;
  trail?: (row: Person) => ReactNode;
  after?: (row: Person) => ReactNode;
}) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small">
        <TableHead>
          <TableRow>
            {lead && <TableCell />}
            {COLUMNS.map(([, label]) => (
              <TableCell key={label}>{label}</TableCell>
            ))}
            <TableCell align="right">Saldo</TableCell>
            {trail && <TableCell align="right">Acciones</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <Fragment key={row.id}>
              <TableRow>
                {lead && <TableCell padding="checkbox">{lead(row)}</TableCell>}
                {COLUMNS.map(([key]) => (
                  <TableCell key={key}>{row[key]}</TableCell>
                ))}
                <TableCell align="right">{money(row.balance)}</TableCell>
                {trail && <TableCell align="right">{trail(row)}</TableCell>}
              </TableRow>
              {after?.(row)}
            </Fragment>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function SimpleTable() {
  return (
    <DemoPage title="Tabla simple">
      <PeopleTable rows={[...PEOPLE]} />
    </DemoPage>
  );
}

function ExpandableTable() {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <DemoPage title="Tabla expandible">
      <PeopleTable
        rows={[...PEOPLE]}
        lead={(row) => (
          <IconButton size="small" aria-label={`Detalle de ${row.name}`} onClick={() => setOpen(open === row.id ? null : row.id)}>
            {open === row.id ? <KeyboardArrowUp /> : <KeyboardArrowDown />}
          </IconButton>
        )}
        after={(row) => (
          <TableRow>
            <TableCell colSpan={6} sx={{ py: 0, borderBottom: open === row.id ? undefined : 0 }}>
              <Collapse in={open === row.id} unmountOnExit>
                <Typography variant="body2" sx={{ py: 1.5 }}>
                  {row.name} trabaja en {row.role} desde la oficina de {row.city}; su saldo pendiente es {money(row.balance)}.
                </Typography>
              </Collapse>
            </TableCell>
          </TableRow>
        )}
      />
    </DemoPage>
  );
}

const EMPTY: Person = { id: '', name: '', email: '', role: '', city: '', balance: 0 };

function CrudTable() {
  const [rows, setRows] = useState<Person[]>([...PEOPLE]);
  const [editing, setEditing] = useState<Person | null>(null);
  const save = () => {
    if (!editing) return;
    setRows((current) =>
      editing.id
        ? current.map((row) => (row.id === editing.id ? editing : row))
        : [...current, { ...editing, id: `n${current.length + 1}` }],
    );
    setEditing(null);
  };
  return (
    <DemoPage
      title="Tabla CRUD"
      actions={
        <Button variant="contained" onClick={() => setEditing(EMPTY)}>
          Agregar persona
        </Button>
      }
    >
      <PeopleTable
        rows={rows}
        trail={(row) => (
          <>
            <IconButton size="small" aria-label={`Editar ${row.name}`} onClick={() => setEditing(row)}>
              <EditOutlined fontSize="small" />
            </IconButton>
            <IconButton
              size="small"
              aria-label={`Borrar ${row.name}`}
              onClick={() => setRows((current) => current.filter((item) => item.id !== row.id))}
            >
              <DeleteOutlined fontSize="small" />
            </IconButton>
          </>
        )}
      />
      <Dialog open={editing !== null} onClose={() => setEditing(null)} fullWidth maxWidth="xs">
        <DialogTitle>{editing?.id ? 'Editar persona' : 'Nueva persona'}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          {COLUMNS.map(([key, label]) => (
            <TextField
              key={key}
              label={label}
              value={editing?.[key] ?? ''}
              onChange={(event) => setEditing((current) => current && { ...current, [key]: event.target.value })}
            />
          ))}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setEditing(null)}>Cancelar</Button>
          <Button variant="contained" onClick={save} disabled={!editing?.name}>
            Guardar
          </Button>
        </DialogActions>
      </Dialog>
    </DemoPage>
  );
}

export const screens = { simple: SimpleTable, expandable: ExpandableTable, crud: CrudTable };
