import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useParams } from 'react-router';
import { FREQUENCY_LABELS } from '@portal/contract';
import { daysBetween } from '@portal/lending';
import { RouteLoading } from '../../components/route-loading';
import { DetailList } from '../../components/detail-list';
import { ScheduleTable } from '../../components/schedule-table';
import { Section } from '../../components/section';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format';
import { useCredit } from './credits.queries';
import { NotFoundState, isNotFound } from '../../components/not-found-state';
import { StatusChip } from '../../components/status-chip';


/** Detalle del crédito: what was disbursed, on which terms, and its schedule with each installment's status. Read only. */
export default function CreditViewScreen() {
  const { id = '' } = useParams();
  const credit = useCredit(id);

  if (credit.isError) {
    if (isNotFound(credit.error)) return <NotFoundState what="El crédito" backTo="/wallet/credits/credits-list" backLabel="Ir a Créditos" />;
    return <Alert severity="error">{credit.error.message}</Alert>;
  }
  if (!credit.data) return <RouteLoading />;
  const current = credit.data;
  const { product } = current;

  return (
    <>
      <Stack direction="row" spacing={2} sx={{ mb: 3, alignItems: 'center' }}>
        <Typography variant="h1" component="h1">
          Crédito {current.folio}
        </Typography>
        <StatusChip status={current.status} size="medium" />
        {current.daysPastDue > 0 && <Typography color="error">{current.daysPastDue} días de atraso</Typography>}
      </Stack>
      <Section title="Resumen">
        <DetailList
          aria-label="Resumen del crédito"
          items={[
            { label: 'Cliente', value: current.clientName },
            { label: 'CURP', value: current.curp },
            { label: 'Convenio', value: current.agreement },
            { label: 'Número de empleado', value: current.employeeNumber },
            { label: 'Solicitud', value: current.requestFolio },
            { label: 'Producto', value: product.name },
            { label: 'Tasa anual', value: `${product.annualRatePct} %` },
            { label: 'IVA', value: `${product.ivaRatePct} %` },
            { label: 'Comisión por apertura', value: `${product.openingFeePct} % (${product.openingFeeFinanced ? 'financiada' : 'descontada al dispersar'})` },
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
            { label: 'Saldo', value: formatMoney(current.balance) },
            { label: 'Dispersó', value: current.disbursedBy ? `${current.disbursedBy} · ${formatDateTime(current.createdAt)}` : formatDateTime(current.createdAt) },
          ]}
        />
      </Section>
      <Section title="Tabla de amortización">
        <ScheduleTable rows={current.installments} aria-label="Tabla de amortización" />
      </Section>
    </>
  );
}
