import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';
import {
  EMPLOYER_STATEMENT_LINE_COLUMNS,
  employerStatementRoutes,
  type EmployerStatementLine,
  type EmployerStatementPayday,
  type StatementLineGroup,
} from '@portal/contract';
import { gridColumns } from '../../components/declared-columns';
import { ExportButton } from '../../components/export-button';
import { NoticeSnackbar, type Notice } from '../../components/notice-snackbar';
import { ScrollTable } from '../../components/scroll-table';
import { Section } from '../../components/section';
import { localPageGrid } from '../../components/page-grid';
import { ServerDataGrid } from '../../components/server-data-grid';
import { StatusChip } from '../../components/status-chip';
import { useAgreementOptions } from '../../lib/credit-list';
import { formatDate, formatMoney } from '../../lib/format';
import type { ListState } from '../../lib/list-state';
import { useEmployerStatement, useStatementLines } from './employer-statement.queries';

type LineColumn = (typeof EMPLOYER_STATEMENT_LINE_COLUMNS)[number]['key'];
type Figure = 'instructed' | 'received' | 'missing';
const GROUP_OF: Record<Figure, StatementLineGroup> = { instructed: 'instruidos', received: 'recibidos', missing: 'faltantes' };
const FIGURE_LABEL: Record<Figure, string> = { instructed: 'Instruido', received: 'Recibido', missing: 'Faltante' };
const FIGURES: Figure[] = ['instructed', 'received', 'missing'];
const FIRST_PAGE: ListState = { page: 1, pageSize: 25, sort: null, q: '', filters: {} };

const thisMonth = () => new Date().toISOString().slice(0, 7);
const figureText = (figure: { count: number; amount: string }) => `${figure.count.toLocaleString('es-MX')} · ${formatMoney(figure.amount)}`;

const lineColumns = gridColumns<EmployerStatementLine, LineColumn>(EMPLOYER_STATEMENT_LINE_COLUMNS, {
  creditFolio: {
    width: 140,
    sortable: false,
    renderCell: ({ row }) => <Link to={`/wallet/credits/credits-view/${row.creditId}`}>{row.creditFolio}</Link>,
  },
  employeeNumber: { width: 130, sortable: false },
  name: { flex: 1, minWidth: 200, sortable: false },
  instructedAmount: { width: 130, sortable: false },
  receivedAmount: { width: 130, sortable: false },
  daysSince: { width: 120, sortable: false },
});

interface Chosen {
  payday: EmployerStatementPayday;
  figure: Figure;
}

/** The lines behind one figure of one payday; the missing ones are the follow-up list, exportable to Excel. */
function Lines({ chosen, onNotice }: { chosen: Chosen; onNotice: (notice: Notice) => void }) {
  const [state, setState] = useState(FIRST_PAGE);
  const { payday, figure } = chosen;
  const lines = useStatementLines(payday.agreementId, payday.payday, GROUP_OF[figure], state.page, state.pageSize);
  const title = `${FIGURE_LABEL[figure]} · ${payday.agreement} · ${formatDate(payday.payday)}`;
  return (
    <Section title={title}>
      {figure === 'missing' && (
        <Stack direction="row" sx={{ mb: 2 }}>
          <ExportButton
            route={employerStatementRoutes.missingExport}
            queryString={new URLSearchParams({ agreementId: payday.agreementId, payday: payday.payday }).toString()}
            fallbackName={`faltantes-${payday.payday}.xlsx`}
            onError={(message) => onNotice({ kind: 'error', text: message })}
            empty={payday.missing.count === 0}
          />
        </Stack>
      )}
      <ServerDataGrid<EmployerStatementLine>
        aria-label={`Líneas: ${title}`}
        columns={lineColumns}
        {...localPageGrid(lines, state, setState)}
        getRowId={(row) => row.creditId}
        emptyText={figure === 'missing' ? 'Ningún descuento faltante: el patrón remitió todo lo instruido.' : 'Ninguna línea.'}
        hiddenOnPhone={['employeeNumber', 'payday', 'daysSince']}
      />
    </Section>
  );
}

/**
 * Cartera → Estado de cuenta por convenio: the month's paydays of each agreement, what its emitted cédula instructed
 * against what the applied payment files received and what is missing; every figure opens the lines behind it.
 */
export default function EmployerStatementScreen() {
  const agreements = useAgreementOptions();
  const [month, setMonth] = useState(thisMonth);
  const [agreementId, setAgreementId] = useState('');
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const statement = useEmployerStatement(month, agreementId);
  const figureButton = (payday: EmployerStatementPayday, figure: Figure) => (
    <Button
      size="small"
      onClick={() => setChosen({ payday, figure })}
      aria-label={`${FIGURE_LABEL[figure]} de ${payday.agreement} del ${formatDate(payday.payday)}`}
      aria-pressed={chosen?.payday.orderId === payday.orderId && chosen.figure === figure}
    >
      {figureText(payday[figure])}
    </Button>
  );
  return (
    <>
      <Typography variant="h1" component="h1" sx={{ mb: 3 }}>
        Estado de cuenta por convenio
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <TextField
          type="month"
          size="small"
          label="Mes"
          value={month}
          onChange={(event) => {
            if (/^\d{4}-\d{2}$/.test(event.target.value)) setMonth(event.target.value);
            setChosen(null);
          }}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          select
          size="small"
          label="Convenio"
          value={agreementId}
          onChange={(event) => {
            setAgreementId(event.target.value);
            setChosen(null);
          }}
          sx={{ minWidth: 260 }}
        >
          <MenuItem value="">Todos</MenuItem>
          {agreements.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <Section title="Días de pago del mes">
        {statement.isError ? (
          <Alert severity="error">{statement.error.message}</Alert>
        ) : !statement.data ? (
          <Typography>Cargando…</Typography>
        ) : statement.data.paydays.length === 0 ? (
          <Alert severity="info">Ninguna cédula emitida para un día de pago de este mes.</Alert>
        ) : (
          <ScrollTable label="Estado de cuenta del mes">
            <TableHead>
              <TableRow>
                <TableCell>Convenio</TableCell>
                <TableCell>Día de pago</TableCell>
                <TableCell>Cédula</TableCell>
                {FIGURES.map((figure) => (
                  <TableCell key={figure} align="right">
                    {FIGURE_LABEL[figure]}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {statement.data.paydays.map((payday) => (
                <TableRow key={payday.orderId}>
                  <TableCell>{payday.agreement}</TableCell>
                  <TableCell>{formatDate(payday.payday)}</TableCell>
                  <TableCell>
                    <Link to={`/wallet/deduction-orders/${payday.orderId}`} aria-label={`Cédula del ${formatDate(payday.payday)}`}>
                      <StatusChip status={payday.orderStatus} />
                    </Link>
                  </TableCell>
                  {FIGURES.map((figure) => (
                    <TableCell key={figure} align="right">
                      {figureButton(payday, figure)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
              <TableRow>
                <TableCell colSpan={3}>
                  <strong>Total del mes</strong>
                </TableCell>
                {FIGURES.map((figure) => (
                  <TableCell key={figure} align="right" aria-label={`Total ${FIGURE_LABEL[figure].toLowerCase()}`}>
                    <strong>{figureText(statement.data.totals[figure])}</strong>
                  </TableCell>
                ))}
              </TableRow>
            </TableBody>
          </ScrollTable>
        )}
      </Section>
      {chosen && <Lines key={`${chosen.payday.orderId}-${chosen.figure}`} chosen={chosen} onNotice={setNotice} />}
      <NoticeSnackbar notice={notice} onClose={() => setNotice(null)} />
    </>
  );
}
