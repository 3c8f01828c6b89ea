import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { ScheduleRow } from '@portal/lending';
import { formatDate, formatMoney } from '../lib/format';

/** A row of packages/lending's schedule; a credit's installment also has a status, a simulation's has none. */
type Row = ScheduleRow & { status?: string };

const MONEY_COLUMNS = [
  ['principal', 'Capital'],
  ['interest', 'Interés'],
  ['iva', 'IVA'],
  ['payment', 'Pago'],
  ['balance', 'Saldo'],
] as const;

/** An amortization schedule, one plain-text cell per figure so it reads the same on screen and to a test. */
export function ScheduleTable({ rows, 'aria-label': label }: { rows: Row[]; 'aria-label': string }) {
  const withStatus = rows.some((row) => row.status !== undefined);
  return (
    // A scroll area a keyboard can reach and a screen reader can name (WCAG 2.1.1, axe scrollable-region-focusable).
    <TableContainer sx={{ maxHeight: 480 }} tabIndex={0} role="region" aria-label={`${label} (desplazable)`}>
      <Table size="small" stickyHeader aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell>No.</TableCell>
            <TableCell>Fecha de descuento</TableCell>
            {MONEY_COLUMNS.map(([key, title]) => (
              <TableCell key={key} align="right">
                {title}
              </TableCell>
            ))}
            {withStatus && <TableCell>Estado</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.number}>
              <TableCell>{row.number}</TableCell>
              <TableCell>{formatDate(row.dueDate)}</TableCell>
              {MONEY_COLUMNS.map(([key]) => (
                <TableCell key={key} align="right">
                  {formatMoney(row[key])}
                </TableCell>
              ))}
              {withStatus && <TableCell>{row.status}</TableCell>}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
