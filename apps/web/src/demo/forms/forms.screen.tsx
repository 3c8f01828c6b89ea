import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import TextField from '@mui/material/TextField';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { CATEGORIES } from '../constants';
import { DemoPage } from '../ui';

/** The template's forms, each declared as a list of fields and drawn by one renderer. */
interface Field {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'number' | 'date' | 'multiline' | 'checkbox';
  options?: readonly string[];
  required?: boolean;
}

type Values = Record<string, string | boolean>;

const f = (name: string, label: string, extra: Omit<Field, 'name' | 'label'> = {}): Field => ({ name, label, ...extra });
const STATES = ['Ciudad de México', 'Jalisco', 'Nuevo León', 'Puebla', 'Yucatán'] as const;

const FORMS = {
  basic: {
    title: 'Formulario básico',
    fields: [
      f('name', 'Nombre', { required: true }),
      f('email', 'Correo', { type: 'email', required: true }),
      f('phone', 'Teléfono'),
      f('birth', 'Fecha de nacimiento', { type: 'date' }),
      f('gender', 'Género', { options: ['Femenino', 'Masculino', 'Prefiero no decir'] }),
      f('terms', 'Acepto los términos', { type: 'checkbox', required: true }),
    ],
  },
  order: {
    title: 'Formulario de pedido',
    fields: [
      f('customer', 'Cliente', { required: true }),
      f('product', 'Categoría', { options: CATEGORIES }),
      f('quantity', 'Cantidad', { type: 'number', required: true }),
      f('delivery', 'Fecha de entrega', { type: 'date' }),
      f('notes', 'Notas', { type: 'multiline' }),
    ],
  },
  property: {
    title: 'Alta de inmueble',
    fields: [
      f('title', 'Título del anuncio', { required: true }),
      f('kind', 'Tipo', { options: ['Casa', 'Departamento', 'Local', 'Terreno'] }),
      f('state', 'Estado', { options: STATES }),
      f('price', 'Precio', { type: 'number', required: true }),
      f('rooms', 'Recámaras', { type: 'number' }),
      f('description', 'Descripción', { type: 'multiline' }),
    ],
  },
  customer: {
    title: 'Formulario de cliente',
    fields: [
      f('company', 'Razón social', { required: true }),
      f('rfc', 'RFC', { required: true }),
      f('email', 'Correo', { type: 'email' }),
      f('state', 'Estado', { options: STATES }),
      f('credit', 'Límite de crédito', { type: 'number' }),
      f('newsletter', 'Recibir boletín', { type: 'checkbox' }),
    ],
  },
  invoice: {
    title: 'Formulario de factura',
    fields: [
      f('buyer', 'Cliente', { required: true }),
      f('orderNo', 'Número de pedido', { required: true }),
      f('date', 'Fecha', { type: 'date' }),
      f('concept', 'Concepto'),
      f('amount', 'Importe', { type: 'number', required: true }),
      f('vat', 'IVA incluido', { type: 'checkbox' }),
    ],
  },
} satisfies Record<string, { title: string; fields: Field[] }>;

function FieldInput({
  field,
  value,
  onChange,
}: {
  field: Field;
  value: string | boolean | undefined;
  onChange: (value: string | boolean) => void;
}) {
  if (field.type === 'checkbox') {
    return (
      <FormControlLabel
        control={<Checkbox checked={value === true} onChange={(event) => onChange(event.target.checked)} required={field.required} />}
        label={field.label}
      />
    );
  }
  return (
    <TextField
      label={field.label}
      name={field.name}
      required={field.required}
      select={Boolean(field.options)}
      type={field.type === 'multiline' ? 'text' : (field.type ?? 'text')}
      multiline={field.type === 'multiline'}
      minRows={field.type === 'multiline' ? 3 : undefined}
      value={typeof value === 'string' ? value : ''}
      onChange={(event) => onChange(event.target.value)}
      slotProps={field.type === 'date' ? { inputLabel: { shrink: true } } : undefined}
    >
      {field.options?.map((option) => (
        <MenuItem key={option} value={option}>
          {option}
        </MenuItem>
      ))}
    </TextField>
  );
}

