import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { assessEligibility, checkCurp, nextDiscountDate } from '@portal/lending';
import { formatMoney } from '../../lib/format';
import { percentToFraction, preRequestInputSchema, type OriginationCatalog, type PreRequestInput } from '@portal/contract';
import type { z } from 'zod';
import { SelectFormField, TextFormField, placeSaveError } from '../../components/form-fields';

type Output = z.output<typeof preRequestInputSchema>;
const FIELDS = ['curp', 'rfc', 'firstNames', 'lastName1', 'lastName2', 'agreementId', 'productId', 'employeeNumber', 'netSalary', 'otherDeductions', 'amount', 'term'] as const;

export const EMPTY_PRE_REQUEST: PreRequestInput = {
  curp: '',
  rfc: '',
  firstNames: '',
  lastName1: '',
  lastName2: '',
  agreementId: '',
  productId: '',
  employeeNumber: '',
  netSalary: '',
  otherDeductions: '0',
  amount: '',
  term: 0,
};


/** The verdict as the browser computes it with packages/lending while the clerk types; the server's is the one kept. */
function LiveVerdict({ values, catalog }: { values: PreRequestInput; catalog: OriginationCatalog }) {
  const verdict = useMemo(() => {
    const agreement = catalog.agreements.find((entry) => entry.id === values.agreementId);
    const product = agreement?.products.find((entry) => entry.id === values.productId);
    const curp = checkCurp((values.curp ?? '').trim().toUpperCase());
    if (!agreement || !product || !curp.ok || !values.term) return null;
    try {
      return {
        curp,
        result: assessEligibility({
          amount: values.amount,
          annualRate: percentToFraction(product.annualRatePct),
          ivaRate: percentToFraction(product.ivaRatePct),
          openingFeeRate: percentToFraction(product.openingFeePct),
          openingFeeFinanced: product.openingFeeFinanced,
          term: Number(values.term),
          frequency: agreement.frequency,
          firstDueDate: nextDiscountDate(agreement.frequency, catalog.today),
          birthDate: curp.birthDate,
          netSalary: values.netSalary,
          otherDeductions: values.otherDeductions || '0',
          maxDeductionRate: percentToFraction(agreement.maxDeductionPct),
          product,
        }),
      };
    } catch {
      return null;
    }
  }, [values, catalog]);

  if (!verdict) {
    return <Alert severity="info">Captura una CURP válida, el convenio, el producto, el plazo, el sueldo y el monto para ver el dictamen.</Alert>;
  }
  const { result, curp } = verdict;
  return (
    <Stack spacing={1} aria-label="Dictamen en vivo">
      <Typography variant="body2" color="text.secondary">
        Nacimiento {curp.birthDate} · sexo {curp.sex === 'H' ? 'hombre' : 'mujer'} · {result.ageAtEnd} años al terminar el plazo ({result.lastDueDate})
      </Typography>
      <Typography>
        Capacidad de pago: <strong>{formatMoney(result.capacity)}</strong> por periodo · Descuento: <strong>{formatMoney(result.quote.schedule.installment)}</strong> · CAT{' '}
        <strong>{result.quote.cat} %</strong> sin IVA
      </Typography>
      <Typography variant="body2">
        Comisión por apertura {formatMoney(result.quote.openingFee)} · monto a dispersar {formatMoney(result.quote.netDisbursement)}
      </Typography>
      {result.approved ? (
        <Alert severity="success">Pre-aprobada</Alert>
      ) : (
        <Alert severity="error">
          Rechazada:
          <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
            {result.reasons.map((reason) => (
              <li key={reason.code}>{reason.message}</li>
            ))}
          </ul>
        </Alert>
      )}
    </Stack>
  );
}

