import { sql, type SQL } from 'drizzle-orm';
import type {
  PaymentBatch,
  PaymentBatchLine,
  PaymentBatchListQuery,
  PaymentOrder,
  PaymentOrderListQuery,
  Refund,
  RefundCandidate,
  RefundListQuery,
} from '@portal/contract';
import { bankForCode } from '@portal/lending';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { HttpProblem } from '../../http/errors';
import { countUpToSql, cappedTotal, type Paged } from '../../http/pagination';
import { creditFolio, creditNumberOf } from '../shared/folios';

/** Folios of Tesorería's records: OP- payment order, LT- batch, DV- refund. */
export const orderFolio = (number: number) => `OP-${String(number).padStart(6, '0')}`;
export const batchFolio = (number: number) => `LT-${String(number).padStart(6, '0')}`;
export const refundFolio = (number: number) => `DV-${String(number).padStart(6, '0')}`;

const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const bankName = (clabe: string) => bankForCode(clabe.slice(0, 3))?.name ?? clabe.slice(0, 3);

async function paged<Row, Item>(
  tx: Tx,
  query: { page: number; pageSize: number },
  select: SQL,
  from: SQL,
  order: SQL,
  toItem: (row: Row) => Item,
): Promise<Paged<Item>> {
  const rows = rowsOf<Row>(
    await tx.execute(sql`${select} ${from} ${order} limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`),
  );
  const [counted] = rowsOf<{ total: number }>(await tx.execute(countUpToSql(sql`select 1 ${from}`)));
  return { items: rows.map(toItem), ...cappedTotal(counted?.total ?? 0) };
}

interface OrderRow {
  id: string;
  number: number;
  kind: PaymentOrder['kind'];
  status: PaymentOrder['status'];
  credit_id: string;
  credit_number: number;
  refund_id: string | null;
  beneficiary: string;
  clabe: string;
  amount: string;
  concept: string;
  reference: string;
  batch_id: string | null;
  last_rejection_reason: string | null;
  rejections: number;
  settled_on: string | null;
  created_at: Date | string;
}

const toOrder = (row: OrderRow): PaymentOrder => ({
  id: row.id,
  folio: orderFolio(Number(row.number)),
  kind: row.kind,
  status: row.status,
  creditId: row.credit_id,
  creditFolio: creditFolio(Number(row.credit_number)),
  refundId: row.refund_id,
  beneficiary: row.beneficiary,
  clabe: row.clabe,
  bank: bankName(row.clabe),
  amount: row.amount,
  concept: row.concept,
  reference: row.reference,
  batchId: row.batch_id,
  lastRejectionReason: row.last_rejection_reason,
  rejections: row.rejections,
  settledOn: row.settled_on,
  createdAt: iso(row.created_at)!,
});

/** Payment orders, pending first (por enviar, then the newest). */
export function listPaymentOrders(tx: Tx, query: PaymentOrderListQuery): Promise<Paged<PaymentOrder>> {
  const number = query.q ? creditNumberOf(query.q) : null;
  const filters = [
    query.kind ? sql`and o.kind = ${query.kind}` : sql``,
    query.status ? sql`and o.status = ${query.status}` : sql``,
    query.q
      ? sql`and (o.beneficiary ilike ${like(query.q)} or o.clabe = ${query.q} ${number !== null ? sql`or c.number = ${number}` : sql``})`
      : sql``,
  ];
  return paged<OrderRow, PaymentOrder>(
    tx,
    query,
    sql`select o.*, c.number::int as credit_number, o.number::int as number`,
    sql`from payment_orders o join credits c on c.id = o.credit_id where true ${sql.join(filters, sql` `)}`,
    sql`order by (o.status = 'por enviar') desc, o.number desc`,
    toOrder,
  );
}

interface BatchRow {
  id: string;
  number: number;
  status: PaymentBatch['status'];
  source_account: string;
  order_count: number;
  total: string;
  settled: number;
  rejected: number;
  generated_by: string | null;
  generated_at: Date | string;
  authorized_by: string | null;
  authorized_at: Date | string | null;
}

