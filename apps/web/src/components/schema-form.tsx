import { useState, type FormEvent } from 'react';
import { useForm, type FieldPath, type FieldValues } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { ErrorSummary, useFocusFirstInvalid } from './form-feedback';
import { placeSaveError } from './form-fields';
import { useUnsavedChanges } from './unsaved-changes';

/** A list of plain values (permission paths, dates) is one field: one input holds all of it. */
const isPlainList = (value: unknown) => Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object');

/**
 * Every field path of a form's values, read from its empty (or default) values: `email`, `references.0.name`,
 * `documents.ine`, `permissions` (a list of plain values). The values are the one list of a form's fields; the API's
 * field errors are matched against it.
 */
export function fieldPaths(values: object, prefix = ''): string[] {
  return Object.entries(values).flatMap(([key, value]) => {
    const path = `${prefix}${key}`;
    const nested =
      value !== null && typeof value === 'object' && !(value instanceof Blob) && !(value instanceof Date) && !isPlainList(value);
    return nested ? fieldPaths(value as object, `${path}.`) : [path];
  });
}

/** A form's values (the keys of `template`, its empty values) read from a stored record that holds each of them. */
export function formValues<Values extends object>(template: Values, source: { [Key in keyof Values]: Values[Key] }): Values {
  return Object.fromEntries(Object.keys(template).map((key) => [key, source[key as keyof Values]])) as Values;
}

/**
 * The one form pattern: react-hook-form checked by the contract's zod schema (on touch, then on submit), the API's
 * Problem JSON field errors placed on their fields, the keyboard focus on the first invalid field with a summary
 * beside the button, and the unsaved-changes question before leaving. `onSubmit` gets the schema's output; a
 * refusal it throws is shown, and the form keeps guarding.
 *
 * Render: `<form {...formProps}>{dialog}…fields (control = form.control)…{summary}<button/></form>`.
 */
export function useSchemaForm<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
  options: {
    defaultValues: Input;
    onSubmit: (values: Output) => Promise<unknown>;
    /** A read-only form has nothing to lose: leaving does not ask. */
    readOnly?: boolean;
    /**
     * Where a refusal of the contract's input shows in a form whose values are a model of it (the agreement form:
     * `layout.positions.amount.start` → `layout.starts.amount`); the API's field errors pass through it too.
     */
    fieldOf?: (path: string) => string;
  },
) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues: options.defaultValues as never,
    mode: 'onTouched',
    shouldFocusError: false,
  });
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const guard = useUnsavedChanges(form.formState.isDirty && !options.readOnly);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    guard.allowLeaving();
    try {
      await options.onSubmit(values);
    } catch (error) {
      guard.keepGuarding();
      // The fields as they are now: a row added to a list since the form opened is a field too.
      const fields = fieldPaths(form.getValues()) as FieldPath<Input>[];
      setFailure(placeSaveError(error, fields, form.setError, options.fieldOf));
      focusFirstInvalid();
    }
  }, focusFirstInvalid);

  return {
    form,
    formProps: { ref: formRef, onSubmit: (event: FormEvent<HTMLFormElement>) => void submit(event), noValidate: true },
    /** The "¿Salir sin guardar?" question: render it inside the form. */
    dialog: guard.dialog,
    /** What a failed save says, beside the button the clerk pressed. */
    summary: <ErrorSummary errors={form.formState.errors} submitCount={form.formState.submitCount} failure={failure} />,
  };
}
