import Chip, { type ChipProps } from '@mui/material/Chip';
import type { RequestStatus } from '@portal/contract';

const COLORS: Record<RequestStatus, ChipProps['color']> = {
  capturada: 'default',
  'en validación': 'info',
  aprobada: 'success',
  rechazada: 'error',
  dispersada: 'primary',
  cancelada: 'warning',
};

export function RequestStatusChip({ status }: { status: RequestStatus }) {
  return <Chip size="small" color={COLORS[status]} label={status} />;
}
