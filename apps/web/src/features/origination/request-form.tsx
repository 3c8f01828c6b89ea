import { useEffect, useState } from 'react';
import { useController, useWatch, type Control } from 'react-hook-form';
import { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import { checkClabe, checkCurp } from '@portal/lending';
import {
  DOCUMENT_KINDS,
  DOCUMENT_LABELS,
  MEXICAN_STATES,
  preRequestInputOf,
  requestInputSchema,
  type DocumentKind,
  type OriginationCatalog,
  type PreRequest,
  type Request as LoanRequest,
} from '@portal/contract';
import { SelectFormField, TextFormField } from '../../components/form-fields';
import { formValues, useSchemaForm } from '../../components/schema-form';
import { Section } from '../../components/section';
import { formatBytes, formatDate, formatMoney, todayInMexico } from '../../lib/format';
import { DOCUMENT_ACCEPT, documentProblem } from './documents';
import { LiveVerdict, chosenLoan } from './live-verdict';
import { freedOtherDeductions } from './renewal-capacity';
import { RenewalSection } from './renewal-section';
import { useRenewableCredits } from './origination.queries';
import { EMPTY_PRE_REQUEST } from './pre-request-form';

// A picked file is checked (type, size) as it is chosen and refused there, so the form only ever holds acceptable ones.
const documentField = z.instanceof(File).nullable();

/**
 * The shared request schema plus what the browser checks while the clerk types: the CURP's and the CLABE's check
 * digits (packages/lending, the same rules the API applies), and the documents chosen.
 */
const requestFormSchema = requestInputSchema.extend({
  curp: requestInputSchema.shape.curp.superRefine((curp, context) => {
    const check = curp.length === 18 ? checkCurp(curp, todayInMexico()) : null;
    if (check && !check.ok) context.addIssue({ code: 'custom', message: check.message });
  }),
  // An empty select is '' until a state is chosen; the shared enum then says "Elige el estado."
  state: z.string().pipe(requestInputSchema.shape.state),
  clabe: requestInputSchema.shape.clabe.superRefine((clabe, context) => {
    const check = /^\d{18}$/.test(clabe) ? checkClabe(clabe) : null;
    if (check && !check.ok) context.addIssue({ code: 'custom', message: check.message });
  }),
  documents: z.object({ ine: documentField, comprobante: documentField, recibo: documentField }),
});
type RequestFormInput = z.input<typeof requestFormSchema>;
type RequestFormOutput = z.output<typeof requestFormSchema>;
/** What the API takes: the capture without the files, which travel as their own multipart fields. */
type RequestFormData = Omit<RequestFormOutput, 'documents'>;
type DocumentFiles = RequestFormOutput['documents'];

const EMPTY_REFERENCE = { name: '', relationship: '', phone: '' };

/** The form's one list of fields, with their empty values: what the API's field errors are matched against. */
export const EMPTY_REQUEST: RequestFormInput = {
  ...EMPTY_PRE_REQUEST,
  street: '',
  exteriorNumber: '',
  interiorNumber: '',
  neighborhood: '',
  municipality: '',
  state: '',
  postalCode: '',
  phone: '',
  email: '',
  references: [EMPTY_REFERENCE, EMPTY_REFERENCE],
  clabe: '',
  renews: [],
  documents: { ine: null, comprobante: null, recibo: null },
};

/** The fields a request stores as they are (references and documents have their own shape). */
const { references: _references, documents: _documents, ...EMPTY_STORED } = EMPTY_REQUEST;

/** A saved request back in the form, to edit it while it is capturada. */
export function fromRequest(request: LoanRequest): RequestFormInput {
  return {
    ...formValues(EMPTY_STORED, request),
    references: [request.references[0] ?? EMPTY_REFERENCE, request.references[1] ?? EMPTY_REFERENCE],
    documents: { ine: null, comprobante: null, recibo: null },
  };
}

/** Under the CLABE while it is typed: the bank it belongs to, or why it is not valid. */
function clabeHint(value: string): string {
  const digits = value.trim();
  if (digits.length < 18) return `${digits.length} de 18 dígitos.`;
  const check = checkClabe(digits);
  return check.ok ? `Banco: ${check.bank.name}` : check.message;
}

function DocumentPicker({
  control,
  kind,
  onChoose,
}: {
  control: Control<RequestFormInput>;
  kind: DocumentKind;
  onChoose: (file: File | null) => void;
}) {
  const { field, fieldState } = useController({ control, name: `documents.${kind}` });
  const file = field.value as File | null;
  return (
    <Stack spacing={1} role="group" aria-label={DOCUMENT_LABELS[kind]}>
      <Typography sx={{ fontWeight: 600 }}>{DOCUMENT_LABELS[kind]}</Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Button component="label" variant="outlined" startIcon={<UploadFileOutlined />}>
          {file ? 'Cambiar archivo' : 'Elegir archivo'}
          <input
            hidden
            type="file"
            accept={DOCUMENT_ACCEPT}
            aria-label={`Archivo: ${DOCUMENT_LABELS[kind]}`}
            onChange={(event) => {
              const picked = event.target.files?.[0];
              event.target.value = '';
              if (picked) onChoose(picked);
            }}
          />
        </Button>
        {file && <Button onClick={() => onChoose(null)}>Quitar</Button>}
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {file ? `${file.name} · ${formatBytes(file.size)}` : 'Sin archivo'}
      </Typography>
      {fieldState.error && <FormHelperText error>{fieldState.error.message}</FormHelperText>}
    </Stack>
  );
}

function ReferenceFields({ control, index }: { control: Control<RequestFormInput>; index: 0 | 1 }) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mb: 2, minWidth: 0 }}>
      <Typography component="legend" sx={{ fontWeight: 600, mb: 1 }}>
        Referencia {index + 1}
      </Typography>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 5 }}>
          <TextFormField control={control} name={`references.${index}.name`} label="Nombre completo" required />
        </Grid>
        <Grid size={{ xs: 12, md: 3 }}>
          <TextFormField control={control} name={`references.${index}.relationship`} label="Parentesco o relación" required />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextFormField control={control} name={`references.${index}.phone`} label="Teléfono de la referencia" required />
        </Grid>
      </Grid>
    </Box>
  );
}