function Fields({
  fields,
  values,
  setValues,
}: {
  fields: Field[];
  values: Values;
  setValues: (change: (values: Values) => Values) => void;
}) {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      {fields.map((field) => (
        <FieldInput
          key={field.name}
          field={field}
          value={values[field.name]}
          onChange={(value) => setValues((current) => ({ ...current, [field.name]: value }))}
        />
      ))}
    </Box>
  );
}

const form = ({ title, fields }: { title: string; fields: Field[] }) =>
  function FormScreen() {
    const [values, setValues] = useState<Values>({});
    const [sent, setSent] = useState(false);
    const submit = (event: FormEvent) => {
      event.preventDefault();
      setSent(true);
    };
    return (
      <DemoPage title={title}>
        <Paper component="form" variant="outlined" onSubmit={submit} sx={{ p: 3, display: 'grid', gap: 2 }}>
          <Fields fields={fields} values={values} setValues={setValues} />
          {sent && <Alert severity="success">Datos de demostración recibidos (no se guardan).</Alert>}
          <Box>
            <Button type="submit" variant="contained">
              Enviar
            </Button>
          </Box>
        </Paper>
      </DemoPage>
    );
  };

const WIZARD_STEPS = [
  { label: 'Datos personales', fields: FORMS.basic.fields.slice(0, 3) },
  { label: 'Domicilio', fields: [f('street', 'Calle y número'), f('state', 'Estado', { options: STATES }), f('zip', 'Código postal')] },
  { label: 'Confirmación', fields: [f('confirm', 'Confirmo que los datos son correctos', { type: 'checkbox' })] },
];

function WizardScreen() {
  const [step, setStep] = useState(0);
  const [values, setValues] = useState<Values>({});
  const done = step === WIZARD_STEPS.length;
  return (
    <DemoPage title="Asistente por pasos">
      <Paper variant="outlined" sx={{ p: 3, display: 'grid', gap: 3 }}>
        <Stepper activeStep={step}>
          {WIZARD_STEPS.map((item) => (
            <Step key={item.label}>
              <StepLabel>{item.label}</StepLabel>
            </Step>
          ))}
        </Stepper>
        {done ? (
          <Alert severity="success">Listo: {Object.keys(values).length} datos capturados.</Alert>
        ) : (
          <Fields fields={WIZARD_STEPS[step]!.fields} values={values} setValues={setValues} />
        )}
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button disabled={step === 0} onClick={() => setStep(step - 1)}>
            Atrás
          </Button>
          <Button variant="contained" onClick={() => setStep(done ? 0 : step + 1)}>
            {done ? 'Reiniciar' : step === WIZARD_STEPS.length - 1 ? 'Terminar' : 'Siguiente'}
          </Button>
        </Box>
      </Paper>
    </DemoPage>
  );
}

/** Files stay in the browser: the demo only lists them. */
function UploadScreen() {
  const [files, setFiles] = useState<File[]>([]);
  return (
    <DemoPage title="Carga de archivos">
      <Paper variant="outlined" sx={{ p: 3, display: 'grid', gap: 2 }}>
        <Button variant="outlined" component="label" sx={{ justifySelf: 'start' }}>
          Elegir archivos
          <input
            hidden
            multiple
            type="file"
            aria-label="Archivos"
            onChange={(event) => setFiles((current) => [...current, ...Array.from(event.target.files ?? [])])}
          />
        </Button>
        <List dense aria-label="Archivos elegidos">
          {files.length === 0 && <ListItem>Ningún archivo elegido.</ListItem>}
          {files.map((file, index) => (
            <ListItem
              key={`${file.name}-${index}`}
              secondaryAction={
                <IconButton
                  edge="end"
                  aria-label={`Quitar ${file.name}`}
                  onClick={() => setFiles((current) => current.filter((_, position) => position !== index))}
                >
                  <DeleteOutlined />
                </IconButton>
              }
            >
              <ListItemText primary={file.name} secondary={`${(file.size / 1024).toFixed(1)} kB`} />
            </ListItem>
          ))}
        </List>
      </Paper>
    </DemoPage>
  );
}

export const screens = {
  basic: form(FORMS.basic),
  order: form(FORMS.order),
  property: form(FORMS.property),
  customer: form(FORMS.customer),
  invoice: form(FORMS.invoice),
  wizard: WizardScreen,
  upload: UploadScreen,
};
