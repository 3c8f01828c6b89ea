import { useState } from 'react';
import TablePagination from '@mui/material/TablePagination';

/**
 * A long table of a record read in pages (a 52-row schedule, a credit's payments): the rows of the page shown and the
 * pager to put under the table. The rows are already in the browser (they come with the record), so this pages them
 * for reading, not for the server.
 */
export function usePagedRows<Row>(rows: readonly Row[], pageSize: number) {
  const [page, setPage] = useState(0);
  const last = Math.max(0, Math.ceil(rows.length / pageSize) - 1);
  const shown = Math.min(page, last);
  return {
    rows: rows.slice(shown * pageSize, (shown + 1) * pageSize),
    pager:
      rows.length > pageSize ? (
        <TablePagination
          component="div"
          count={rows.length}
          page={shown}
          rowsPerPage={pageSize}
          rowsPerPageOptions={[]}
          onPageChange={(_event, next) => setPage(next)}
          labelDisplayedRows={({ from, to, count }) => `${from}–${to} de ${count}`}
          getItemAriaLabel={(type) => (type === 'next' ? 'Página siguiente' : type === 'previous' ? 'Página anterior' : type)}
        />
      ) : null,
  };
}
