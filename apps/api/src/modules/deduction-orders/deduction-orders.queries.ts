import { and, eq, ilike, inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type {
  DeductionMovement,
  DeductionOrder,
  DeductionOrderDifference,
  DeductionOrderLine,
  DeductionOrderLinesQuery,
  DeductionOrderListQuery,
} from '@portal/contract';
import type { Tx } from '../../db/client';
import { fixedSelect } from '../../db/fixed-select';
import { rowsOf } from '../../db/rows';
import { agreements } from '../../db/schema/agreements';
import { deductionOrderLines, deductionOrders } from '../../db/schema/deduction-orders';
import { companies } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { fixedCount, listOrder, pagedList, type Paged } from '../../http/pagination';
import { creditFolio, creditNumberOf } from '../shared/folios';

const emailOf = (column: AnyColumn, alias: string) => sql<string | null>`(select email from users u where u.id = ${column})`.as(alias);

/** A cédula with its agreement, company, the people who acted on it and the one that replaced it. */
const orderList = fixedSelect(
  {
    order: deductionOrders,
    agreement: agreements.name,
    company: companies.name,
    generatedBy: emailOf(deductionOrders.generatedBy, 'generated_by_email'),
    issuedBy: emailOf(deductionOrders.issuedBy, 'issued_by_email'),
    sentBy: emailOf(deductionOrders.sentBy, 'sent_by_email'),
    supersededById: sql<string | null>`(select s.id from deduction_orders s where s.supersedes_id = ${deductionOrders.id} limit 1)`.as(
      'superseded_by_id',
    ),
  },
  (select) =>
    select
      .from(deductionOrders)
      .innerJoin(agreements, eq(agreements.id, deductionOrders.agreementId))
      .innerJoin(companies, eq(companies.id, deductionOrders.companyId)),
);

type OrderRow = Awaited<ReturnType<ReturnType<typeof orderList.in>['where']>>[number];

const sum = (...amounts: string[]) => {
  const cents = amounts.reduce((total, amount) => total + BigInt(amount.replace('.', '')), 0n);
  const sign = cents < 0n ? '-' : '';
  const digits = (cents < 0n ? -cents : cents).toString().padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
};

function toDeductionOrder(row: OrderRow): DeductionOrder {
  const { order } = row;
  return {
    id: order.id,
    agreementId: order.agreementId,
    agreement: row.agreement,
    company: row.company,
    payday: order.payday,
    cutOffDate: order.cutOffDate,
    businessDate: order.businessDate,
    status: order.status,
    altas: { count: order.altasCount, amount: order.altasAmount },
    bajas: { count: order.bajasCount, amount: order.bajasAmount },
    cambios: { count: order.cambiosCount, amount: order.cambiosAmount },
    continuing: { count: order.continuingCount, amount: order.continuingAmount },
    instructedCount: order.altasCount + order.cambiosCount + order.continuingCount,
    instructedAmount: sum(order.altasAmount, order.cambiosAmount, order.continuingAmount),
    generatedBy: row.generatedBy,
    generatedAt: order.generatedAt.toISOString(),
    issuedBy: row.issuedBy,
    issuedAt: order.issuedAt?.toISOString() ?? null,
    sentOn: order.sentOn,
    sentChannel: order.sentChannel,
    sentNote: order.sentNote,
    sentBy: row.sentBy,
    supersedesId: order.supersedesId,
    supersededById: row.supersededById,
  };
}

/** One cédula as its screen shows it; 404 when it is not the user's to see (row-level security). */
export async function loadDeductionOrder(tx: Tx, id: string): Promise<DeductionOrder> {
  const [row] = await orderList.in(tx).where(eq(deductionOrders.id, id));
  if (!row) throw new HttpProblem(404, 'Cédula no encontrada', 'La cédula no existe o no es de tu empresa.');
  return toDeductionOrder(row);
}

const ORDER_SORT = {
  payday: deductionOrders.payday,
  agreement: agreements.name,
  status: deductionOrders.status,
  generatedAt: deductionOrders.generatedAt,
};

const orderCount = fixedCount((select) =>
  select.from(deductionOrders).innerJoin(agreements, eq(agreements.id, deductionOrders.agreementId)),
);

/** Cédulas de descuento: the latest payday first unless sorted otherwise. */
export function listDeductionOrders(tx: Tx, query: DeductionOrderListQuery): Promise<Paged<DeductionOrder>> {
  const { page, pageSize, sort, q, agreementId, status } = query;
  const where = and(
    q ? ilike(agreements.name, `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
    agreementId ? eq(deductionOrders.agreementId, agreementId) : undefined,
    status ? eq(deductionOrders.status, status) : undefined,
  );
  return pagedList(
    { page, pageSize },
    orderList
      .in(tx)
      .where(where)
      .orderBy(...listOrder(ORDER_SORT, sort, { field: 'payday', descending: true }, deductionOrders.id)),
    orderCount.in(tx).where(where),
    toDeductionOrder,
  );
}

const lineList = fixedSelect({ line: deductionOrderLines }, (select) => select.from(deductionOrderLines));
const lineCount = fixedCount((select) => select.from(deductionOrderLines));

const toLine = ({ line }: { line: typeof deductionOrderLines.$inferSelect }): DeductionOrderLine => ({
  line: line.line,
  creditId: line.creditId,
  creditFolio: creditFolio(line.creditNumber),
  employeeNumber: line.employeeNumber,
  curp: line.curp,
  name: line.name,
  movement: line.movement,
  amountBefore: line.amountBefore,
  amountAfter: line.amountAfter,
  reason: line.reason,
  replacesCreditFolio: line.replacesCreditNumber === null ? null : creditFolio(line.replacesCreditNumber),
});

const MOVING: DeductionMovement[] = ['alta', 'baja', 'cambio'];

/** A cédula's lines in its order, one movement or the moving ones, searched by folio, employee number, CURP or name. */
export async function listDeductionOrderLines(
  tx: Tx,
  orderId: string,
  query: DeductionOrderLinesQuery,
): Promise<Paged<DeductionOrderLine>> {
  await loadDeductionOrder(tx, orderId);
  const { page, pageSize, group, q } = query;
  const number = q ? creditNumberOf(q) : null;
  const pattern = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = and(
    eq(deductionOrderLines.orderId, orderId),
    group === 'todas'
      ? undefined
      : group === 'movimientos'
        ? inArray(deductionOrderLines.movement, MOVING)
        : eq(deductionOrderLines.movement, group),
    pattern
      ? or(
          number !== null ? eq(deductionOrderLines.creditNumber, number) : undefined,
          eq(deductionOrderLines.employeeNumber, q!),
          ilike(deductionOrderLines.curp, pattern),
          ilike(deductionOrderLines.name, pattern),
        )
      : undefined,
  );
  return pagedList(
    { page, pageSize },
    lineList
      .in(tx)
      .where(where)
      .orderBy(sql`${deductionOrderLines.line}`),
    lineCount.in(tx).where(where),
    toLine,
  );
}

/**
 * Each credit whose instruction differs between two cédulas of a payday (a substitution and the one it replaced): a
 * movement or an amount that changed, or a credit in only one of them.
 */
export function differenceQuery(newId: string, oldId: string): SQL {
  return sql`
    select coalesce(n.credit_number, o.credit_number) as "creditNumber", coalesce(n.employee_number, o.employee_number) as "employeeNumber",
           coalesce(n.name, o.name) as name, o.movement as "oldMovement", o.amount_after::text as "oldAmount",
           n.movement as "newMovement", n.amount_after::text as "newAmount"
    from (select * from deduction_order_lines where order_id = ${newId}) n
    full join (select * from deduction_order_lines where order_id = ${oldId}) o on o.credit_id = n.credit_id
    where n.credit_id is null or o.credit_id is null or n.movement <> o.movement or n.amount_after <> o.amount_after
    order by 2, 1`;
}

interface DifferenceRow {
  creditNumber: number;
  employeeNumber: string;
  name: string;
  oldMovement: DeductionMovement | null;
  oldAmount: string | null;
  newMovement: DeductionMovement | null;
  newAmount: string | null;
}

export async function differencesBetween(tx: Tx, newId: string, oldId: string): Promise<DeductionOrderDifference[]> {
  const rows = rowsOf<DifferenceRow>(await tx.execute(differenceQuery(newId, oldId)));
  return rows.map((row) => ({
    creditFolio: creditFolio(row.creditNumber),
    employeeNumber: row.employeeNumber,
    name: row.name,
    before: row.oldMovement ? { movement: row.oldMovement, amount: row.oldAmount! } : null,
    after: row.newMovement ? { movement: row.newMovement, amount: row.newAmount! } : null,
  }));
}

/** What a substitution changed; empty for a cédula that replaced none. */
export async function deductionOrderDifferences(tx: Tx, id: string): Promise<DeductionOrderDifference[]> {
  const order = await loadDeductionOrder(tx, id);
  return order.supersedesId ? differencesBetween(tx, order.id, order.supersedesId) : [];
}
