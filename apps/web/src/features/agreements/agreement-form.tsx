import { useMemo, useState } from 'react';
import { useFieldArray, useWatch, type Control } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import { LAST_DAY_OF_MONTH, firstPayday, isValidRfc, payrollCalendar, type PayrollCalendar } from '@portal/lending';
import {
  FREQUENCY_LABELS,
  WEEKDAY_LABELS,
  LAYOUT_FIELDS,
  LAYOUT_FIELD_LABELS,
  PAY_FREQUENCIES,
  SECTORS,
  SECTOR_LABELS,
  layoutSchema,
  type AgreementInput,
  type Company,
  type LayoutTestResult,
  type PayFrequency,
} from '@portal/contract';
import { SelectFormField, SwitchFormField, TextFormField } from '../../components/form-fields';
import { Section } from '../../components/section';
import { formatDate, formatMoney } from '../../lib/format';
import {
  agreementFormSchema,
  EMPTY_PRODUCT,
  formFieldOf,
  isIsoDate,
  parseNonWorkingDays,
  toLayout,
  type AgreementForm,
} from './agreement-form-model';
import { sampleLoan } from './agreement-preview';
import { testLayout } from './agreements.queries';
import { DateFormField } from '../../components/date-form-field';
import { useSchemaForm } from '../../components/schema-form';
import { ScrollTable } from '../../components/scroll-table';

/** The form's control: it edits the model and submits the contract's input. */
type AgreementControl = Control<AgreementForm, unknown, AgreementInput>;

const DELIMITERS = [
  { value: ',', label: 'Coma (,)' },
  { value: ';', label: 'Punto y coma (;)' },
  { value: '|', label: 'Barra (|)' },
  { value: '\t', label: 'Tabulador' },
];

/** The payroll calendar: the pay day of a mensual payroll, or the weekday of a semanal / catorcenal one, and the cut-off. */
function PayrollCalendarFields({ control }: { control: AgreementControl }) {
  const frequency = useWatch({ control, name: 'frequency' });
  return (
    <>
      {frequency === 'mensual' && (
        <Grid size={{ xs: 6, md: 3 }}>
          <TextFormField control={control} name="payDay" label="Día de pago (1 a 31)" helperText="31 = último día de cada mes" />
        </Grid>
      )}
      {(frequency === 'semanal' || frequency === 'catorcenal') && (
        <Grid size={{ xs: 6, md: 3 }}>
          <SelectFormField
            control={control}
            name="paydayWeekday"
            label="Día de pago de la nómina"
            options={Object.entries(WEEKDAY_LABELS).map(([value, label]) => ({ value, label }))}
          />
        </Grid>
      )}
      <Grid size={{ xs: 6, md: 3 }}>
        <TextFormField
          control={control}
          name="cutOffLeadDays"
          label="Días de anticipación al corte"
          helperText="Días que necesita el patrón antes de cerrar su nómina"
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <TextFormField
          control={control}
          name="nonWorkingDays"
          label="Días inhábiles de nómina"
          helperText="Fechas dd/mm/aaaa separadas por comas; un día de pago inhábil se descuenta el día hábil anterior"
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <SwitchFormField
          control={control}
          name="renewalAsChange"
          label="Renovación en una línea por empleado (cambio)"
          helperText="En la cédula, el crédito nuevo sustituye al renovado en un solo cambio (folio e importe nuevos), en lugar de una baja y un alta"
        />
      </Grid>
    </>
  );
}

