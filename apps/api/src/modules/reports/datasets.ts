import { sql, type SQL } from 'drizzle-orm';
import {
  reportDataset,
  type ReportDatasetKey,
  type ReportField,
  type ReportFilter,
  type ReportParameter,
  type ReportSort,
} from '@portal/contract';
import { HttpProblem } from '../../http/errors';
import { inTransitBy } from '../day-close/open-deductions';
import { agingBucketLabelSql } from '../shared/aging-sql';

/**
 * The datasets of the report catalogue (packages/contract REPORT_DATASETS) as query builders over the portfolio's
 * tables. Users choose fields, filters and a sort from the catalogue; the SQL is this file's, with the run's values as
 * parameters. Company scope is row-level security, as everywhere: a run's transaction sees one company.
 *
 * Every field is selected as text (`value`) so both drivers answer the same thing: money as a decimal string, dates as
 * YYYY-MM-DD, integers as numbers. Filters and sorts use the field's typed expression (`raw`).
 */

interface FieldSql {
  /** The value written to the file. */
  value: SQL;
  /** The typed expression filters and sorts use (the id for an agreement, the code for a bucket). */
  raw?: SQL;
}

interface DatasetSql {
  /** FROM and its joins. */
  from: SQL;
  /** The main table's company: row-level security scopes a run already; the condition also keeps every plan on the company's indexes. */
  company: string;
  /** The dataset's own condition, at the company's business date. */
  where?: (businessDate: string) => SQL;
  fields: Record<string, FieldSql | ((businessDate: string) => FieldSql)>;
  /** Unique order after the chosen sort, so a file is the same every time for the same data. */
  tieBreaker: SQL;
}

const MEXICO_DAY = (column: string) => sql.raw(`(${column} at time zone 'America/Mexico_City')::date`);
const asDate = (expression: SQL): FieldSql => ({ value: sql`to_char(${expression}, 'YYYY-MM-DD')`, raw: expression });
const dateColumn = (column: string) => asDate(sql.raw(column));
const timestampDay = (column: string) => asDate(MEXICO_DAY(column));
const moneyColumn = (expression: string): FieldSql => ({
  value: sql.raw(`(${expression})::numeric(14,2)::text`),
  raw: sql.raw(`(${expression})`),
});
const textColumn = (expression: string): FieldSql => ({ value: sql.raw(expression) });
const integerColumn = (expression: string): FieldSql => ({ value: sql.raw(`(${expression})::int`) });

const folio = (prefix: string, column: string, width: number) =>
  textColumn(`'${prefix}' || lpad(${column}::text, greatest(${width}, length(${column}::text)), '0')`);
const clientName = (alias: string) =>
  textColumn(`${alias}.first_names || ' ' || ${alias}.last_name_1 || coalesce(' ' || ${alias}.last_name_2, '')`);
const agreementField: FieldSql = { value: sql.raw('a.name'), raw: sql.raw('a.id') };
const BUCKET_TEXT = agingBucketLabelSql('c.aging_bucket');
const bucketField: FieldSql = { value: BUCKET_TEXT, raw: sql.raw('c.aging_bucket') };
const creditStatus: FieldSql = { value: sql.raw('c.status'), raw: sql.raw('c.status') };
const CREDIT_JOINS = 'join clients cl on cl.id = c.client_id join agreements a on a.id = c.agreement_id';

