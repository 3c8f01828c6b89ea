import { eq, sql, type SQL } from 'drizzle-orm';
import { APPLIED_OUTCOMES, type EmployerStatement, type EmployerStatementLine, type StatementLineGroup } from '@portal/contract';
import { addDays } from '@portal/lending';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { agreements } from '../../db/schema/agreements';
import { HttpProblem } from '../../http/errors';
import { cappedTotal, countUpToSql } from '../../http/pagination';
import { businessDateOf } from '../shared/business-date';
import { creditFolio } from '../shared/folios';
import { standingOrderId } from '../shared/payday-instruction';

/**
 * Estado de cuenta por convenio (issue 46; docs/domain.md "Estado de cuenta por convenio"). Per agreement and payday:
 *
 * - instructed: the lines of the payday's standing cédula the employer deducts (altas, cambios, continúan);
 * - received: the accepted rows (válido, sobrepago) of the payday's applied payment files, whatever credit they pay;
 * - missing (no aplicado): instructed lines whose credit no accepted row of an applied file of the payday paid.
 *
 * Each is one statement over indexes: the cédula's lines by its primary key (order_id, credit_id), the payday's files
 * by payment_files_agreement_idx, their rows by file, and a credit's row of those files by
 * payment_file_rows_credit_idx.
 */

const APPLIED = sql.raw(`(${APPLIED_OUTCOMES.map((outcome) => `'${outcome}'`).join(', ')})`);

/** The payday's accepted rows of applied files, one per credit (a credit paid twice counts its money once here). */
const receivedOf = (agreementId: SQL | string, payday: SQL | string) => sql`
  select r.credit_id, sum(r.amount) as amount
  from payment_files f join payment_file_rows r on r.file_id = f.id
  where f.agreement_id = ${agreementId} and f.discount_date = ${payday} and f.status = 'aplicado'
    and r.outcome in ${APPLIED} and r.credit_id is not null
  group by r.credit_id`;

/** The month's paydays with a standing cédula, each agreement's against its applied files, and the month's totals. */
export async function employerStatementOf(tx: Tx, query: { month: string; agreementId?: string | undefined }): Promise<EmployerStatement> {
  const from = `${query.month}-01`;
  const to = addDays(`${addMonth(query.month)}-01`, -1);
  const rows = rowsOf<{
    agreement_id: string;
    agreement: string;
    payday: string;
    order_id: string;
    status: string;
    instructed_count: number;
    instructed_amount: string;
    received_count: number;
    received_amount: string;
    missing_count: number;
    missing_amount: string;
  }>(
    await tx.execute(sql`
      select o.agreement_id, a.name as agreement, to_char(o.payday, 'YYYY-MM-DD') as payday, o.id as order_id, o.status,
             (o.altas_count + o.cambios_count + o.continuing_count)::int as instructed_count,
             (o.altas_amount + o.cambios_amount + o.continuing_amount)::text as instructed_amount,
             rc.count::int as received_count, rc.amount::text as received_amount,
             m.count::int as missing_count, m.amount::text as missing_amount
      from deduction_orders o
      join agreements a on a.id = o.agreement_id
      cross join lateral (
        select count(*) as count, coalesce(sum(x.amount), 0.00) as amount from (${receivedOf(sql`o.agreement_id`, sql`o.payday`)}) x
      ) rc
      cross join lateral (
        select count(*) as count, coalesce(sum(l.amount_after), 0.00) as amount
        from deduction_order_lines l
        where l.order_id = o.id and l.movement <> 'baja' and not exists (
          select 1 from payment_file_rows r join payment_files f on f.id = r.file_id
          where r.credit_id = l.credit_id and r.outcome in ${APPLIED}
            and f.agreement_id = o.agreement_id and f.discount_date = o.payday and f.status = 'aplicado')
      ) m
      where o.status in ('emitida', 'enviada') and o.payday between ${from}::date and ${to}::date
        ${query.agreementId ? sql`and o.agreement_id = ${query.agreementId}` : sql``}
      order by o.payday, a.name`),
  );
  const paydays = rows.map((row) => ({
    agreementId: row.agreement_id,
    agreement: row.agreement,
    payday: row.payday,
    orderId: row.order_id,
    orderStatus: row.status,
    instructed: { count: row.instructed_count, amount: row.instructed_amount },
    received: { count: row.received_count, amount: row.received_amount },
    missing: { count: row.missing_count, amount: row.missing_amount },
  }));
  const total = (pick: (row: (typeof paydays)[number]) => { count: number; amount: string }) => ({
    count: paydays.reduce((sum, row) => sum + pick(row).count, 0),
    amount: centsText(paydays.reduce((sum, row) => sum + cents(pick(row).amount), 0n)),
  });
  return {
    month: query.month,
    paydays,
    totals: { instructed: total((row) => row.instructed), received: total((row) => row.received), missing: total((row) => row.missing) },
  };
}