export function PreRequestForm(props: {
  catalog: OriginationCatalog;
  defaultValues: PreRequestInput;
  readOnly?: boolean;
  submitLabel: string;
  onSubmit: (values: Output) => Promise<unknown>;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<PreRequestInput, unknown, Output>({ resolver: zodResolver(preRequestInputSchema), defaultValues: props.defaultValues, mode: 'onTouched' });
  const values = useWatch({ control: form.control }) as PreRequestInput;
  const agreement = props.catalog.agreements.find((entry) => entry.id === values.agreementId);
  const product = agreement?.products.find((entry) => entry.id === values.productId);

  const submit = form.handleSubmit(async (parsed) => {
    setFailure(null);
    try {
      await props.onSubmit(parsed);
    } catch (error) {
      setFailure(placeSaveError(error, FIELDS, form.setError));
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <fieldset disabled={props.readOnly} style={{ border: 0, padding: 0, margin: 0 }}>
        {failure && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {failure}
          </Alert>
        )}
        <Paper sx={{ p: 3, mb: 3 }} component="section" aria-label="Cliente">
          <Typography variant="h2" component="h2" sx={{ mb: 2 }}>
            Cliente
          </Typography>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 4 }}>
              <TextFormField control={form.control} name="curp" label="CURP" required slotProps={{ htmlInput: { style: { textTransform: 'uppercase' } } }} />
            </Grid>
            <Grid size={{ xs: 12, md: 4 }}>
              <TextFormField control={form.control} name="rfc" label="RFC (opcional)" />
            </Grid>
            <Grid size={{ xs: 12, md: 4 }}>
              <TextFormField control={form.control} name="employeeNumber" label="Número de empleado" required />
            </Grid>
            <Grid size={{ xs: 12, md: 4 }}>
              <TextFormField control={form.control} name="firstNames" label="Nombre(s)" required />
            </Grid>
            <Grid size={{ xs: 12, md: 4 }}>
              <TextFormField control={form.control} name="lastName1" label="Primer apellido" required />
            </Grid>
            <Grid size={{ xs: 12, md: 4 }}>
              <TextFormField control={form.control} name="lastName2" label="Segundo apellido" />
            </Grid>
          </Grid>
        </Paper>
        <Paper sx={{ p: 3, mb: 3 }} component="section" aria-label="Crédito solicitado">
          <Typography variant="h2" component="h2" sx={{ mb: 2 }}>
            Crédito solicitado
          </Typography>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 6 }}>
              <SelectFormField
                control={form.control}
                name="agreementId"
                label="Convenio"
                options={props.catalog.agreements.map((entry) => ({ value: entry.id, label: `${entry.code} · ${entry.name}` }))}
              />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <SelectFormField
                control={form.control}
                name="productId"
                label="Producto"
                disabled={!agreement}
                options={(agreement?.products ?? []).map((entry) => ({ value: entry.id, label: `${entry.name} (${entry.annualRatePct} % anual)` }))}
              />
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <TextFormField control={form.control} name="netSalary" label="Sueldo neto por periodo" required />
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <TextFormField control={form.control} name="otherDeductions" label="Otros descuentos por periodo" />
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <TextFormField
                control={form.control}
                name="amount"
                label="Monto solicitado"
                required
                helperText={product ? `De ${formatMoney(product.minAmount)} a ${formatMoney(product.maxAmount)}` : undefined}
              />
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <SelectFormField
                control={form.control}
                name="term"
                label="Plazo"
                disabled={!product}
                options={(product?.terms ?? []).map((term) => ({ value: String(term), label: `${term} pagos` }))}
                parse={Number}
              />
            </Grid>
          </Grid>
        </Paper>
        <Paper sx={{ p: 3, mb: 3 }} component="section" aria-label="Dictamen">
          <Typography variant="h2" component="h2" sx={{ mb: 2 }}>
            Dictamen
          </Typography>
          <LiveVerdict values={values} catalog={props.catalog} />
        </Paper>
        {!props.readOnly && (
          <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? 'Guardando…' : props.submitLabel}
          </Button>
        )}
      </fieldset>
    </form>
  );
}
