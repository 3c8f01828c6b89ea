import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import KeyboardArrowDown from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUp from '@mui/icons-material/KeyboardArrowUp';
import { Link, useParams } from 'react-router';
import { FREQUENCY_LABELS, type Credit } from '@portal/contract';
import { AGING_BUCKET_LABELS, daysBetween } from '@portal/lending';
import { DateField } from '../../components/date-field';
import { DetailList } from '../../components/detail-list';
import { LettersTable } from '../../components/letters-table';
import { NotFoundState, isNotFound } from '../../components/not-found-state';
import { RouteLoading } from '../../components/route-loading';
import { ScheduleTable } from '../../components/schedule-table';
import { Section } from '../../components/section';
import { StatusChip } from '../../components/status-chip';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format';
import { useCredit, usePayoff } from './credits.queries';
import { AllocationTable, SPLIT_FIGURES } from './payment-split';

/**
 * Detalle del crédito: what was disbursed and on which terms, its state at the fecha flujo, balances by component,
 * the schedule with what was paid of each row, the expected deductions, a payoff quote and the history. Read only.
 */
export default function CreditViewScreen() {
  const { id = '' } = useParams();
  const credit = useCredit(id);

  if (credit.isError) {
    if (isNotFound(credit.error))
      return <NotFoundState what="El crédito" backTo="/wallet/credits/credits-list" backLabel="Ir a Créditos" />;
    return <Alert severity="error">{credit.error.message}</Alert>;
  }
  if (!credit.data) return <RouteLoading />;
  const current = credit.data;
  const { product } = current;

  return (
    <>
      <Stack direction="row" spacing={2} useFlexGap sx={{ mb: 3, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h1" component="h1">
          Crédito {current.folio}
        </Typography>
        <StatusChip status={current.status} size="medium" />
        <Typography color={current.daysPastDue > 0 ? 'error' : 'text.secondary'}>
          {current.daysPastDue} días de atraso · {AGING_BUCKET_LABELS[current.bucket]} · fecha flujo {formatDate(current.businessDate)}
        </Typography>
      </Stack>
      <Section title="Resumen">
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
              value: `${daysBetween(current.disbursementDate, current.firstDueDate)} días · interés ${formatMoney(current.installments[0]?.interest ?? '0.00')} + IVA ${formatMoney(current.installments[0]?.iva ?? '0.00')}`,
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
      </Section>
      <Section title="Tabla de amortización">
        <ScheduleTable rows={current.installments} aria-label="Tabla de amortización" />
      </Section>
      <PortfolioSections credit={current} />
    </>
  );
}

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

/** What the portfolio knows of the credit at the fecha flujo: balances, what was paid of each row, deductions, payoff. */
function PortfolioSections({ credit: view }: { credit: Credit }) {
  const [payoffDate, setPayoffDate] = useState(view.businessDate);
  const payoff = usePayoff(view.id, payoffDate);
  return (
    <>
      <Section title="Saldos por componente">
        <DetailList
          aria-label="Saldos del crédito"
          items={COMPONENT_LABELS.map(([key, label]) => ({ label, value: formatMoney(view.balances[key]) }))}
        />
      </Section>
      <Section title="Pagado por amortización">
        <Table size="small" aria-label="Pagado de cada amortización">
          <TableHead>
            <TableRow>
              <TableCell>Núm.</TableCell>
              <TableCell>Fecha de descuento</TableCell>
              <TableCell align="right">Cargado</TableCell>
              <TableCell align="right">Pagado</TableCell>
              <TableCell align="right">Pendiente</TableCell>
              <TableCell>Estado</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {view.installments.map((row) => (
              <TableRow key={row.number}>
                <TableCell>{row.number}</TableCell>
                <TableCell>{formatDate(row.dueDate)}</TableCell>
                <TableCell align="right">{formatMoney(row.charged.total)}</TableCell>
                <TableCell align="right">{formatMoney(row.paid.total)}</TableCell>
                <TableCell align="right">{formatMoney(row.outstanding)}</TableCell>
                <TableCell>
                  <StatusChip status={row.status} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Section>
      <Section title="Descuentos esperados">
        <Table size="small" aria-label="Descuentos del crédito">
          <TableHead>
            <TableRow>
              <TableCell>Periodo</TableCell>
              <TableCell>Fecha de descuento</TableCell>
              <TableCell align="right">Importe</TableCell>
              <TableCell>Estado</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {view.deductions.map((d) => (
              <TableRow key={d.period}>
                <TableCell>{d.period}</TableCell>
                <TableCell>{formatDate(d.discountDate)}</TableCell>
                <TableCell align="right">{formatMoney(d.amount)}</TableCell>
                <TableCell>{d.state}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Section>
      <Section title="Pagos">
        <CreditPayments credit={view} />
      </Section>
      <Section title="Etiquetas">
        <Typography color="text.secondary">{view.labels.length === 0 ? 'Sin etiquetas.' : view.labels.join(', ')}</Typography>
      </Section>
      <Section title="Cartas de liquidación">
        <LettersTable letters={view.letters} label="Cartas de liquidación" />
      </Section>
      <Section title="Historial de etiquetas">
        <LabelHistory credit={view} />
      </Section>
      <Section title="Liquidación anticipada">
        <Stack spacing={2}>
          <DateField label="Fecha de liquidación" value={payoffDate} onChange={setPayoffDate} sx={{ maxWidth: 220 }} />
          {payoff.isError && <Alert severity="error">{payoff.error.message}</Alert>}
          {payoff.data && (
            <DetailList
              aria-label="Importes de la liquidación"
              items={[
                { label: 'Capital insoluto', value: formatMoney(payoff.data.outstandingPrincipal) },
                { label: 'Interés e IVA vencidos', value: `${formatMoney(payoff.data.dueInterest)} + ${formatMoney(payoff.data.dueIva)}` },
                {
                  label: 'Moratorios e IVA',
                  value: `${formatMoney(payoff.data.dueMoratoryInterest)} + ${formatMoney(payoff.data.dueMoratoryIva)}`,
                },
                {
                  label: 'Interés del periodo e IVA',
                  value: `${formatMoney(payoff.data.accruedInterest)} + ${formatMoney(payoff.data.accruedIva)}`,
                },
                { label: 'En tránsito', value: formatMoney(payoff.data.inTransit) },
                { label: 'Importe total a liquidar', value: formatMoney(payoff.data.totalAmount) },
              ]}
            />
          )}
        </Stack>
      </Section>
      <Section title="Historial">
        {view.history.length === 0 ? (
          <Typography color="text.secondary">Sin movimientos registrados.</Typography>
        ) : (
          <DetailList
            aria-label="Eventos del crédito"
            items={view.history.map((entry) => ({
              label: formatDateTime(entry.occurredAt),
              value: `${entry.action} · ${entry.actorEmail ?? 'Sistema'}`,
            }))}
          />
        )}
      </Section>
    </>
  );
}

type CreditPayment = Credit['payments'][number];

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

/** The credit's payments, newest first, with their split and where each peso went; and the saldo a favor, if any. */
function CreditPayments({ credit: view }: { credit: Credit }) {
  return (
    <Stack spacing={2}>
      {Number(view.creditBalance) > 0 && (
        <Alert severity="info">
          Saldo a favor: <strong>{formatMoney(view.creditBalance)}</strong> (sobrepago recibido después de liquidar el crédito).
        </Alert>
      )}
      {view.payments.length === 0 ? (
        <Typography color="text.secondary">Sin pagos aplicados.</Typography>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Pagos del crédito">
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
              {view.payments.map((payment) => (
                <PaymentRow key={payment.id} payment={payment} />
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Stack>
  );
}

const SOURCE_LABELS = { selección: 'Selección en la lista', archivo: 'Archivo' } as const;

/** Every label added or removed, newest first: who, when and the update it came from (its id, and the file's name). */
function LabelHistory({ credit }: { credit: Credit }) {
  if (credit.labelHistory.length === 0) return <Typography color="text.secondary">Sin cambios de etiquetas.</Typography>;
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label="Historial de etiquetas">
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
          {credit.labelHistory.map((entry) => (
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
      </Table>
    </Box>
  );
}