const DATASETS: Record<ReportDatasetKey, DatasetSql> = {
  'cartera-al-dia': {
    company: 'c.company_id',
    from: sql.raw(`credits c ${CREDIT_JOINS}`),
    fields: {
      folio: folio('CR-', 'c.number', 8),
      client: clientName('cl'),
      curp: textColumn('cl.curp'),
      employeeNumber: textColumn('c.employee_number'),
      agreement: agreementField,
      product: textColumn('c.product_name'),
      disbursementDate: dateColumn('c.disbursement_date'),
      principal: moneyColumn('c.principal'),
      term: integerColumn('c.term'),
      installment: moneyColumn('c.installment'),
      outstandingBalance: moneyColumn('c.outstanding_balance'),
      overdueBalance: moneyColumn('c.overdue_balance'),
      nextDiscountDate: dateColumn('c.next_discount_date'),
      daysPastDue: integerColumn('c.days_past_due'),
      bucket: bucketField,
      status: creditStatus,
      businessDate: (businessDate) => asDate(sql`${businessDate}::date`),
    },
    tieBreaker: sql.raw('c.number'),
  },
  'pagos-aplicados': {
    company: 'p.company_id',
    from: sql.raw(`payments p join credits c on c.id = p.credit_id ${CREDIT_JOINS} left join payment_files f on f.id = p.file_id`),
    fields: {
      folio: folio('CR-', 'c.number', 8),
      client: clientName('cl'),
      agreement: agreementField,
      fileName: textColumn('f.file_name'),
      valueDate: dateColumn('p.value_date'),
      amount: moneyColumn('p.amount'),
      principal: moneyColumn('p.principal'),
      interest: moneyColumn('p.interest'),
      iva: moneyColumn('p.iva'),
      moratory: moneyColumn('p.moratory_interest + p.moratory_iva'),
      fees: moneyColumn('p.fees + p.fees_iva'),
      overpayment: moneyColumn('p.overpayment'),
      status: { value: sql.raw('p.status'), raw: sql.raw('p.status') },
      appliedAt: timestampDay('p.applied_at'),
    },
    tieBreaker: sql.raw('p.sequence'),
  },
  'archivos-pago': {
    company: 'f.company_id',
    from: sql.raw('payment_files f join agreements a on a.id = f.agreement_id'),
    fields: {
      agreement: agreementField,
      discountDate: dateColumn('f.discount_date'),
      fileName: textColumn('f.file_name'),
      rowsTotal: integerColumn('f.rows_total'),
      rowsValid: integerColumn('f.rows_valid'),
      rowsRejected: integerColumn('f.rows_rejected'),
      amountTotal: moneyColumn('f.amount_total'),
      amountApplied: moneyColumn('f.amount_applied'),
      amountRejected: moneyColumn('f.amount_rejected'),
      expectedAmount: moneyColumn('f.expected_amount'),
      missingCount: integerColumn('f.missing_count'),
      status: { value: sql.raw('f.status'), raw: sql.raw('f.status') },
      uploadedAt: timestampDay('f.uploaded_at'),
    },
    tieBreaker: sql.raw('f.id'),
  },
  solicitudes: {
    company: 'r.company_id',
    from: sql.raw('requests r join agreements a on a.id = r.agreement_id join agreement_products ap on ap.id = r.product_id'),
    fields: {
      folio: folio('SOL-', 'r.number', 6),
      client: clientName('r'),
      employeeNumber: textColumn('r.employee_number'),
      agreement: agreementField,
      product: textColumn('ap.name'),
      amount: moneyColumn('r.amount'),
      term: integerColumn('r.term'),
      installment: moneyColumn('r.installment'),
      status: { value: sql.raw('r.status'), raw: sql.raw('r.status') },
      createdAt: timestampDay('r.created_at'),
      decidedAt: timestampDay('r.decided_at'),
    },
    tieBreaker: sql.raw('r.number'),
  },
  'vencimientos-proximos': {
    company: 'i.company_id',
    from: sql.raw(`installments i join credits c on c.id = i.credit_id ${CREDIT_JOINS}`),
    where: (businessDate) => sql`i.outstanding > 0 and i.due_date >= ${businessDate}::date`,
    fields: {
      folio: folio('CR-', 'c.number', 8),
      client: clientName('cl'),
      agreement: agreementField,
      number: integerColumn('i.number'),
      dueDate: dateColumn('i.due_date'),
      payment: moneyColumn('i.payment'),
      outstanding: moneyColumn('i.outstanding'),
      status: creditStatus,
    },
    tieBreaker: sql.raw('c.number, i.number'),
  },
  'cartera-en-transito': {
    company: 'd.company_id',
    from: sql.raw(`expected_deductions d join credits c on c.id = d.credit_id ${CREDIT_JOINS}`),
    where: (businessDate) => inTransitBy('d', businessDate),
    fields: {
      folio: folio('CR-', 'c.number', 8),
      client: clientName('cl'),
      employeeNumber: textColumn('c.employee_number'),
      agreement: agreementField,
      period: integerColumn('d.period'),
      discountDate: dateColumn('d.discount_date'),
      amount: moneyColumn('d.amount'),
      daysInTransit: (businessDate) => ({
        value: sql`(${businessDate}::date - d.discount_date)::int`,
        raw: sql`(${businessDate}::date - d.discount_date)`,
      }),
      status: creditStatus,
    },
    tieBreaker: sql.raw('c.number, d.period'),
  },
  'cartera-vencida': {
    company: 'c.company_id',
    from: sql.raw(`credits c ${CREDIT_JOINS}`),
    where: () => sql.raw(`c.days_past_due > 0 and c.status <> 'liquidado'`),
    fields: {
      folio: folio('CR-', 'c.number', 8),
      client: clientName('cl'),
      employeeNumber: textColumn('c.employee_number'),
      agreement: agreementField,
      daysPastDue: integerColumn('c.days_past_due'),
      bucket: bucketField,
      oldestUnpaidDueDate: (businessDate) =>
        asDate(
          sql`(select min(i.due_date) from installments i where i.company_id = c.company_id and i.credit_id = c.id and i.outstanding > 0 and i.due_date < ${businessDate}::date)`,
        ),
      overdueBalance: moneyColumn('c.overdue_balance'),
      outstandingBalance: moneyColumn('c.outstanding_balance'),
      status: creditStatus,
    },
    tieBreaker: sql.raw('c.number'),
  },
};

