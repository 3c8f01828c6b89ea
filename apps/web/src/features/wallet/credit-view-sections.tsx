import { useState, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import KeyboardArrowDown from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUp from '@mui/icons-material/KeyboardArrowUp';
import { Link } from 'react-router';
import {
  FREQUENCY_LABELS,
  type AuditEntry,
  type Credit,
  type CreditDeduction,
  type CreditInstallment,
  type CreditPayment,
  type LabelHistoryEntry,
} from '@portal/contract';
import { daysBetween } from '@portal/lending';
import { DetailList } from '../../components/detail-list';
import { LettersTable } from '../../components/letters-table';
import { usePagedRows } from '../../components/paged-rows';
import { ScrollTable } from '../../components/scroll-table';
import { StatusChip } from '../../components/status-chip';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format';
import { AllocationTable, SPLIT_FIGURES } from './payment-split';
import { useCreditLetters } from '../../lib/credit-letters';
import { useCreditDeductions, useCreditHistory, useCreditInstallments, useCreditPayments } from './credits.queries';

/**
 * The sections of the credit view (credit-view.screen.tsx), one per tab. The header and Resumen show the view's answer;
 * every other tab reads its own part when it is opened, with its own loading and error state.
 */

/** Rows per page of the view's long tables: a year of quincenas fits one page, a weekly credit's 52 rows four. */
const PAGE_SIZE = 13;

const COMPONENT_LABELS = [
  ['principal', 'Capital'],
  ['interest', 'Interés'],
  ['iva', 'IVA del interés'],
  ['moratoryInterest', 'Moratorios'],
  ['moratoryIva', 'IVA de moratorios'],
  ['fees', 'Comisiones'],
  ['feesIva', 'IVA de comisiones'],
  ['total', 'Total'],
] as const;

/**
 * A tab's part as it arrives: a progress bar naming it while it loads, the API's reason if it fails (Spanish, Problem
 * JSON), then `children` with its data.
 */
function PartState<T>({ query, what, children }: { query: UseQueryResult<T, Error>; what: string; children: (data: T) => ReactNode }) {
  if (query.isError) return <Alert severity="error">{`Error al cargar ${what}: ${query.error.message}`}</Alert>;
  if (query.data === undefined) return <LinearProgress aria-label={`Cargando ${what}`} />;
  return children(query.data);
}

/** Resumen: who, under which agreement and terms, and what is owed by component. */
export function SummarySection({ credit: current }: { credit: Credit }) {
  const { product } = current;
  return (
    <Stack spacing={3}>
      <DetailList
        aria-label="Resumen del crédito"
        items={[
          { label: 'Cliente', value: current.clientName },
          { label: 'CURP', value: current.curp },
          { label: 'RFC', value: current.rfc ?? '—' },
          { label: 'Convenio', value: current.agreement },
          { label: 'Empresa', value: current.company },
          { label: 'Número de empleado', value: current.employeeNumber },
          { label: 'Solicitud', value: current.requestFolio },
          { label: 'Producto', value: product.name },
          { label: 'Tasa anual', value: `${product.annualRatePct} %` },
          { label: 'IVA', value: `${product.ivaRatePct} %` },
          {
            label: 'Comisión por apertura',
            value: `${product.openingFeePct} % (${product.openingFeeFinanced ? 'financiada' : 'descontada al dispersar'})`,
          },
          { label: 'Periodicidad', value: FREQUENCY_LABELS[current.frequency] },
          { label: 'Plazo', value: `${current.term} pagos` },
          { label: 'Monto', value: formatMoney(current.amount) },
          { label: 'Importe de la comisión', value: `${formatMoney(current.openingFee)} + IVA ${formatMoney(current.openingFeeIva)}` },
          { label: 'Capital financiado', value: formatMoney(current.principal) },
          { label: 'Monto dispersado', value: formatMoney(current.netDisbursed) },
          { label: 'Pago por periodo', value: formatMoney(current.installment) },
          { label: 'CAT sin IVA', value: `${current.cat} %` },
          { label: 'CLABE', value: current.clabe },
          { label: 'Fecha de dispersión', value: formatDate(current.disbursementDate) },
          { label: 'Primer descuento', value: formatDate(current.firstDueDate) },
          {
            label: 'Primer periodo',
            value: `${daysBetween(current.disbursementDate, current.firstDueDate)} días · interés ${formatMoney(current.firstInstallment?.interest ?? '0.00')} + IVA ${formatMoney(current.firstInstallment?.iva ?? '0.00')}`,
          },
          { label: 'Último descuento', value: formatDate(current.lastDueDate) },
          { label: 'Saldo', value: formatMoney(current.balances.total) },
          ...(Number(current.creditBalance) > 0 ? [{ label: 'Saldo a favor', value: formatMoney(current.creditBalance) }] : []),
          {
            label: 'Dispersó',
            value: current.disbursedBy
              ? `${current.disbursedBy} · ${formatDateTime(current.createdAt)}`
              : formatDateTime(current.createdAt),
          },
        ]}
      />
      <div>
        <Typography variant="h3" component="h3" sx={{ mb: 1.5 }}>
          Saldos por componente
        </Typography>
        <DetailList
          aria-label="Saldos del crédito"
          items={COMPONENT_LABELS.map(([key, label]) => ({ label, value: formatMoney(current.balances[key]) }))}
        />
      </div>
    </Stack>
  );
}

/**
 * Calendario de pagos: the schedule as disbursed and, on the same row, what each installment charged (late charges
 * included), what was paid of it, what it still owes, and its payroll deduction.
 */
export function ScheduleSection({ credit }: { credit: Credit }) {
  return (
    <PartState query={useCreditInstallments(credit.id)} what="el calendario de pagos">
      {(schedule) => <ScheduleTable installments={schedule.items} />}
    </PartState>
  );
}

function ScheduleTable({ installments }: { installments: readonly CreditInstallment[] }) {
  const { rows, pager } = usePagedRows(installments, PAGE_SIZE);
  return (
    <>
      <ScrollTable label="Calendario de pagos">
        <TableHead>
          <TableRow>
            <TableCell>No.</TableCell>
            <TableCell>Fecha de descuento</TableCell>
            <TableCell align="right">Capital</TableCell>
            <TableCell align="right">Interés</TableCell>
            <TableCell align="right">IVA</TableCell>
            <TableCell align="right">Pago</TableCell>
            <TableCell align="right">Saldo</TableCell>
            <TableCell align="right">Cargado</TableCell>
            <TableCell align="right">Pagado</TableCell>
            <TableCell align="right">Pendiente</TableCell>
            <TableCell>Estado</TableCell>
            <TableCell>Descuento</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.number}>
              <TableCell>{row.number}</TableCell>
              <TableCell>{formatDate(row.dueDate)}</TableCell>
              <TableCell align="right">{formatMoney(row.principal)}</TableCell>
              <TableCell align="right">{formatMoney(row.interest)}</TableCell>
              <TableCell align="right">{formatMoney(row.iva)}</TableCell>
              <TableCell align="right">{formatMoney(row.payment)}</TableCell>
              <TableCell align="right">{formatMoney(row.balance)}</TableCell>
              <TableCell align="right">{formatMoney(row.charged.total)}</TableCell>
              <TableCell align="right">{formatMoney(row.paid.total)}</TableCell>
              <TableCell align="right">{formatMoney(row.outstanding)}</TableCell>
              <TableCell>
                <StatusChip status={row.status} />
              </TableCell>
              <TableCell>{row.deductionState}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </ScrollTable>
      {pager}
    </>
  );
}

