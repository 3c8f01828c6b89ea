import { lazy, Suspense } from 'react';
import { useWatch } from 'react-hook-form';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import { preRequestInputSchema, type OriginationCatalog, type PreRequestInput } from '@portal/contract';
import type { z } from 'zod';
import { SelectFormField, TextFormField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/schema-form';
import { Section } from '../../components/section';
import { formatMoney } from '../../lib/format';
import { checkCurp } from '@portal/lending';
import { LiveVerdict, chosenLoan } from './live-verdict';
import { freedOtherDeductions } from './renewal-capacity';
import { useRenewableCredits } from './origination.queries';

type Output = z.output<typeof preRequestInputSchema>;

// The renewal section (its verdict's code) loads only for a client with credits to renew: the screen opened cold stays
// within decision 0027's budget (it was at 339.9 of 340 kB before renewals).
const RenewalSection = lazy(() => import('./renewal-section').then((module) => ({ default: module.RenewalSection<PreRequestInput> })));
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
  renews: [],
};

export function PreRequestForm(props: {
  catalog: OriginationCatalog;
  defaultValues: PreRequestInput;
  readOnly?: boolean;
  submitLabel: string;
  onSubmit: (values: Output) => Promise<unknown>;
}) {
  const { form, formProps, dialog, summary } = useSchemaForm(preRequestInputSchema, {
    defaultValues: props.defaultValues,
    onSubmit: props.onSubmit,
    readOnly: props.readOnly,
  });
  const values = useWatch({ control: form.control }) as PreRequestInput;
  const { agreement, product, options } = chosenLoan(props.catalog, values.agreementId, values.productId);
  // Renovación as in Solicitudes: the client's active credits to pay off, their installments freed for the capacity.
  const curp = (values.curp ?? '').trim().toUpperCase();
  const validCurp = checkCurp(curp, props.catalog.today).ok ? curp : '';
  const renewable = useRenewableCredits(validCurp);

  return (
    <form {...formProps}>
      {dialog}
      <fieldset disabled={props.readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Section title="Cliente">
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 4 }}>
              <TextFormField
                control={form.control}
                name="curp"
                label="CURP"
                required
                slotProps={{ htmlInput: { style: { textTransform: 'uppercase' } } }}
              />
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
        </Section>
        <Section title="Crédito solicitado">
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 6 }}>
              <SelectFormField control={form.control} name="agreementId" label="Convenio" options={options.agreements} />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <SelectFormField control={form.control} name="productId" label="Producto" disabled={!agreement} options={options.products} />
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
                options={options.terms}
                parse={Number}
              />
            </Grid>
          </Grid>
        </Section>
        <Section title="Dictamen">
          <LiveVerdict
            values={{ ...values, otherDeductions: freedOtherDeductions(values.otherDeductions ?? '', values.renews ?? [], renewable.data) }}
            catalog={props.catalog}
          />
          {(renewable.data?.credits.length ?? 0) > 0 && (
            <Suspense fallback={null}>
              <RenewalSection
                control={form.control}
                catalog={props.catalog}
                curp={validCurp}
                amount={values.amount ?? ''}
                productId={values.productId}
                agreementId={values.agreementId}
              />
            </Suspense>
          )}
        </Section>
        {!props.readOnly && summary}
        {!props.readOnly && (
          <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? 'Guardando…' : props.submitLabel}
          </Button>
        )}
      </fieldset>
    </form>
  );
}
