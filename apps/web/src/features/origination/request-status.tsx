import type { RequestStatus } from '@portal/contract';
import { StatusChip } from '../../components/status-chip';

/** A request's status: the portal's one status chip. */
export function RequestStatusChip({ status }: { status: RequestStatus }) {
  return <StatusChip status={status} />;
}
