import { Suspense, lazy, useEffect, useRef, useState, type ReactNode } from 'react';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import SearchIcon from '@mui/icons-material/Search';
import { useCompanies } from '../lib/catalogs';

/** MUI X's date picker (49 kB gzip) loads with the first date filter a list shows, not with every list (decision 0027). */
const DateField = lazy(() => import('./date-field').then((module) => ({ default: module.DateField })));

/** What a text filter shows while typing; it is committed after a pause, so typing does not fire a request per key. */
function useDebouncedText(value: string, onCommit: (value: string) => void) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => onCommit(text), 350);
    return () => clearTimeout(timer);
  }, [text, value, onCommit]);
  return [text, setText] as const;
}

/** Search box (debounced) plus the screen's own filters and actions. */
export function FilterBar(props: {
  search: string;
  onSearch: (value: string) => void;
  searchLabel: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  const [text, setText] = useDebouncedText(props.search, props.onSearch);

  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} useFlexGap sx={{ mb: 2, alignItems: { md: 'center' }, flexWrap: 'wrap' }}>
      <TextField
        size="small"
        label={props.searchLabel}
        value={text}
        onChange={(event) => setText(event.target.value)}
        sx={{ minWidth: { xs: 0, sm: 260 } }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      {props.children}
      {/* Buttons wrap on a phone rather than widen the page. */}
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ ml: { md: 'auto' }, flexWrap: 'wrap', '& .MuiButton-root': { whiteSpace: 'nowrap' } }}
      >
        {props.actions}
      </Stack>
    </Stack>
  );
}

export interface FilterOption {
  value: string;
  label: string;
}

/** A select filter whose first option ("Todos") clears it. */
export function SelectFilter(props: { label: string; value: string; options: FilterOption[]; onChange: (value: string) => void }) {
  return (
    <TextField
      select
      size="small"
      label={props.label}
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      sx={{ minWidth: 180 }}
    >
      <MenuItem value="">Todos</MenuItem>
      {props.options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The company (brand) filter every list offers, fed by the companies catalogue. */
export function CompanyFilter(props: { value: string; onChange: (value: string) => void }) {
  const companies = useCompanies();
  return (
    <SelectFilter
      label="Empresa"
      value={props.value}
      options={(companies.data ?? []).map((company) => ({ value: company.id, label: company.name }))}
      onChange={props.onChange}
    />
  );
}

/** A free-text filter (e.g. who captured), debounced like the search box. */
export function TextFilter(props: { label: string; value: string; onChange: (value: string) => void }) {
  const [text, setText] = useDebouncedText(props.value, props.onChange);
  return (
    <TextField size="small" label={props.label} value={text} onChange={(event) => setText(event.target.value)} sx={{ minWidth: 180 }} />
  );
}

/**
 * One end of a date range ("YYYY-MM-DD" in the URL), typed or picked as dd/mm/aaaa. The field keeps what is being
 * typed; the filter (the URL, the request) takes a date only once its year is complete: typed digit by digit, a year
 * passes through 0002, 0020 and 0202, each a valid date that would fetch a list, and coming back as the field's value
 * while the next digit was typed, lose it. `error` says what is wrong with the range it ends.
 */
export function DateFilter(props: { label: string; value: string; onChange: (value: string) => void; error?: string }) {
  const [draft, setDraft] = useState(props.value);
  const sent = useRef(props.value);
  useEffect(() => {
    // Set from outside (a link, a chip removed, back and forward): the field shows it.
    if (props.value !== sent.current) {
      sent.current = props.value;
      setDraft(props.value);
    }
  }, [props.value]);
  const change = (next: string) => {
    setDraft(next);
    if (next !== '' && next < FIRST_FILTER_DATE) return;
    sent.current = next;
    props.onChange(next);
  };
  const sx = { minWidth: 170, maxWidth: 190 };
  return (
    <Suspense fallback={<TextField size="small" label={props.label} disabled sx={sx} />}>
      <DateField size="small" label={props.label} value={draft} onChange={change} error={props.error} sx={sx} />
    </Suspense>
  );
}

/** The earliest date a filter takes: a year being typed is below it until its last digit. */
const FIRST_FILTER_DATE = '1900-01-01';
