import { Controller, type Control, type FieldPath, type FieldValues, type UseFormSetError } from 'react-hook-form';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import MenuItem from '@mui/material/MenuItem';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import type { FieldError } from '@portal/contract';
import { ApiError } from '../lib/api';

/**
 * Form fields bound to react-hook-form: each shows its own error (from the shared zod schema in the browser, or
 * from the API's Problem JSON after submit) right under the field, in Spanish.
 */
type BaseProps<Values extends FieldValues, Output = Values> = {
  /** A form whose schema turns its values into another shape (Output) binds the same fields. */
  control: Control<Values, unknown, Output>;
  name: FieldPath<Values>;
  label: string;
};

export function TextFormField<Values extends FieldValues, Output = Values>(
  props: BaseProps<Values, Output> &
    Omit<TextFieldProps, 'name' | 'label' | 'value' | 'onChange' | 'error'> & {
      /** Turns what is typed into the field's value as it is typed (e.g. a key in capitals). */
      normalize?: (value: string) => string;
    },
) {
  const { control, name, label, normalize, ...rest } = props;
  return (
    <Controller
      control={control}
      name={name}
      // The ref goes to the <input>, not the wrapper, so a failed save can focus the field itself.
      render={({ field: { ref, ...field }, fieldState }) => (
        <TextField
          {...rest}
          {...field}
          inputRef={ref}
          value={field.value ?? ''}
          onChange={(event) => field.onChange(normalize ? normalize(event.target.value) : event)}
          label={label}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ?? rest.helperText}
          fullWidth
        />
      )}
    />
  );
}

export function SelectFormField<Values extends FieldValues, Output = Values>(
  props: BaseProps<Values, Output> & {
    options: { value: string; label: string }[];
    disabled?: boolean;
    /** Turns the chosen option back into the field's type (e.g. `Number` for a term). */
    parse?: (value: string) => unknown;
  },
) {
  const { control, name, label, options, disabled, parse } = props;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: { ref, ...field }, fieldState }) => (
        <TextField
          {...field}
          inputRef={ref}
          // A value no option carries (an empty or stale choice) shows as unselected.
          value={options.some((option) => option.value === String(field.value)) ? String(field.value) : ''}
          onChange={(event) => field.onChange(parse ? parse(event.target.value) : event.target.value)}
          select
          label={label}
          disabled={disabled}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message}
          fullWidth
        >
          {options.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

export function SwitchFormField<Values extends FieldValues, Output = Values>(
  props: BaseProps<Values, Output> & {
    /** What turning it on does, said under the switch and read with it. */
    helperText?: string;
  },
) {
  const { control, name, label, helperText } = props;
  const helperId = `${name}-helper`;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <>
          <FormControlLabel
            control={
              <Switch
                checked={Boolean(field.value)}
                onChange={(event) => field.onChange(event.target.checked)}
                slotProps={helperText ? { input: { 'aria-describedby': helperId } } : undefined}
              />
            }
            label={label}
          />
          {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
        </>
      )}
    />
  );
}

/** Puts the API's per-field errors next to their fields; returns the ones no field of the form shows. */
export function applyFieldErrors<Values extends FieldValues>(
  errors: FieldError[] | undefined,
  fields: readonly FieldPath<Values>[],
  setError: UseFormSetError<Values>,
): FieldError[] {
  const unplaced: FieldError[] = [];
  for (const error of errors ?? []) {
    // An error on an item of a list the form holds as one field (`columns.2`, `filters.0.type`) goes to the list.
    const field = fields.find((name) => name === error.field) ?? fields.find((name) => error.field.startsWith(`${name}.`));
    // No focus here: moving it from field to field would blur each, and a form checked on touch would clear the
    // error it just got. The caller focuses the first invalid field once all are placed.
    if (field) setError(field, { type: 'server', message: error.message });
    else unplaced.push(error);
  }
  return unplaced;
}

/**
 * After a failed save: each of the API's field errors goes next to its field; answers what to show above the form
 * (the API's message and the refusals no field here shows, a generic one for anything that is not an API refusal).
 */
export function placeSaveError<Values extends FieldValues>(
  error: unknown,
  fields: readonly FieldPath<Values>[],
  setError: UseFormSetError<Values>,
  fieldOf: (path: string) => string = (path) => path,
): string | null {
  if (!(error instanceof ApiError)) return 'No se pudo guardar. Inténtalo de nuevo.';
  const unplaced = applyFieldErrors(
    error.fieldErrors.map((problem) => ({ ...problem, field: fieldOf(problem.field) })),
    fields,
    setError,
  );
  if (error.fieldErrors.length === 0) return error.message;
  // What no field of the form shows is said above it, each refusal in its own words.
  return unplaced.length > 0 ? [error.message, ...unplaced.map((problem) => problem.message)].join(' ') : null;
}
