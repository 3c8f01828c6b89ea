import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import Close from '@mui/icons-material/Close';
import Add from '@mui/icons-material/Add';
import { Controller, type FieldError, type FieldErrors } from 'react-hook-form';
import type { z } from 'zod';
import {
  REPORT_DATASETS,
  REPORT_FILTER_TYPE_LABELS,
  REPORT_FORMATS,
  fieldFilterTypes,
  reportDataset,
  reportDefinitionInputSchema,
  type ReportDefinitionInput,
  type ReportField,
  type ReportFilter,
} from '@portal/contract';
import { SelectFormField, TextFormField } from '../../components/form-fields';
import { Section } from '../../components/section';
import { useSchemaForm } from '../../components/schema-form';

type Output = z.output<typeof reportDefinitionInputSchema>;

export const EMPTY_DEFINITION: ReportDefinitionInput = {
  name: '',
  description: '',
  dataset: 'cartera-al-dia',
  columns: [],
  filters: [],
  sort: null,
  format: 'xlsx',
  profileIds: [],
};

const fieldsOf = (dataset: string): readonly ReportField[] => reportDataset(dataset)?.fields ?? [];

/** The messages of an array field: its own and each item's (e.g. "Elige al menos una columna", "columna repetida"). */
function arrayMessages(error: unknown): string[] {
  if (!error || typeof error !== 'object') return [];
  const own = (error as FieldError).message ? [(error as FieldError).message!] : [];
  const root = (error as { root?: FieldError }).root?.message;
  const items = Object.entries(error as Record<string, unknown>)
    .filter(([key]) => /^\d+$/.test(key))
    .flatMap(([, item]) => {
      if (!item || typeof item !== 'object') return [];
      if ((item as FieldError).message) return [(item as FieldError).message!];
      return Object.values(item as FieldErrors).flatMap((inner) =>
        (inner as FieldError | undefined)?.message ? [(inner as FieldError).message!] : [],
      );
    });
  return [...own, ...(root ? [root] : []), ...items];
}

/**
 * The report definition form of "Nuevo Reporte Operativo" and the edit screen: a dataset of the catalogue, its
 * columns chosen and ordered, the filters asked at run time, the sort, the format and who may run it. The contract's
 * schema checks it here and again in the API.
 */
