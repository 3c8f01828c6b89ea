import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { assessRenewal, divRoundHalfUp, formatCents, parseCents, parseRate } from '@portal/lending';
import { parseMoney, percentToFraction, type OriginationCatalog } from '@portal/contract';
import { formatDate, formatMoney } from '../../lib/format';
import { useRenewableCredits } from './origination.queries';

/** The opening fee and its IVA as packages/lending `quoteLoan` prices them: each rounded half up to the centavo. */
function openingFeeOf(amount: string, product: { openingFeePct: string; ivaRatePct: string }) {
  const fee = parseRate(percentToFraction(product.openingFeePct), 'openingFeeRate');
  const iva = parseRate(percentToFraction(product.ivaRatePct), 'ivaRate');
  const feeCents = divRoundHalfUp(parseCents(amount, 'amount') * fee.num, fee.den);
  return { openingFee: formatCents(feeCents), openingFeeIva: formatCents(divRoundHalfUp(feeCents * iva.num, iva.den)) };
}

/**
 * Renovación: the client's active credits (same CURP, the user's company) to pay off with the new one, each with its
 * payoff at the fecha flujo (the settlement letter's computation), and the net amount the client would receive.
 */
export function RenewalSection<Values extends FieldValues>(props: {
  control: Control<Values>;
  catalog: OriginationCatalog;
  curp: string;
  amount: string;
  productId: string | undefined;
  agreementId: string | undefined;
}) {
  const { field } = useController({ control: props.control, name: 'renews' as Path<Values> });
  const renews = (field.value ?? []) as string[];
  const renewable = useRenewableCredits(props.curp);
  if (props.curp.length !== 18) return null;
  if (renewable.isError) return <Alert severity="error">No se pudieron cargar los créditos a renovar: {renewable.error.message}</Alert>;
  if (!renewable.data) return null;
  const { credits } = renewable.data;
  if (credits.length === 0 && renews.length === 0) return null;
  const product = props.catalog.agreements.find((a) => a.id === props.agreementId)?.products.find((p) => p.id === props.productId);
  const chosen = credits.filter((credit) => renews.includes(credit.creditId));
  const amount = parseMoney(props.amount);
  const verdict =
    product && amount && chosen.length > 0
      ? assessRenewal({
          amount,
          ...openingFeeOf(amount, product),
          openingFeeFinanced: product.openingFeeFinanced,
          renewed: chosen,
          rule: { minPaidInstallments: product.renewalMinPaid, maxDaysPastDue: product.renewalMaxDaysPastDue },
          minimumNet: renewable.data.minimumNet,
        })
      : null;
  const toggle = (id: string, on: boolean) => field.onChange(on ? [...renews, id] : renews.filter((entry) => entry !== id));
  return (
    <Stack spacing={1} role="group" aria-label="Renovación">
      <Typography sx={{ fontWeight: 600 }}>Renovación: créditos activos de esta CURP</Typography>
      <Typography variant="body2" color="text.secondary">
        Finiquitos al {formatDate(renewable.data.payoffDate)} (fecha flujo), como en la carta de liquidación: moratorios y comisiones a ese
        día, menos los descuentos en tránsito.
      </Typography>
      {credits.map((credit) => (
        <FormControlLabel
          key={credit.creditId}
          control={
            <Checkbox checked={renews.includes(credit.creditId)} onChange={(event) => toggle(credit.creditId, event.target.checked)} />
          }
          label={`Renovar ${credit.folio} · ${credit.agreement} · ${credit.paidInstallments} pagos · ${credit.daysPastDue} días de atraso · finiquito ${formatMoney(credit.payoff)}`}
        />
      ))}
      {verdict && (
        <Alert severity={verdict.reasons.length > 0 ? 'error' : 'info'} aria-label="Monto neto de la renovación">
          <Typography>
            Dispersa {formatMoney(verdict.netDisbursement)} − finiquitos {formatMoney(verdict.payoffTotal)} ={' '}
            <strong>monto neto a recibir {formatMoney(verdict.netAmount)}</strong>. Descuentos liberados para la capacidad:{' '}
            {formatMoney(verdict.freedInstallments)}.
          </Typography>
          {verdict.reasons.map((reason) => (
            <Typography key={reason.message}>{reason.message}</Typography>
          ))}
        </Alert>
      )}
    </Stack>
  );
}