const batchSelect = sql`
  select b.id, b.number::int as number, b.status, b.source_account, b.order_count, b.total,
         (select count(*)::int from payment_batch_lines l where l.batch_id = b.id and l.result = 'liquidada') as settled,
         (select count(*)::int from payment_batch_lines l where l.batch_id = b.id and l.result = 'rechazada') as rejected,
         (select email from users u where u.id = b.generated_by) as generated_by, b.generated_at,
         (select email from users u where u.id = b.authorized_by) as authorized_by, b.authorized_at`;

const toBatch = (row: BatchRow): PaymentBatch => ({
  id: row.id,
  folio: batchFolio(Number(row.number)),
  status: row.status,
  sourceAccount: row.source_account,
  orderCount: row.order_count,
  total: row.total,
  settledCount: row.settled,
  rejectedCount: row.rejected,
  generatedBy: row.generated_by,
  generatedAt: iso(row.generated_at)!,
  authorizedBy: row.authorized_by,
  authorizedAt: iso(row.authorized_at),
});

export function listPaymentBatches(tx: Tx, query: PaymentBatchListQuery): Promise<Paged<PaymentBatch>> {
  return paged<BatchRow, PaymentBatch>(
    tx,
    query,
    batchSelect,
    sql`from payment_batches b where true ${query.status ? sql`and b.status = ${query.status}` : sql``}`,
    sql`order by b.number desc`,
    toBatch,
  );
}

export async function loadBatch(tx: Tx, id: string): Promise<PaymentBatch> {
  const [row] = rowsOf<BatchRow>(await tx.execute(sql`${batchSelect} from payment_batches b where b.id = ${id}`));
  if (!row) throw new HttpProblem(404, 'Lote no encontrado', 'El lote no existe o no es de tu empresa.');
  return toBatch(row);
}

interface LineRow {
  line: number;
  order_id: string;
  order_number: number;
  kind: PaymentBatchLine['kind'];
  credit_number: number;
  beneficiary: string;
  beneficiary_id: string | null;
  clabe: string;
  amount: string;
  concept: string;
  reference: string;
  tracking_key: string;
  result: PaymentBatchLine['result'];
  reason: string | null;
  settled_on: string | null;
  order_status: PaymentOrder['status'];
}

export async function batchLineRows(tx: Tx, batchId: string): Promise<LineRow[]> {
  return rowsOf<LineRow>(
    await tx.execute(sql`
      select l.line, l.order_id, o.number::int as order_number, o.kind, c.number::int as credit_number, l.beneficiary, l.beneficiary_id,
             l.clabe, l.amount, l.concept, l.reference, l.tracking_key, l.result, l.reason, l.settled_on, o.status as order_status
      from payment_batch_lines l join payment_orders o on o.id = l.order_id join credits c on c.id = o.credit_id
      where l.batch_id = ${batchId} order by l.line`),
  );
}

export async function listBatchLines(tx: Tx, batchId: string): Promise<{ items: PaymentBatchLine[] }> {
  await loadBatch(tx, batchId);
  const rows = await batchLineRows(tx, batchId);
  return {
    items: rows.map((row) => ({
      line: row.line,
      orderId: row.order_id,
      orderFolio: orderFolio(Number(row.order_number)),
      kind: row.kind,
      creditFolio: creditFolio(Number(row.credit_number)),
      beneficiary: row.beneficiary,
      clabe: row.clabe,
      amount: row.amount,
      concept: row.concept,
      reference: row.reference,
      trackingKey: row.tracking_key,
      result: row.result,
      reason: row.reason,
      settledOn: row.settled_on,
    })),
  };
}

// ------------------------------------------------------------------------------------------------------------ refunds

interface CandidateRow {
  id: string;
  number: number;
  client: string;
  clabe: string;
  credit_balance: string;
  committed: string;
  available: string;
  since: Date | string | null;
}