/**
 * The full request: the pre-request's client and loan data (with the same live verdict), address, contact, two
 * references, the CLABE to disburse to and, when it is captured, its three documents.
 */
export function RequestForm(props: {
  catalog: OriginationCatalog;
  defaultValues: RequestFormInput;
  /** A sent pre-request chosen to convert: fills in the client and loan fields and keeps the rest. */
  prefill?: PreRequest;
  /** Capture only: once saved, documents are uploaded and replaced from the request's detail. */
  withDocuments: boolean;
  submitLabel: string;
  onSubmit: (input: RequestFormData, documents: DocumentFiles, onProgress: (fraction: number) => void) => Promise<unknown>;
}) {
  const [progress, setProgress] = useState<number | null>(null);
  const { form, formProps, dialog, summary } = useSchemaForm(requestFormSchema, {
    defaultValues: props.defaultValues,
    onSubmit: async ({ documents, ...input }) => {
      setProgress(props.withDocuments ? 0 : null);
      try {
        await props.onSubmit(input, documents, setProgress);
      } finally {
        setProgress(null);
      }
    },
  });
  const { control, reset, getValues, setValue, setError } = form;
  const values = useWatch({ control }) as RequestFormInput;
  const { product, options } = chosenLoan(props.catalog, values.agreementId, values.productId);
  const curp = checkCurp((values.curp ?? '').trim().toUpperCase(), props.catalog.today);
  const missing = DOCUMENT_KINDS.filter((kind) => !values.documents?.[kind]);
  const renewable = useRenewableCredits(curp.ok ? (values.curp ?? '').trim().toUpperCase() : '');

  const { prefill } = props;
  useEffect(() => {
    if (prefill) reset({ ...getValues(), ...preRequestInputOf(prefill) });
  }, [prefill, reset, getValues]);

  /** A file of another type or over the size limit is refused with its reason; the previous choice stays. */
  const chooseDocument = (kind: DocumentKind, file: File | null) => {
    const problem = file && documentProblem(kind, file);
    if (problem) setError(`documents.${kind}`, { type: 'file', message: problem });
    else setValue(`documents.${kind}`, file, { shouldValidate: true, shouldDirty: true });
  };

  return (
    <form {...formProps}>
      {dialog}
      <Section title="Cliente">
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 4 }}>
            <TextFormField
              control={control}
              name="curp"
              label="CURP"
              required
              slotProps={{ htmlInput: { style: { textTransform: 'uppercase' } } }}
            />
          </Grid>
          <Grid size={{ xs: 6, md: 4 }}>
            <TextField
              label="Fecha de nacimiento"
              value={curp.ok ? formatDate(curp.birthDate) : ''}
              helperText="Se toma de la clave de población"
              slotProps={{ input: { readOnly: true } }}
              fullWidth
            />
          </Grid>
          <Grid size={{ xs: 6, md: 4 }}>
            <TextField
              label="Sexo"
              value={curp.ok ? (curp.sex === 'H' ? 'Hombre' : 'Mujer') : ''}
              slotProps={{ input: { readOnly: true } }}
              fullWidth
            />
          </Grid>
          <Grid size={{ xs: 12, md: 3 }}>
            <TextFormField control={control} name="rfc" label="RFC (opcional)" />
          </Grid>
          <Grid size={{ xs: 12, md: 3 }}>
            <TextFormField control={control} name="firstNames" label="Nombre(s)" required />
          </Grid>
          <Grid size={{ xs: 12, md: 3 }}>
            <TextFormField control={control} name="lastName1" label="Primer apellido" required />
          </Grid>
          <Grid size={{ xs: 12, md: 3 }}>
            <TextFormField control={control} name="lastName2" label="Segundo apellido" />
          </Grid>
        </Grid>
      </Section>
      <Section title="Empleo y crédito">
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 5 }}>
            <SelectFormField control={control} name="agreementId" label="Convenio" options={options.agreements} />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <SelectFormField
              control={control}
              name="productId"
              label="Producto"
              disabled={options.products.length === 0}
              options={options.products}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 3 }}>
            <TextFormField control={control} name="employeeNumber" label="Número de empleado" required />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <TextFormField control={control} name="netSalary" label="Sueldo neto por periodo" required />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <TextFormField control={control} name="otherDeductions" label="Otros descuentos por periodo" />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <TextFormField
              control={control}
              name="amount"
              label="Monto solicitado"
              required
              helperText={product ? `De ${formatMoney(product.minAmount)} a ${formatMoney(product.maxAmount)}` : undefined}
            />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <SelectFormField control={control} name="term" label="Plazo" disabled={!product} options={options.terms} parse={Number} />
          </Grid>
        </Grid>
      </Section>
      <Section title="Dictamen">
        <LiveVerdict
          values={{ ...values, otherDeductions: freedOtherDeductions(values.otherDeductions ?? '', values.renews ?? [], renewable.data) }}
          catalog={props.catalog}
        />
        <RenewalSection
          control={control}
          catalog={props.catalog}
          curp={curp.ok ? (values.curp ?? '').trim().toUpperCase() : ''}
          amount={values.amount ?? ''}
          productId={values.productId}
          agreementId={values.agreementId}
        />
      </Section>
      <Section title="Domicilio">
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 6 }}>
            <TextFormField control={control} name="street" label="Calle" required />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <TextFormField control={control} name="exteriorNumber" label="Número exterior" required />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <TextFormField control={control} name="interiorNumber" label="Número interior (opcional)" />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <TextFormField control={control} name="neighborhood" label="Colonia" required />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <TextFormField control={control} name="municipality" label="Municipio o alcaldía" required />
          </Grid>
          <Grid size={{ xs: 8, md: 2 }}>
            <SelectFormField
              control={control}
              name="state"
              label="Estado"
              options={MEXICAN_STATES.map((state) => ({ value: state, label: state }))}
            />
          </Grid>
          <Grid size={{ xs: 4, md: 2 }}>
            <TextFormField control={control} name="postalCode" label="Código postal" required />
          </Grid>
        </Grid>
      </Section>
      <Section title="Contacto">
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 4 }}>
            <TextFormField control={control} name="phone" label="Teléfono" required helperText="10 dígitos" />
          </Grid>
          <Grid size={{ xs: 12, md: 8 }}>
            <TextFormField control={control} name="email" label="Correo electrónico" required type="email" />
          </Grid>
        </Grid>
      </Section>
      <Section title="Referencias">
        <ReferenceFields control={control} index={0} />
        <ReferenceFields control={control} index={1} />
      </Section>
      <Section title="Dispersión">
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 6 }}>
            <TextFormField
              control={control}
              name="clabe"
              label="CLABE"
              required
              helperText={clabeHint(values.clabe ?? '')}
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 18 } }}
            />
          </Grid>
        </Grid>
      </Section>
      {props.withDocuments && (
        <Section title="Documentos">
          <Grid container spacing={3}>
            {DOCUMENT_KINDS.map((kind) => (
              <Grid key={kind} size={{ xs: 12, md: 4 }}>
                <DocumentPicker control={control} kind={kind} onChoose={(file) => chooseDocument(kind, file)} />
              </Grid>
            ))}
          </Grid>
          {missing.length > 0 && (
            <Alert severity="warning" sx={{ mt: 2 }}>
              {missing.length === 1 ? 'Falta' : 'Faltan'}: {missing.map((kind) => DOCUMENT_LABELS[kind]).join(', ')}. Puedes guardar la
              solicitud sin documentos, pero para enviarla a validación se necesitan los tres.
            </Alert>
          )}
        </Section>
      )}
      {/* Next to the button: a long form's refusal (e.g. the eligibility verdict's 409) is read where the clerk clicked. */}
      {summary}
      {progress !== null && (
        <Box sx={{ mb: 2 }}>
          <LinearProgress variant="determinate" value={Math.round(progress * 100)} aria-label="Progreso de la carga" />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            Subiendo la solicitud… {Math.round(progress * 100)} %
          </Typography>
        </Box>
      )}
      <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? 'Guardando…' : props.submitLabel}
      </Button>
    </form>
  );
}