/** One payment: when, how much, from where, its split; its allocation lines unfold below it. */
function PaymentRow({ payment }: { payment: CreditPayment }) {
  const [open, setOpen] = useState(false);
  const label = `Reparto del pago del ${formatDate(payment.valueDate)} por ${formatMoney(payment.amount)}`;
  return (
    <>
      <TableRow>
        <TableCell padding="checkbox">
          <IconButton size="small" aria-expanded={open} aria-label={label} onClick={() => setOpen((shown) => !shown)}>
            {open ? <KeyboardArrowUp fontSize="small" /> : <KeyboardArrowDown fontSize="small" />}
          </IconButton>
        </TableCell>
        <TableCell>{formatDate(payment.valueDate)}</TableCell>
        <TableCell align="right">{formatMoney(payment.amount)}</TableCell>
        <TableCell>
          {payment.fileId ? <Link to={`/wallet/files-pay-detail/${payment.fileId}`}>{payment.source}</Link> : payment.source}
        </TableCell>
        <TableCell>
          <StatusChip status={payment.status} />
        </TableCell>
        {SPLIT_FIGURES.map(({ key, of }) => (
          <TableCell key={key} align="right">
            {formatMoney(of(payment.split))}
          </TableCell>
        ))}
      </TableRow>
      {open && (
        <TableRow>
          <TableCell colSpan={5 + SPLIT_FIGURES.length} sx={{ bgcolor: 'action.hover' }}>
            <AllocationTable lines={payment.allocation} aria-label={label} />
          </TableCell>
        </TableRow>
      )}
    </>
  );
}