/** Credits with saldo a favor, the largest first, with what is already asked for and since when. */
export function listRefundCandidates(
  tx: Tx,
  query: { page: number; pageSize: number; q?: string | undefined },
): Promise<Paged<RefundCandidate>> {
  const number = query.q ? creditNumberOf(query.q) : null;
  const search = query.q
    ? sql`and ((cl.first_names || ' ' || cl.last_name_1 || ' ' || coalesce(cl.last_name_2, '')) ilike ${like(query.q)} ${number !== null ? sql`or c.number = ${number}` : sql``})`
    : sql``;
  return paged<CandidateRow, RefundCandidate>(
    tx,
    query,
    sql`select c.id, c.number::int as number, c.clabe, c.credit_balance::text, k.committed::text,
               greatest(c.credit_balance - k.committed, 0)::numeric(14, 2)::text as available,
               trim(cl.first_names || ' ' || cl.last_name_1 || ' ' || coalesce(cl.last_name_2, '')) as client,
               (select min(p.applied_at) from payments p where p.credit_id = c.id and p.overpayment > 0 and p.status = 'aplicado') as since`,
    sql`from credits c join clients cl on cl.id = c.client_id
        cross join lateral (select coalesce(sum(r.amount), 0)::numeric(14, 2) as committed from refunds r left join payment_orders o on o.refund_id = r.id
                            where r.credit_id = c.id and (r.status = 'solicitada' or (r.status = 'aprobada' and o.status in ('por enviar', 'en lote')))) k
        where c.credit_balance > 0 ${search}`,
    sql`order by c.credit_balance desc, c.number`,
    (row) => ({
      creditId: row.id,
      creditFolio: creditFolio(Number(row.number)),
      client: row.client,
      clabe: row.clabe,
      creditBalance: row.credit_balance,
      committed: row.committed,
      available: row.available,
      since: row.since === null ? null : iso(row.since)!.slice(0, 10),
    }),
  );
}

interface RefundRow {
  id: string;
  number: number;
  credit_id: string;
  credit_number: number;
  client: string;
  amount: string;
  clabe: string;
  clabe_source: Refund['clabeSource'];
  evidence: string | null;
  status: Refund['status'];
  order_status: Refund['orderStatus'];
  last_rejection_reason: string | null;
  decline_reason: string | null;
  requested_by: string | null;
  requested_at: Date | string;
  decided_by: string | null;
  decided_at: Date | string | null;
}

const refundSelect = sql`
  select r.id, r.number::int as number, r.credit_id, c.number::int as credit_number, r.amount, r.clabe, r.clabe_source, r.evidence,
         r.status, o.status as order_status, o.last_rejection_reason, r.decline_reason,
         trim(cl.first_names || ' ' || cl.last_name_1 || ' ' || coalesce(cl.last_name_2, '')) as client,
         (select email from users u where u.id = r.requested_by) as requested_by, r.requested_at,
         (select email from users u where u.id = r.decided_by) as decided_by, r.decided_at`;
const refundFrom = sql`from refunds r join credits c on c.id = r.credit_id join clients cl on cl.id = c.client_id
  left join payment_orders o on o.refund_id = r.id`;

const toRefund = (row: RefundRow): Refund => ({
  id: row.id,
  folio: refundFolio(Number(row.number)),
  creditId: row.credit_id,
  creditFolio: creditFolio(Number(row.credit_number)),
  client: row.client,
  amount: row.amount,
  clabe: row.clabe,
  clabeSource: row.clabe_source,
  evidence: row.evidence,
  status: row.status,
  orderStatus: row.order_status,
  lastRejectionReason: row.last_rejection_reason,
  declineReason: row.decline_reason,
  requestedBy: row.requested_by,
  requestedAt: iso(row.requested_at)!,
  decidedBy: row.decided_by,
  decidedAt: iso(row.decided_at),
});

export function listRefunds(tx: Tx, query: RefundListQuery): Promise<Paged<Refund>> {
  const number = query.q ? creditNumberOf(query.q) : null;
  return paged<RefundRow, Refund>(
    tx,
    query,
    refundSelect,
    sql`${refundFrom} where true ${query.status ? sql`and r.status = ${query.status}` : sql``}
        ${query.q ? sql`and (cl.first_names || ' ' || cl.last_name_1 || ' ' || coalesce(cl.last_name_2, '')) ilike ${like(query.q)} ${number !== null ? sql`or c.number = ${number}` : sql``}` : sql``}`,
    sql`order by (r.status = 'solicitada') desc, r.number desc`,
    toRefund,
  );
}

export async function loadRefund(tx: Tx, id: string): Promise<Refund> {
  const [row] = rowsOf<RefundRow>(await tx.execute(sql`${refundSelect} ${refundFrom} where r.id = ${id}`));
  if (!row) throw new HttpProblem(404, 'Devolución no encontrada', 'La devolución no existe o no es de tu empresa.');
  return toRefund(row);
}
