import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import type { Credit } from '@portal/contract';
import { DateField } from '../../components/date-field';
import { DetailList } from '../../components/detail-list';
import { formatMoney } from '../../lib/format';
import { usePayoff } from './credits.queries';

/**
 * Liquidación: the payoff quote for a date, at the fecha flujo unless another is chosen. Its own chunk, loaded when
 * the tab is opened: the date picker is the heaviest code of the view.
 */
export default function PayoffSection({ credit }: { credit: Credit }) {
  const [payoffDate, setPayoffDate] = useState(credit.businessDate);
  const payoff = usePayoff(credit.id, payoffDate);
  return (
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
  );
}
