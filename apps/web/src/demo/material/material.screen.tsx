import { useState, type ComponentType, type ReactNode } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import LinearProgress from '@mui/material/LinearProgress';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Slider from '@mui/material/Slider';
import Snackbar from '@mui/material/Snackbar';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AccountBalance from '@mui/icons-material/AccountBalance';
import Alarm from '@mui/icons-material/Alarm';
import CalendarMonth from '@mui/icons-material/CalendarMonth';
import CloudUpload from '@mui/icons-material/CloudUpload';
import Favorite from '@mui/icons-material/Favorite';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Home from '@mui/icons-material/Home';
import Mail from '@mui/icons-material/Mail';
import Payments from '@mui/icons-material/Payments';
import Search from '@mui/icons-material/Search';
import Settings from '@mui/icons-material/Settings';
import Star from '@mui/icons-material/Star';
import { BRANDS } from '../constants';
import { PEOPLE } from '../fake-api/data';
import { DemoPage } from '../ui';

/** The template's Material component pages: one small live example per component, declared as data. */

const Said = ({ children }: { children: ReactNode }) => (
  <Typography variant="body2" color="text.secondary" role="status">
    {children}
  </Typography>
);

function TableDemo() {
  return (
    <Table size="small">
      <TableHead>
        <TableRow>
          <TableCell>Nombre</TableCell>
          <TableCell>Área</TableCell>
          <TableCell>Ciudad</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {PEOPLE.map((person) => (
          <TableRow key={person.id}>
            <TableCell>{person.name}</TableCell>
            <TableCell>{person.role}</TableCell>
            <TableCell>{person.city}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function FormDemo() {
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
      {(['outlined', 'filled', 'standard'] as const).map((variant) => (
        <TextField key={variant} variant={variant} label={`Campo ${variant}`} helperText="Texto de ayuda" />
      ))}
      <TextField label="Con error" error helperText="Este campo es obligatorio" />
    </Box>
  );
}

function ButtonsDemo() {
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {(['contained', 'outlined', 'text'] as const).map((variant) => (
        <Box key={variant} sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {(['primary', 'secondary', 'success', 'error'] as const).map((color) => (
            <Button key={color} variant={variant} color={color}>
              {color}
            </Button>
          ))}
          <Button variant={variant} disabled>
            deshabilitado
          </Button>
        </Box>
      ))}
    </Box>
  );
}

const ICONS = { AccountBalance, Alarm, CalendarMonth, CloudUpload, Favorite, Home, Mail, Payments, Search, Settings, Star };
function IconsDemo() {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(120px, 1fr))' }}>
      {Object.entries(ICONS).map(([name, Icon]) => (
        <Box key={name} sx={{ textAlign: 'center' }}>
          <Icon color="primary" />
          <Typography variant="caption" component="p">
            {name}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function ProgressDemo() {
  const [value, setValue] = useState(30);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
        <CircularProgress aria-label="Cargando" />
        <CircularProgress variant="determinate" value={value} aria-label="Avance circular" />
        <Button onClick={() => setValue((value + 10) % 110)}>Avanzar</Button>
      </Box>
      <LinearProgress variant="determinate" value={value} aria-label="Avance lineal" />
      <Said>Avance: {value} %</Said>
    </Box>
  );
}

function MenuDemo() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [picked, setPicked] = useState('ninguna');
  return (
    <Box>
      <Button variant="outlined" onClick={(event) => setAnchor(event.currentTarget)}>
        Abrir menú
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {['Perfil', 'Mi cuenta', 'Ayuda'].map((option) => (
          <MenuItem key={option} onClick={() => (setPicked(option), setAnchor(null))}>
            {option}
          </MenuItem>
        ))}
      </Menu>
      <Said>Opción elegida: {picked}</Said>
    </Box>
  );
}

function ChoiceDemo({ control }: { control: 'checkbox' | 'switch' }) {
  const [on, setOn] = useState<Record<string, boolean>>({ Correo: true });
  const Control = control === 'checkbox' ? Checkbox : Switch;
  return (
    <FormGroup>
      {['Correo', 'SMS', 'Notificaciones push'].map((label) => (
        <FormControlLabel
          key={label}
          label={label}
          control={<Control checked={on[label] ?? false} onChange={(event) => setOn({ ...on, [label]: event.target.checked })} />}
        />
      ))}
      <Said>
        Activas:{' '}
        {Object.keys(on)
          .filter((key) => on[key])
          .join(', ') || 'ninguna'}
      </Said>
    </FormGroup>
  );
}

function RadioDemo() {
  const [value, setValue] = useState('mensual');
  return (
    <>
      <RadioGroup value={value} onChange={(event) => setValue(event.target.value)} aria-label="Frecuencia">
        {['semanal', 'quincenal', 'mensual'].map((option) => (
          <FormControlLabel key={option} value={option} control={<Radio />} label={option} />
        ))}
      </RadioGroup>
      <Said>Frecuencia: {value}</Said>
    </>
  );
}

function SliderDemo() {
  const [value, setValue] = useState(40);
  return (
    <Box sx={{ maxWidth: 360 }}>
      <Slider value={value} onChange={(_, next) => setValue(next as number)} valueLabelDisplay="auto" aria-label="Volumen" />
      <Said>Volumen: {value}</Said>
    </Box>
  );
}

function AutocompleteDemo() {
  const [value, setValue] = useState<string | null>(null);
  return (
    <Box sx={{ maxWidth: 360 }}>
      <Autocomplete
        options={[...BRANDS]}
        value={value}
        onChange={(_, next) => setValue(next)}
        renderInput={(params) => <TextField {...params} label="Marca" />}
      />
      <Said>Marca: {value ?? 'ninguna'}</Said>
    </Box>
  );
}

function ExpansionDemo() {
  return (
    <Box>
      {['¿Qué es este portal?', '¿Cómo cambio mi contraseña?', '¿Dónde veo mis facturas?'].map((question) => (
        <Accordion key={question} variant="outlined">
          <AccordionSummary expandIcon={<ExpandMore />}>{question}</AccordionSummary>
          <AccordionDetails>Respuesta de demostración a «{question}».</AccordionDetails>
        </Accordion>
      ))}
    </Box>
  );
}

function DialogDemo() {
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState('sin respuesta');
  const close = (value: string) => (setAnswer(value), setOpen(false));
  return (
    <Box>
      <Button variant="outlined" onClick={() => setOpen(true)}>
        Abrir diálogo
      </Button>
      <Dialog open={open} onClose={() => close('cancelado')}>
        <DialogTitle>¿Confirmas la acción?</DialogTitle>
        <DialogContent>Este es un diálogo de confirmación con Sí y No.</DialogContent>
        <DialogActions>
          <Button onClick={() => close('No')}>No</Button>
          <Button variant="contained" onClick={() => close('Sí')}>
            Sí
          </Button>
        </DialogActions>
      </Dialog>
      <Said>Respuesta: {answer}</Said>
    </Box>
  );
}

function SnackbarDemo() {
  const [open, setOpen] = useState(false);
  return (
    <Box>
      <Button variant="outlined" onClick={() => setOpen(true)}>
        Mostrar aviso
      </Button>
      <Snackbar open={open} autoHideDuration={3000} onClose={() => setOpen(false)} message="Cambios guardados" />
    </Box>
  );
}

const DEMOS = {
  table: TableDemo,
  form: FormDemo,
  buttons: ButtonsDemo,
  icons: IconsDemo,
  progress: ProgressDemo,
  menu: MenuDemo,
  checkbox: () => <ChoiceDemo control="checkbox" />,
  switch: () => <ChoiceDemo control="switch" />,
  radio: RadioDemo,
  slider: SliderDemo,
  autocomplete: AutocompleteDemo,
  'expansion-panel': ExpansionDemo,
  dialog: DialogDemo,
  snackbar: SnackbarDemo,
} satisfies Record<string, ComponentType>;

type MaterialKey = keyof typeof DEMOS;

const page = (Demo: ComponentType): ComponentType =>
  function MaterialScreen() {
    return (
      <DemoPage>
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Demo />
        </Paper>
      </DemoPage>
    );
  };

export const screens = Object.fromEntries(Object.entries(DEMOS).map(([key, demo]) => [key, page(demo)])) as Record<
  MaterialKey,
  ComponentType
>;