/** Pagos: newest first, with their split and where each peso went; and the saldo a favor, if any. */
export function PaymentsSection({ credit }: { credit: Credit }) {
  const payments = useCreditPayments(credit.id);
  return (
    <Stack spacing={2}>
      {Number(credit.creditBalance) > 0 && (
        <Alert severity="info">
          Saldo a favor: <strong>{formatMoney(credit.creditBalance)}</strong> (sobrepago recibido después de liquidar el crédito).
        </Alert>
      )}
      <PartState query={payments} what="los pagos">
        {(answer) => <PaymentsTable payments={answer.items} />}
      </PartState>
    </Stack>
  );
}

function PaymentsTable({ payments }: { payments: readonly CreditPayment[] }) {
  const { rows, pager } = usePagedRows(payments, PAGE_SIZE);
  return payments.length === 0 ? (
    <Typography color="text.secondary">Sin pagos aplicados.</Typography>
  ) : (
    <div>
      <ScrollTable label="Pagos del crédito">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" />
            <TableCell>Fecha valor</TableCell>
            <TableCell align="right">Importe</TableCell>
            <TableCell>Origen</TableCell>
            <TableCell>Estado</TableCell>
            {SPLIT_FIGURES.map(({ key, label }) => (
              <TableCell key={key} align="right">
                {label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((payment) => (
            <PaymentRow key={payment.id} payment={payment} />
          ))}
        </TableBody>
      </ScrollTable>
      {pager}
    </div>
  );
}

/** Descuentos: what the payroll is expected to deduct on each payday, and what became of it. */
export function DeductionsSection({ credit }: { credit: Credit }) {
  return (
    <PartState query={useCreditDeductions(credit.id)} what="los descuentos">
      {(answer) => <DeductionsTable deductions={answer.items} />}
    </PartState>
  );
}

function DeductionsTable({ deductions }: { deductions: readonly CreditDeduction[] }) {
  const { rows, pager } = usePagedRows(deductions, PAGE_SIZE);
  if (deductions.length === 0) return <Typography color="text.secondary">Sin descuentos programados.</Typography>;
  return (
    <>
      <ScrollTable label="Descuentos del crédito">
        <TableHead>
          <TableRow>
            <TableCell>Periodo</TableCell>
            <TableCell>Fecha de descuento</TableCell>
            <TableCell align="right">Importe</TableCell>
            <TableCell>Estado</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((deduction) => (
            <TableRow key={deduction.period}>
              <TableCell>{deduction.period}</TableCell>
              <TableCell>{formatDate(deduction.discountDate)}</TableCell>
              <TableCell align="right">{formatMoney(deduction.amount)}</TableCell>
              <TableCell>{deduction.state}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </ScrollTable>
      {pager}
    </>
  );
}

const SOURCE_LABELS = { selección: 'Selección en la lista', archivo: 'Archivo' } as const;

/** Etiquetas: the labels the credit carries, and every one added or removed (who, when, from which update). */
export function LabelsSection({ credit }: { credit: Credit }) {
  const history = useCreditHistory(credit.id);
  return (
    <Stack spacing={2}>
      {credit.labels.length === 0 ? (
        <Typography color="text.secondary">Sin etiquetas.</Typography>
      ) : (
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} aria-label="Etiquetas del crédito" role="list">
          {credit.labels.map((label) => (
            <Chip key={label} label={label} role="listitem" />
          ))}
        </Stack>
      )}
      <Typography variant="h3" component="h3">
        Historial de etiquetas
      </Typography>
      <PartState query={history} what="el historial de etiquetas">
        {(answer) => <LabelHistoryTable entries={answer.labelHistory} />}
      </PartState>
    </Stack>
  );
}

function LabelHistoryTable({ entries }: { entries: readonly LabelHistoryEntry[] }) {
  const { rows, pager } = usePagedRows(entries, PAGE_SIZE);
  return entries.length === 0 ? (
    <Typography color="text.secondary">Sin cambios de etiquetas.</Typography>
  ) : (
    <div>
      <ScrollTable label="Historial de etiquetas">
        <TableHead>
          <TableRow>
            <TableCell>Fecha</TableCell>
            <TableCell>Etiqueta</TableCell>
            <TableCell>Acción</TableCell>
            <TableCell>Usuario</TableCell>
            <TableCell>Origen</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((entry) => (
            <TableRow key={entry.id}>
              <TableCell>{formatDateTime(entry.occurredAt)}</TableCell>
              <TableCell>{entry.label}</TableCell>
              <TableCell>{entry.action === 'agregar' ? 'Agregada' : 'Quitada'}</TableCell>
              <TableCell>{entry.actorEmail ?? '—'}</TableCell>
              <TableCell>
                {SOURCE_LABELS[entry.source]}
                {entry.fileName ? ` ${entry.fileName}` : ''} · actualización {entry.jobId.slice(0, 8)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </ScrollTable>
      {pager}
    </div>
  );
}

/** Historial: the credit's audit events, newest first. */
export function HistorySection({ credit }: { credit: Credit }) {
  return (
    <PartState query={useCreditHistory(credit.id)} what="el historial">
      {(answer) => <HistoryTable entries={answer.history} />}
    </PartState>
  );
}

function HistoryTable({ entries }: { entries: readonly AuditEntry[] }) {
  const { rows, pager } = usePagedRows(entries, PAGE_SIZE);
  if (entries.length === 0) return <Typography color="text.secondary">Sin movimientos registrados.</Typography>;
  return (
    <>
      <ScrollTable label="Eventos del crédito">
        <TableHead>
          <TableRow>
            <TableCell>Fecha</TableCell>
            <TableCell>Evento</TableCell>
            <TableCell>Usuario</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((entry) => (
            <TableRow key={entry.id}>
              <TableCell>{formatDateTime(entry.occurredAt)}</TableCell>
              <TableCell>{entry.action}</TableCell>
              <TableCell>{entry.actorEmail ?? 'Sistema'}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </ScrollTable>
      {pager}
    </>
  );
}

/** Cartas: the settlement letters issued for the credit, newest first, each downloadable. */
export function LettersSection({ credit }: { credit: Credit }) {
  return (
    <PartState query={useCreditLetters(credit.id)} what="las cartas de liquidación">
      {(answer) => <LettersTable letters={answer.items} label="Cartas de liquidación" />}
    </PartState>
  );
}