/** What a run asks of a dataset: the definition's choices and the run's parameters. */
export interface DatasetQueryInput {
  dataset: ReportDatasetKey;
  columns: readonly string[];
  filters: readonly ReportFilter[];
  sort: ReportSort | null;
  parameters: Record<string, ReportParameter>;
  /** The company whose rows the run reads, and its fecha flujo. */
  companyId: string;
  businessDate: string;
}

export interface DatasetQuery {
  /** The rows in order, each column named c0, c1… in the definition's order. */
  select: SQL;
  count: SQL;
  fields: ReportField[];
}

const invalid = (field: string, message: string) =>
  new HttpProblem(400, 'Parámetros inválidos', 'Revisa los parámetros del reporte.', [{ field: `parameters.${field}`, message }]);

/**
 * Builds the run's SQL. The definition was validated when saved; the parameters are checked here against each filter's
 * type (an agreement id, a status or bucket of the field's options, a date range from ≤ to). An empty parameter leaves
 * its filter out; a parameter for a filter the definition does not have is refused.
 */
export function datasetQuery(input: DatasetQueryInput): DatasetQuery {
  const catalogue = reportDataset(input.dataset)!;
  const spec = DATASETS[input.dataset];
  const fieldSql = (key: string): FieldSql => {
    const entry = spec.fields[key];
    if (!entry) throw new Error(`Campo desconocido en ${input.dataset}: ${key}`);
    return typeof entry === 'function' ? entry(input.businessDate) : entry;
  };
  const catalogueField = (key: string) => catalogue.fields.find((field) => field.key === key)!;
  for (const key of Object.keys(input.parameters)) {
    if (!input.filters.some((filter) => filter.field === key)) throw invalid(key, `El reporte no tiene un filtro «${key}».`);
  }
  const conditions: SQL[] = [sql`${sql.raw(spec.company)} = ${input.companyId}::uuid`];
  if (spec.where) conditions.push(spec.where(input.businessDate));
  for (const filter of input.filters) {
    const parameter = input.parameters[filter.field] ?? {};
    const field = catalogueField(filter.field);
    const target = fieldSql(filter.field);
    const raw = target.raw ?? target.value;
    if (filter.type === 'dateRange') {
      if (parameter.from && parameter.to && parameter.from > parameter.to)
        throw invalid(filter.field, `«${field.label}»: la fecha inicial es posterior a la final.`);
      if (parameter.from) conditions.push(sql`${raw} >= ${parameter.from}::date`);
      if (parameter.to) conditions.push(sql`${raw} <= ${parameter.to}::date`);
      continue;
    }
    const value = parameter.value?.trim();
    if (!value) continue;
    if (filter.type === 'agreement') {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value))
        throw invalid(filter.field, 'Convenio no válido.');
      conditions.push(sql`${raw} = ${value}::uuid`);
    } else {
      if (!field.options?.includes(value))
        throw invalid(filter.field, `«${field.label}»: «${value}» no es un valor válido (${(field.options ?? []).join(', ')}).`);
      conditions.push(sql`${raw} = ${value}`);
    }
  }
  const where = sql` where ${sql.join(conditions, sql` and `)}`;
  const columns = sql.join(
    input.columns.map((key, index) => sql`${fieldSql(key).value} as ${sql.raw(`c${index}`)}`),
    sql`, `,
  );
  const order: SQL[] = [];
  if (input.sort) {
    const target = fieldSql(input.sort.field);
    order.push(sql`${target.raw ?? target.value} ${sql.raw(input.sort.direction === 'desc' ? 'desc nulls last' : 'asc nulls last')}`);
  }
  order.push(spec.tieBreaker);
  return {
    select: sql`select ${columns} from ${spec.from}${where} order by ${sql.join(order, sql`, `)}`,
    count: sql`select count(*)::int as total from ${spec.from}${where}`,
    fields: input.columns.map(catalogueField),
  };
}
