import type { ReactNode, Ref } from 'react';
import dayjs from 'dayjs';
import 'dayjs/locale/es-mx';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { esES } from '@mui/x-date-pickers/locales';
import { DATE_INPUT_FORMAT } from '../lib/format';

/** MUI X's Spanish, with the accents its day labels lack (a screen reader reads the day section as "Dia"). */
const localeText = { ...esES.components.MuiLocalizationProvider.defaultProps.localeText, day: 'Día', weekDay: 'Día de la semana' };

/** Spanish (Mexico) calendars and dd/mm/aaaa fields for every date picker below, whatever the browser's language. */
export function DatesProvider({ children }: { children: ReactNode }) {
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale="es-mx" localeText={localeText}>
      {children}
    </LocalizationProvider>
  );
}

/**
 * A calendar date typed or picked as dd/mm/aaaa, held as the API's "2026-02-15" ('' while empty or incomplete), so
 * the shared zod schemas check it unchanged. Replaces native date inputs, whose format follows the browser.
 */
export function DateField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  helperText?: string;
  size?: 'small' | 'medium';
  min?: string;
  max?: string;
  autoFocus?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  fullWidth?: boolean;
  sx?: object;
}) {
  const value = props.value ? dayjs(props.value, 'YYYY-MM-DD') : null;
  return (
    <DatesProvider>
      <DatePicker
        label={props.label}
        format={DATE_INPUT_FORMAT}
        value={value && value.isValid() ? value : null}
        onChange={(next) => props.onChange(next && next.isValid() ? next.format('YYYY-MM-DD') : '')}
        minDate={props.min ? dayjs(props.min) : undefined}
        maxDate={props.max ? dayjs(props.max) : undefined}
        autoFocus={props.autoFocus}
        inputRef={props.inputRef}
        sx={props.sx}
        slotProps={{
          textField: {
            size: props.size,
            fullWidth: props.fullWidth,
            error: Boolean(props.error),
            helperText: props.error ?? props.helperText,
          },
        }}
      />
    </DatesProvider>
  );
}