export function ReportForm(props: {
  defaultValues: ReportDefinitionInput;
  profiles: { id: string; name: string }[];
  submitLabel: string;
  onSubmit: (values: Output) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const { form, formProps, dialog, summary } = useSchemaForm(reportDefinitionInputSchema, {
    defaultValues: props.defaultValues,
    onSubmit: props.onSubmit,
  });
  const dataset = form.watch('dataset');
  const fields = fieldsOf(dataset);
  const labelOf = (key: string) => fields.find((field) => field.key === key)?.label ?? key;

  return (
    <form {...formProps} aria-label="Definición del reporte">
      {dialog}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <TextFormField control={form.control} name="name" label="Nombre del reporte" required />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Controller
            control={form.control}
            name="dataset"
            render={({ field: { ref, ...field }, fieldState }) => (
              <TextField
                {...field}
                inputRef={ref}
                select
                fullWidth
                label="Conjunto de datos"
                error={Boolean(fieldState.error)}
                helperText={fieldState.error?.message ?? reportDataset(field.value)?.description}
                onChange={(event) => {
                  // Another dataset has other fields: what was chosen of the previous one no longer applies.
                  field.onChange(event.target.value);
                  form.setValue('columns', [], { shouldDirty: true });
                  form.setValue('filters', [], { shouldDirty: true });
                  form.setValue('sort', null, { shouldDirty: true });
                }}
              >
                {REPORT_DATASETS.map((option) => (
                  <MenuItem key={option.key} value={option.key}>
                    {option.label}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Grid>
        <Grid size={12}>
          <TextFormField control={form.control} name="description" label="Descripción" multiline minRows={2} />
        </Grid>
      </Grid>

      <Section title="Columnas">
        <Controller
          control={form.control}
          name="columns"
          render={({ field, fieldState }) => {
            const chosen = field.value ?? [];
            const move = (index: number, by: number) => {
              const next = [...chosen];
              const [item] = next.splice(index, 1);
              next.splice(index + by, 0, item!);
              field.onChange(next);
            };
            const messages = arrayMessages(fieldState.error);
            return (
              <Grid container spacing={2}>
                <Grid size={{ xs: 12, md: 6 }}>
                  <Paper variant="outlined">
                    <Typography variant="subtitle2" sx={{ px: 2, pt: 1 }} id="chosen-columns">
                      Columnas del reporte, en orden ({chosen.length})
                    </Typography>
                    <List dense aria-labelledby="chosen-columns">
                      {chosen.length === 0 && (
                        <ListItem>
                          <ListItemText secondary="Agrega columnas de la lista de campos disponibles." />
                        </ListItem>
                      )}
                      {chosen.map((key, index) => (
                        <ListItem
                          key={key}
                          secondaryAction={
                            <Stack direction="row">
                              <IconButton
                                size="small"
                                aria-label={`Subir ${labelOf(key)}`}
                                disabled={index === 0}
                                onClick={() => move(index, -1)}
                              >
                                <ArrowUpward fontSize="small" />
                              </IconButton>
                              <IconButton
                                size="small"
                                aria-label={`Bajar ${labelOf(key)}`}
                                disabled={index === chosen.length - 1}
                                onClick={() => move(index, 1)}
                              >
                                <ArrowDownward fontSize="small" />
                              </IconButton>
                              <IconButton
                                size="small"
                                aria-label={`Quitar ${labelOf(key)}`}
                                onClick={() => field.onChange(chosen.filter((other) => other !== key))}
                              >
                                <Close fontSize="small" />
                              </IconButton>
                            </Stack>
                          }
                        >
                          <ListItemText primary={`${index + 1}. ${labelOf(key)}`} />
                        </ListItem>
                      ))}
                    </List>
                  </Paper>
                </Grid>
                <Grid size={{ xs: 12, md: 6 }}>
                  <Paper variant="outlined">
                    <Typography variant="subtitle2" sx={{ px: 2, pt: 1 }} id="available-columns">
                      Campos disponibles
                    </Typography>
                    <List dense aria-labelledby="available-columns">
                      {fields
                        .filter((candidate) => !chosen.includes(candidate.key))
                        .map((candidate) => (
                          // The whole row adds the field (its name, its type, the "+"), not only the small icon.
                          <ListItem key={candidate.key} disablePadding>
                            <ListItemButton
                              dense
                              aria-label={`Agregar ${candidate.label}`}
                              onClick={() => field.onChange([...chosen, candidate.key])}
                            >
                              <ListItemText primary={candidate.label} secondary={TYPE_LABELS[candidate.type]} />
                              <Add fontSize="small" color="action" aria-hidden="true" />
                            </ListItemButton>
                          </ListItem>
                        ))}
                    </List>
                  </Paper>
                </Grid>
                {messages.length > 0 && (
                  <Grid size={12}>
                    {messages.map((message) => (
                      <FormHelperText key={message} error>
                        {message}
                      </FormHelperText>
                    ))}
                  </Grid>
                )}
              </Grid>
            );
          }}
        />
      </Section>

      <Section title="Filtros que se piden al ejecutar">
        <Controller
          control={form.control}
          name="filters"
          render={({ field, fieldState }) => {
            const chosen: ReportFilter[] = field.value ?? [];
            const filterable = fields.flatMap((candidate) => fieldFilterTypes(candidate).map((type) => ({ field: candidate, type })));
            return (
              <FormGroup>
                {filterable.map(({ field: candidate, type }) => {
                  const checked = chosen.some((filter) => filter.field === candidate.key && filter.type === type);
                  return (
                    <FormControlLabel
                      key={`${candidate.key}:${type}`}
                      control={
                        <Checkbox
                          checked={checked}
                          onChange={(event) =>
                            field.onChange(
                              event.target.checked
                                ? [...chosen, { field: candidate.key, type }]
                                : chosen.filter((filter) => filter.field !== candidate.key),
                            )
                          }
                        />
                      }
                      label={
                        type === 'dateRange'
                          ? `${candidate.label} (rango de fechas)`
                          : `${REPORT_FILTER_TYPE_LABELS[type]}${candidate.label !== REPORT_FILTER_TYPE_LABELS[type] ? ` (${candidate.label})` : ''}`
                      }
                    />
                  );
                })}
                {arrayMessages(fieldState.error).map((message) => (
                  <FormHelperText key={message} error>
                    {message}
                  </FormHelperText>
                ))}
              </FormGroup>
            );
          }}
        />
      </Section>

      <Section title="Orden y formato">
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 4 }}>
            <Controller
              control={form.control}
              name="sort"
              render={({ field: { ref, ...field } }) => (
                <TextField
                  inputRef={ref}
                  select
                  fullWidth
                  label="Ordenar por"
                  value={field.value?.field ?? ''}
                  onChange={(event) =>
                    field.onChange(event.target.value ? { field: event.target.value, direction: field.value?.direction ?? 'asc' } : null)
                  }
                >
                  <MenuItem value="">Sin orden (el del conjunto de datos)</MenuItem>
                  {fields.map((candidate) => (
                    <MenuItem key={candidate.key} value={candidate.key}>
                      {candidate.label}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <Controller
              control={form.control}
              name="sort"
              render={({ field }) => (
                <TextField
                  select
                  fullWidth
                  label="Dirección"
                  disabled={!field.value}
                  value={field.value?.direction ?? 'asc'}
                  onChange={(event) => field.value && field.onChange({ ...field.value, direction: event.target.value })}
                >
                  <MenuItem value="asc">Ascendente</MenuItem>
                  <MenuItem value="desc">Descendente</MenuItem>
                </TextField>
              )}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <SelectFormField
              control={form.control}
              name="format"
              label="Formato"
              options={REPORT_FORMATS.map((format) => ({ value: format, label: format === 'xlsx' ? 'Excel (xlsx)' : 'CSV (UTF-8)' }))}
            />
          </Grid>
        </Grid>
      </Section>

      <Section title="Perfiles que pueden ejecutarlo">
        <Controller
          control={form.control}
          name="profileIds"
          render={({ field, fieldState }) => {
            const chosen: string[] = field.value ?? [];
            return (
              <FormGroup row>
                {props.profiles.map((profile) => (
                  <FormControlLabel
                    key={profile.id}
                    control={
                      <Checkbox
                        checked={chosen.includes(profile.id)}
                        onChange={(event) =>
                          field.onChange(event.target.checked ? [...chosen, profile.id] : chosen.filter((id) => id !== profile.id))
                        }
                      />
                    }
                    label={profile.name}
                  />
                ))}
                {arrayMessages(fieldState.error).map((message) => (
                  <FormHelperText key={message} error sx={{ width: '100%' }}>
                    {message}
                  </FormHelperText>
                ))}
              </FormGroup>
            );
          }}
        />
      </Section>

      <Stack sx={{ mt: 3 }}>{summary}</Stack>
      <Stack direction="row" spacing={2}>
        <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Guardando…' : props.submitLabel}
        </Button>
        {props.onCancel && <Button onClick={props.onCancel}>Cancelar</Button>}
      </Stack>
    </form>
  );
}

const TYPE_LABELS: Record<ReportField['type'], string> = { money: 'Importe', date: 'Fecha', text: 'Texto', integer: 'Número' };