/** Schedule and CAT of a sample loan of one product, and the next discount dates: computed in the browser, exactly. */
function ProductPreview({ control, today }: { control: AgreementControl; today: string }) {
  const products = useWatch({ control, name: 'products' });
  const frequency = useWatch({ control, name: 'frequency' });
  const payDay = useWatch({ control, name: 'payDay' });
  const paydayWeekday = useWatch({ control, name: 'paydayWeekday' });
  const cutOffLeadDays = useWatch({ control, name: 'cutOffLeadDays' });
  const nonWorkingDays = useWatch({ control, name: 'nonWorkingDays' });
  const [index, setIndex] = useState(0);
  const [amount, setAmount] = useState('10000');
  const product = products[Math.min(index, products.length - 1)];
  const terms = (product?.terms ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
  const [chosenTerm, setChosenTerm] = useState<number | null>(null);
  const term = chosenTerm !== null && terms.includes(chosenTerm) ? chosenTerm : terms[0];

  const result = useMemo(() => {
    if (!product || !frequency || !term) return null;
    try {
      const payroll: PayrollCalendar = {
        frequency: frequency as PayFrequency,
        ...(payDay.trim() !== '' ? { payDay: Number(payDay) } : {}),
        ...(paydayWeekday.trim() !== '' ? { paydayWeekday: Number(paydayWeekday) } : {}),
        cutOffLeadDays: cutOffLeadDays.trim() === '' ? 0 : Number(cutOffLeadDays),
        nonWorkingDays: parseNonWorkingDays(nonWorkingDays).filter(isIsoDate),
      };
      const calendar = payrollCalendar(payroll, today, 6);
      // The sample loan is contracted today: its first discount is the first payday after the payroll cut-off.
      const first = firstPayday(payroll, today);
      return {
        calendar,
        loan: sampleLoan({
          amount,
          annualRatePct: product.annualRatePct,
          ivaRatePct: product.ivaRatePct,
          openingFeePct: product.openingFeePct,
          openingFeeFinanced: product.openingFeeFinanced,
          term,
          frequency: frequency as PayFrequency,
          firstDueDate: first.nominal,
          payDay: payroll.payDay ?? LAST_DAY_OF_MONTH,
          nonWorkingDays: payroll.nonWorkingDays ?? [],
          disbursementDate: today,
        }),
      };
    } catch {
      return null;
    }
  }, [product, frequency, payDay, paydayWeekday, cutOffLeadDays, nonWorkingDays, term, amount, today]);

  return (
    <Section title="Simulación y calendario de descuentos">
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <TextField
          select
          label="Producto"
          value={Math.min(index, products.length - 1)}
          onChange={(event) => setIndex(Number(event.target.value))}
          sx={{ minWidth: 220 }}
        >
          {products.map((entry, position) => (
            <MenuItem key={position} value={position}>
              {entry.name || `Producto ${position + 1}`}
            </MenuItem>
          ))}
        </TextField>
        <TextField label="Monto de ejemplo" value={amount} onChange={(event) => setAmount(event.target.value)} sx={{ maxWidth: 200 }} />
        <TextField
          select
          label="Plazo"
          value={term ?? ''}
          onChange={(event) => setChosenTerm(Number(event.target.value))}
          sx={{ minWidth: 140 }}
          disabled={terms.length === 0}
        >
          {terms.map((entry) => (
            <MenuItem key={entry} value={entry}>
              {entry} pagos
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {!result ? (
        <Alert severity="info">Elige la periodicidad y completa tasa, IVA, comisión y plazos del producto para ver la simulación.</Alert>
      ) : (
        <>
          <Typography sx={{ mb: 1 }} aria-label="Resumen de la simulación">
            Descuento por periodo: <strong>{formatMoney(result.loan.schedule.installment)}</strong> · CAT:{' '}
            <strong>{result.loan.cat} %</strong> sin IVA · Comisión por apertura: {formatMoney(result.loan.openingFee)} + IVA{' '}
            {formatMoney(result.loan.openingFeeIva)} · Monto a dispersar: {formatMoney(result.loan.netDisbursement)}
          </Typography>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {result.loan.schedule.firstPeriodByDays
              ? `Contratado hoy, el primer descuento sería el ${formatDate(result.loan.schedule.rows[0]!.dueDate)}: primer periodo de ${result.loan.schedule.firstPeriodDays} días, con interés por días.`
              : `Contratado hoy, el primer descuento sería el ${formatDate(result.loan.schedule.rows[0]!.dueDate)}: primer periodo completo.`}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            Próximos descuentos de nómina: {result.calendar.map(formatDate).join(' · ')}
          </Typography>
          <ScrollTable label="Tabla de amortización de ejemplo">
            <TableHead>
              <TableRow>
                {['Pago', 'Fecha', 'Capital', 'Interés', 'IVA', 'Descuento', 'Saldo'].map((label) => (
                  <TableCell key={label} align={label === 'Pago' || label === 'Fecha' ? 'left' : 'right'}>
                    {label}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {result.loan.schedule.rows
                .filter((row, position, rows) => position < 6 || position === rows.length - 1)
                .map((row) => (
                  <TableRow key={row.number}>
                    <TableCell>{row.number}</TableCell>
                    <TableCell>{formatDate(row.dueDate)}</TableCell>
                    <TableCell align="right">{formatMoney(row.principal)}</TableCell>
                    <TableCell align="right">{formatMoney(row.interest)}</TableCell>
                    <TableCell align="right">{formatMoney(row.iva)}</TableCell>
                    <TableCell align="right">{formatMoney(row.payment)}</TableCell>
                    <TableCell align="right">{formatMoney(row.balance)}</TableCell>
                  </TableRow>
                ))}
            </TableBody>
          </ScrollTable>
        </>
      )}
    </Section>
  );
}

function LayoutTester({ control }: { control: AgreementControl }) {
  const layoutForm = useWatch({ control, name: 'layout' });
  const [state, setState] = useState<{ busy: boolean; result?: LayoutTestResult; error?: string }>({ busy: false });

  const run = async (file: File) => {
    const layout = layoutSchema.safeParse(toLayout(layoutForm));
    if (!layout.success) {
      setState({ busy: false, error: layout.error.issues.map((issue) => issue.message).join(' ') });
      return;
    }
    setState({ busy: true });
    try {
      setState({ busy: false, result: await testLayout(toLayout(layoutForm), file) });
    } catch (error) {
      setState({ busy: false, error: (error as Error).message });
    }
  };

  return (
    <Box sx={{ mt: 2 }}>
      <Button component="label" variant="outlined" startIcon={<UploadFileOutlined />} disabled={state.busy}>
        {state.busy ? 'Leyendo…' : 'Probar layout con un archivo'}
        <input
          hidden
          type="file"
          aria-label="Archivo de muestra"
          accept=".csv,.txt,.xlsx"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void run(file);
          }}
        />
      </Button>
      {state.error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {state.error}
        </Alert>
      )}
      {state.result && (
        <Box sx={{ mt: 2 }}>
          <Typography sx={{ mb: 1 }}>
            {state.result.totalRows} filas leídas, {state.result.errorRows} con errores. Primeras {state.result.rows.length}:
          </Typography>
          <ScrollTable label="Filas leídas con el layout">
            <TableHead>
              <TableRow>
                <TableCell>Línea</TableCell>
                {LAYOUT_FIELDS.map((field) => (
                  <TableCell key={field}>{LAYOUT_FIELD_LABELS[field]}</TableCell>
                ))}
                <TableCell>Errores</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {state.result.rows.map((row) => (
                <TableRow key={row.line} sx={row.errors.length ? { bgcolor: '#fdecea' } : undefined}>
                  <TableCell>{row.line}</TableCell>
                  {LAYOUT_FIELDS.map((field) => (
                    <TableCell key={field}>{row.fields[field] ?? ''}</TableCell>
                  ))}
                  <TableCell>{row.errors.join(' ')}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </ScrollTable>
        </Box>
      )}
    </Box>
  );
}

/**
 * The agreement form of "Nuevo Convenio" and the edit screen. The contract's schema checks it before sending; the
 * API checks it again and its refusals land next to their fields.
 */
export function AgreementFormView(props: {
  defaultValues: AgreementForm;
  companies: Company[];
  today: string;
  submitLabel: string;
  onSubmit: (input: AgreementInput) => Promise<unknown>;
  onCancel: () => void;
}) {
  const { form, formProps, dialog, summary } = useSchemaForm(agreementFormSchema, {
    defaultValues: props.defaultValues,
    onSubmit: props.onSubmit,
    fieldOf: formFieldOf,
  });
  const { control } = form;
  const contacts = useFieldArray({ control, name: 'contacts' });
  const products = useFieldArray({ control, name: 'products' });
  const format = useWatch({ control, name: 'layout.format' });
  const rfc = useWatch({ control, name: 'employerRfc' });

  const rfcWarning = rfc && isValidRfc(rfc.trim().toUpperCase()) && !isValidRfc(rfc.trim().toUpperCase(), { checkDigit: true });

  return (
    <form {...formProps}>
      {dialog}
      <Section title="Datos del convenio">
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 4 }}>
            <SelectFormField
              control={control}
              name="companyId"
              label="Empresa (marca)"
              options={props.companies.map((company) => ({ value: company.id, label: company.name }))}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 3 }}>
            <TextFormField control={control} name="code" label="Clave" required />
          </Grid>
          <Grid size={{ xs: 12, md: 5 }}>
            <TextFormField control={control} name="name" label="Nombre del convenio" required />
          </Grid>
          <Grid size={{ xs: 12, md: 8 }}>
            <TextFormField control={control} name="employerName" label="Patrón" required />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <TextFormField
              control={control}
              name="employerRfc"
              label="RFC del patrón"
              required
              helperText={rfcWarning ? 'El dígito verificador no coincide: se aceptará, pero confírmalo con el patrón.' : undefined}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 3 }}>
            <SelectFormField
              control={control}
              name="sector"
              label="Sector"
              options={SECTORS.map((sector) => ({ value: sector, label: SECTOR_LABELS[sector] }))}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 3 }}>
            <SelectFormField
              control={control}
              name="frequency"
              label="Periodicidad de pago"
              options={PAY_FREQUENCIES.map((frequency) => ({ value: frequency, label: FREQUENCY_LABELS[frequency] }))}
            />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <TextFormField control={control} name="maxDeductionPct" label="Descuento máximo (% del neto)" />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <TextFormField control={control} name="remittanceLagDays" label="Días en tránsito" />
          </Grid>
          <PayrollCalendarFields control={control} />
          <Grid size={{ xs: 6, md: 3 }}>
            <DateFormField control={control} name="validFrom" label="Vigente desde" />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <DateFormField control={control} name="validTo" label="Vigente hasta (opcional)" />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <SwitchFormField control={control} name="active" label="Activo (recibe solicitudes)" />
          </Grid>
        </Grid>
        <Divider sx={{ my: 2 }} />
        <Typography variant="subtitle1" sx={{ mb: 1, fontWeight: 600 }}>
          Contactos
        </Typography>
        {contacts.fields.map((field, index) => (
          <Stack key={field.id} direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2 }}>
            <TextFormField control={control} name={`contacts.${index}.name`} label="Nombre del contacto" />
            <TextFormField control={control} name={`contacts.${index}.email`} label="Correo" />
            <TextFormField control={control} name={`contacts.${index}.phone`} label="Teléfono" />
            <IconButton aria-label={`Quitar contacto ${index + 1}`} onClick={() => contacts.remove(index)}>
              <DeleteOutline />
            </IconButton>
          </Stack>
        ))}
        <Button onClick={() => contacts.append({ name: '', email: '', phone: '' })}>Agregar contacto</Button>
      </Section>

      <Section title="Productos">
        {products.fields.map((field, index) => (
          <Box key={field.id} sx={{ mb: 3 }} role="group" aria-label={`Producto ${index + 1}`}>
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, md: 4 }}>
                <TextFormField control={control} name={`products.${index}.name`} label="Nombre del producto" />
              </Grid>
              <Grid size={{ xs: 4, md: 2 }}>
                <TextFormField control={control} name={`products.${index}.annualRatePct`} label="Tasa anual %" />
              </Grid>
              <Grid size={{ xs: 4, md: 2 }}>
                <TextFormField control={control} name={`products.${index}.ivaRatePct`} label="IVA %" />
              </Grid>
              <Grid size={{ xs: 4, md: 2 }}>
                <TextFormField control={control} name={`products.${index}.openingFeePct`} label="Comisión apertura %" />
              </Grid>
              <Grid size={{ xs: 12, md: 2 }}>
                <SwitchFormField control={control} name={`products.${index}.openingFeeFinanced`} label="Comisión financiada" />
              </Grid>
              <Grid size={{ xs: 12, md: 4 }}>
                <TextFormField
                  control={control}
                  name={`products.${index}.terms`}
                  label="Plazos permitidos (pagos)"
                  helperText="Separados por comas, por ejemplo 12, 24, 36"
                />
              </Grid>
              <Grid size={{ xs: 4, md: 3 }}>
                <TextFormField control={control} name={`products.${index}.minAmount`} label="Monto mínimo" />
              </Grid>
              <Grid size={{ xs: 4, md: 3 }}>
                <TextFormField control={control} name={`products.${index}.maxAmount`} label="Monto máximo" />
              </Grid>
              <Grid size={{ xs: 4, md: 2 }}>
                <TextFormField control={control} name={`products.${index}.maxAgeAtEnd`} label="Edad máx. al terminar" />
              </Grid>
              <Grid size={{ xs: 6, md: 3 }}>
                <TextFormField
                  control={control}
                  name={`products.${index}.moratoryRatePct`}
                  label="Tasa moratoria anual %"
                  helperText="Sobre capital vencido, por días, más IVA"
                />
              </Grid>
              <Grid size={{ xs: 6, md: 3 }}>
                <TextFormField
                  control={control}
                  name={`products.${index}.lateFee`}
                  label="Comisión por pago tardío"
                  helperText="Por descuento vencido, más IVA"
                />
              </Grid>
              <Grid size={{ xs: 6, md: 3 }}>
                <TextFormField
                  control={control}
                  name={`products.${index}.renewalMinPaid`}
                  label="Pagos mínimos para renovar"
                  helperText="Del crédito que se renueva"
                />
              </Grid>
              <Grid size={{ xs: 6, md: 3 }}>
                <TextFormField
                  control={control}
                  name={`products.${index}.renewalMaxDaysPastDue`}
                  label="Días de atraso máx. para renovar"
                  helperText="0: solo créditos al corriente"
                />
              </Grid>
            </Grid>
            {products.fields.length > 1 && (
              <Button color="error" size="small" sx={{ mt: 1 }} onClick={() => products.remove(index)}>
                Quitar producto
              </Button>
            )}
            <Divider sx={{ mt: 2 }} />
          </Box>
        ))}
        <Button onClick={() => products.append({ ...EMPTY_PRODUCT })}>Agregar producto</Button>
      </Section>

      <ProductPreview control={control} today={props.today} />

      <Section title="Layout del archivo de pagos">
        <Grid container spacing={2} sx={{ mb: 2 }}>
          <Grid size={{ xs: 12, md: 3 }}>
            <SelectFormField
              control={control}
              name="layout.format"
              label="Formato"
              options={[
                { value: 'csv', label: 'CSV (texto separado)' },
                { value: 'xlsx', label: 'Excel (.xlsx)' },
                { value: 'fixed', label: 'Ancho fijo' },
              ]}
            />
          </Grid>
          {format === 'csv' && (
            <Grid size={{ xs: 12, md: 3 }}>
              <SelectFormField control={control} name="layout.delimiter" label="Separador" options={DELIMITERS} />
            </Grid>
          )}
          {format === 'xlsx' && (
            <Grid size={{ xs: 12, md: 3 }}>
              <TextFormField control={control} name="layout.sheet" label="Hoja (vacío: la primera)" />
            </Grid>
          )}
          {format !== 'fixed' && (
            <Grid size={{ xs: 12, md: 3 }}>
              <SwitchFormField control={control} name="layout.hasHeader" label="La primera fila es encabezado" />
            </Grid>
          )}
          <Grid size={{ xs: 12, md: 3 }}>
            <SwitchFormField control={control} name="layout.amountInCents" label="Importes en centavos" />
          </Grid>
        </Grid>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {format === 'fixed'
            ? 'Posición inicial (desde 1) y longitud de cada campo. Deja vacío lo que el archivo no trae.'
            : 'Número de columna (desde 1) de cada campo. Deja vacío lo que el archivo no trae.'}
        </Typography>
        <Grid container spacing={2}>
          {LAYOUT_FIELDS.map((field) => (
            <Grid key={field} size={{ xs: 12, sm: 6, md: 4 }}>
              {format === 'fixed' ? (
                <Stack direction="row" spacing={1}>
                  <TextFormField control={control} name={`layout.starts.${field}`} label={`${LAYOUT_FIELD_LABELS[field]}: inicio`} />
                  <TextFormField control={control} name={`layout.lengths.${field}`} label="longitud" />
                </Stack>
              ) : (
                <TextFormField control={control} name={`layout.columns.${field}`} label={`${LAYOUT_FIELD_LABELS[field]}: columna`} />
              )}
            </Grid>
          ))}
        </Grid>
        <LayoutTester control={control} />
      </Section>

      {summary}
      <Stack direction="row" spacing={2}>
        <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Guardando…' : props.submitLabel}
        </Button>
        <Button onClick={props.onCancel}>Cancelar</Button>
      </Stack>
    </form>
  );
}
