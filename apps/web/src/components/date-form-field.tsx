import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { DateField } from './date-field';

/** A DateField bound to react-hook-form, its error under it like every other form field. */
export function DateFormField<Values extends FieldValues, Output = Values>(props: {
  control: Control<Values, unknown, Output>;
  name: FieldPath<Values>;
  label: string;
  helperText?: string;
}) {
  return (
    <Controller
      control={props.control}
      name={props.name}
      render={({ field, fieldState }) => (
        <DateField
          label={props.label}
          value={(field.value as string | null) ?? ''}
          onChange={field.onChange}
          inputRef={field.ref}
          error={fieldState.error?.message}
          helperText={props.helperText}
          fullWidth
        />
      )}
    />
  );
}
