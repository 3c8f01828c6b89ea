import { useCallback, useRef } from 'react';
import type { FieldErrors, FieldValues } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';

/** What a failed save marks on screen: an invalid text field, select or date picker, in screen order. */
const INVALID = '[aria-invalid="true"], .Mui-error [role="combobox"], .Mui-error [role="spinbutton"]';

/**
 * After a failed save on a long form: scrolls to the first field marked invalid (in the order the clerk reads, not
 * the order fields were registered) and puts the keyboard focus there. Runs after React has drawn the errors.
 */
export function useFocusFirstInvalid() {
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstInvalid = useCallback(() => {
    // The errors are drawn on React's next commit: look for them for a moment rather than guess when it lands.
    let tries = 0;
    const attempt = () => {
      // The form may be gone by then (the clerk left, a test ended): nothing to focus, and no more tries.
      const form = formRef.current;
      if (!form) return;
      const field = form.querySelector<HTMLElement>(INVALID);
      if (!field) {
        if (++tries < 20) setTimeout(attempt, 25);
        return;
      }
      field.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
      field.focus({ preventScroll: true });
    };
    setTimeout(attempt, 0);
  }, []);
  return { formRef, focusFirstInvalid };
}

/** Every message of a react-hook-form error tree (nested objects and arrays included), in declaration order. */
export function errorMessages(errors: FieldErrors<FieldValues>): string[] {
  const messages: string[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const entry = node as { message?: unknown; ref?: unknown };
    if (typeof entry.message === 'string' && entry.message !== '') {
      messages.push(entry.message);
      return;
    }
    for (const [key, child] of Object.entries(node)) if (key !== 'ref' && key !== 'root') walk(child);
  };
  walk(errors);
  return [...new Set(messages)];
}

/**
 * The summary of a failed save, beside the button the clerk pressed: how many fields to fix (each shows its own
 * message under it, and the first one has the focus), plus the API's refusal when it names no field. Announced to
 * screen readers as it appears.
 */
export function ErrorSummary({
  errors,
  submitCount,
  failure,
}: {
  errors: FieldErrors<FieldValues>;
  submitCount: number;
  failure?: string | null;
}) {
  const count = submitCount > 0 ? errorMessages(errors).length : 0;
  if (count === 0 && !failure) return null;
  return (
    <Alert severity="error" role="alert" sx={{ mb: 2 }}>
      <AlertTitle>
        {count === 0
          ? 'No se pudo guardar'
          : count === 1
            ? 'No se guardó: revisa el campo marcado'
            : `No se guardó: revisa los ${count} campos marcados`}
      </AlertTitle>
      {count > 0 && 'Te llevamos al primero; cada uno dice qué le falta. '}
      {failure}
    </Alert>
  );
}
