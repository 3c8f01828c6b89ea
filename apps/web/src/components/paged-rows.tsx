import { useState } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import KeyboardArrowLeft from '@mui/icons-material/KeyboardArrowLeft';
import KeyboardArrowRight from '@mui/icons-material/KeyboardArrowRight';

/**
 * A long table of a record read in pages (a 52-row schedule, a credit's payments): the rows of the page shown and the
 * pager to put under the table. The rows are already in the browser (they come whole with the record or its tab's part),
 * so this pages them for reading, not for the server. The pager is two buttons and a count: MUI's TablePagination brings its rows-per-page
 * Select and Menu (12 kB gzip) to a screen that offers no such choice (decision 0027).
 */
export function usePagedRows<Row>(rows: readonly Row[], pageSize: number) {
  const [page, setPage] = useState(0);
  const last = Math.max(0, Math.ceil(rows.length / pageSize) - 1);
  const shown = Math.min(page, last);
  const from = shown * pageSize + 1;
  const to = Math.min(rows.length, (shown + 1) * pageSize);
  return {
    rows: rows.slice(shown * pageSize, (shown + 1) * pageSize),
    pager:
      rows.length > pageSize ? (
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 1, px: 2, py: 0.5 }}>
          <Typography variant="body2" aria-live="polite">{`${from}–${to} de ${rows.length}`}</Typography>
          <IconButton aria-label="Página anterior" disabled={shown === 0} onClick={() => setPage(shown - 1)}>
            <KeyboardArrowLeft />
          </IconButton>
          <IconButton aria-label="Página siguiente" disabled={shown === last} onClick={() => setPage(shown + 1)}>
            <KeyboardArrowRight />
          </IconButton>
        </Box>
      ) : null,
  };
}