const addMonth = (month: string) => {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
};
const cents = (amount: string) => BigInt(amount.replace('.', ''));
function centsText(value: bigint): string {
  const sign = value < 0n ? '-' : '';
  const digits = (value < 0n ? -value : value).toString().padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * The lines of one agreement's payday: instructed lines with what was received for each, and received rows of credits
 * the cédula did not instruct; filtered to a group. Ordered as the cédula (employee number, folio).
 */
function linesSql(agreementId: string, payday: string, group: StatementLineGroup): SQL {
  const filter =
    group === 'instruidos'
      ? sql`l.credit_id is not null`
      : group === 'recibidos'
        ? sql`x.credit_id is not null`
        : sql`l.credit_id is not null and x.credit_id is null`;
  return sql`
    from (select credit_id, amount_after from deduction_order_lines
          where order_id = ${standingOrderId(agreementId, sql`${payday}::date`)} and movement <> 'baja') l
    full join (${receivedOf(agreementId, sql`${payday}::date`)}) x on x.credit_id = l.credit_id
    join credits c on c.id = coalesce(l.credit_id, x.credit_id)
    join clients k on k.id = c.client_id
    where ${filter}`;
}

/** The agreement (404 outside the user's company) and the fecha flujo its days since are counted to. */
async function agreementDate(tx: Tx, agreementId: string, today: string) {
  const [agreement] = await tx.select({ companyId: agreements.companyId }).from(agreements).where(eq(agreements.id, agreementId));
  if (!agreement) throw new HttpProblem(404, 'Convenio no encontrado', 'El convenio no existe o no es de tu empresa.');
  return businessDateOf(tx, agreement.companyId, today);
}

type LineRow = {
  credit_id: string;
  number: string | number;
  employee_number: string;
  name: string;
  instructed: string | null;
  received: string | null;
};

function toLine(row: LineRow, payday: string, businessDate: string): EmployerStatementLine {
  return {
    creditId: row.credit_id,
    creditFolio: creditFolio(Number(row.number)),
    employeeNumber: row.employee_number,
    name: row.name,
    payday,
    instructedAmount: row.instructed,
    receivedAmount: row.received,
    daysSince: Math.round((Date.parse(businessDate) - Date.parse(payday)) / 86_400_000),
  };
}

const LINE_COLUMNS = sql`c.id as credit_id, c.number, c.employee_number,
  trim(concat_ws(' ', k.first_names, k.last_name_1, k.last_name_2)) as name,
  l.amount_after::text as instructed, x.amount::text as received`;

/** A page of the lines behind one figure. */
export async function employerStatementLines(
  tx: Tx,
  query: { agreementId: string; payday: string; group: StatementLineGroup; page: number; pageSize: number },
  today: string,
) {
  const businessDate = await agreementDate(tx, query.agreementId, today);
  const base = linesSql(query.agreementId, query.payday, query.group);
  const items = rowsOf<LineRow>(
    await tx.execute(sql`select ${LINE_COLUMNS} ${base}
      order by c.employee_number, c.number limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`),
  );
  const [counted] = rowsOf<{ total: number }>(await tx.execute(countUpToSql(sql`select 1 ${base}`)));
  return { items: items.map((row) => toLine(row, query.payday, businessDate)), ...cappedTotal(counted?.total ?? 0) };
}

/** The missing lines of a payday a batch at a time, for the follow-up workbook (keyset on employee number and folio). */
export async function missingLinesBatch(
  tx: Tx,
  query: { agreementId: string; payday: string },
  today: string,
  after: { employeeNumber: string; number: number } | undefined,
  limit: number,
): Promise<(EmployerStatementLine & { number: number })[]> {
  const businessDate = await agreementDate(tx, query.agreementId, today);
  const base = linesSql(query.agreementId, query.payday, 'faltantes');
  const rows = rowsOf<LineRow>(
    await tx.execute(sql`select ${LINE_COLUMNS} ${base}
      ${after ? sql`and (c.employee_number, c.number) > (${after.employeeNumber}, ${after.number})` : sql``}
      order by c.employee_number, c.number limit ${limit}`),
  );
  return rows.map((row) => ({ ...toLine(row, query.payday, businessDate), number: Number(row.number) }));
}
