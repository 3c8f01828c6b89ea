import { and, asc, eq, gte, ilike, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { addDays } from '@portal/lending';
import {
  APPLIED_OUTCOMES,
  isAppliedOutcome,
  layoutSchema,
  type PaymentFile,
  type PaymentFileListQuery,
  type PaymentFileRow,
  type PaymentListQuery,
  type PaymentTotals,
  type UploadOption,
} from '@portal/contract';
import type { Tx } from '../../db/client';
import { fixedSelect } from '../../db/fixed-select';
import { rowsOf } from '../../db/rows';
import { agreements } from '../../db/schema/agreements';
import { credits } from '../../db/schema/credits';
import { clients } from '../../db/schema/origination';
import { paymentApplications, paymentFileRows, paymentFiles, payments } from '../../db/schema/payments';
import { companies } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { cappedTotal, countUpToSql, fixedCount, listOrder, type Paged, pagedList } from '../../http/pagination';
import { businessDateOf } from '../shared/business-date';
import { linesOf, splitColumns, splitOf } from '../shared/payment-split';
import { creditFolio, creditNumberOf } from '../shared/folios';
import { paydayInstruction } from '../shared/payday-instruction';
import { instructedAmountOf } from './matching';

const APPLIED = sql.raw(`(${APPLIED_OUTCOMES.map((outcome) => `'${outcome}'`).join(', ')})`);

const uploader = sql<string | null>`(select email from users u where u.id = ${paymentFiles.uploadedBy})`.as('uploader');
const applier = sql<string | null>`(select email from users u where u.id = ${paymentFiles.appliedBy})`.as('applier');
const reverter = sql<string | null>`(select email from users u where u.id = ${paymentFiles.revertedBy})`.as('reverter');

/** A file with its agreement, company, the people who acted on it and its latest application. */
const fileList = fixedSelect(
  {
    file: {
      id: paymentFiles.id,
      agreementId: paymentFiles.agreementId,
      discountDate: paymentFiles.discountDate,
      fileName: paymentFiles.fileName,
      sha256: paymentFiles.sha256,
      size: paymentFiles.size,
      encoding: paymentFiles.encoding,
      status: paymentFiles.status,
      statusReason: paymentFiles.statusReason,
      rowsTotal: paymentFiles.rowsTotal,
      rowsValid: paymentFiles.rowsValid,
      rowsRejected: paymentFiles.rowsRejected,
      rowsOverpaying: paymentFiles.rowsOverpaying,
      rowsPaidElsewhere: paymentFiles.rowsPaidElsewhere,
      amountTotal: paymentFiles.amountTotal,
      amountValid: paymentFiles.amountValid,
      amountRejected: paymentFiles.amountRejected,
      amountApplied: paymentFiles.amountApplied,
      overpayment: paymentFiles.overpayment,
      expectedAmount: paymentFiles.expectedAmount,
      expectedCount: paymentFiles.expectedCount,
      missingCount: paymentFiles.missingCount,
      uploadedAt: paymentFiles.uploadedAt,
      appliedAt: paymentFiles.appliedAt,
      revertedAt: paymentFiles.revertedAt,
    },
    agreement: agreements.name,
    company: companies.name,
    uploadedBy: uploader,
    appliedBy: applier,
    revertedBy: reverter,
    application: {
      status: paymentApplications.status,
      rowsDone: paymentApplications.rowsDone,
      error: paymentApplications.error,
    },
  },
  (select) =>
    select
      .from(paymentFiles)
      .innerJoin(agreements, eq(agreements.id, paymentFiles.agreementId))
      .innerJoin(companies, eq(companies.id, paymentFiles.companyId))
      .leftJoin(
        paymentApplications,
        eq(
          paymentApplications.id,
          sql`(select a.id from payment_applications a where a.file_id = ${paymentFiles.id} order by a.requested_at desc limit 1)`,
        ),
      ),
);
const fileSelect = (tx: Tx) => fileList.in(tx);

type FileRow = Awaited<ReturnType<typeof fileSelect>>[number];

function toPaymentFile(row: FileRow): PaymentFile {
  const { file, application } = row;
  return {
    ...file,
    agreement: row.agreement,
    company: row.company,
    uploadedBy: row.uploadedBy,
    appliedBy: row.appliedBy,
    revertedBy: row.revertedBy,
    uploadedAt: file.uploadedAt.toISOString(),
    appliedAt: file.appliedAt?.toISOString() ?? null,
    revertedAt: file.revertedAt?.toISOString() ?? null,
    applyState: application?.status ?? null,
    applyDone: application?.rowsDone ?? 0,
    applyError: application?.error ?? null,
  };
}

/** One file as its screens show it; 404 when it is not the user's to see (row-level security). */
export async function loadPaymentFile(tx: Tx, id: string): Promise<PaymentFile> {
  const [row] = await fileSelect(tx).where(eq(paymentFiles.id, id));
  if (!row) throw new HttpProblem(404, 'Archivo no encontrado', 'El archivo no existe o no es de tu empresa.');
  return toPaymentFile(row);
}

function fileFilters(query: Omit<PaymentFileListQuery, 'page' | 'pageSize' | 'sort'>): SQL | undefined {
  return and(
    query.q ? ilike(paymentFiles.fileName, `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
    query.agreementId ? eq(paymentFiles.agreementId, query.agreementId) : undefined,
    query.status ? eq(paymentFiles.status, query.status) : undefined,
    query.discountFrom ? gte(paymentFiles.discountDate, query.discountFrom) : undefined,
    query.discountTo ? lte(paymentFiles.discountDate, query.discountTo) : undefined,
  );
}

const FILE_SORT = {
  uploadedAt: paymentFiles.uploadedAt,
  discountDate: paymentFiles.discountDate,
  agreement: agreements.name,
  status: paymentFiles.status,
  amountApplied: paymentFiles.amountApplied,
};

const fileCount = fixedCount((select) => select.from(paymentFiles).innerJoin(agreements, eq(agreements.id, paymentFiles.agreementId)));

/** Listado de archivos de pagos: newest first unless sorted otherwise. */
export function listPaymentFiles(tx: Tx, query: PaymentFileListQuery): Promise<Paged<PaymentFile>> {
  const { page, pageSize, sort, ...filters } = query;
  const where = fileFilters(filters);
  return pagedList(
    { page, pageSize },
    fileSelect(tx)
      .where(where)
      .orderBy(...listOrder(FILE_SORT, sort, { field: 'uploadedAt', descending: true }, paymentFiles.id)),
    fileCount.in(tx).where(where),
    toPaymentFile,
  );
}

const fileRowList = fixedSelect(
  {
    row: paymentFileRows,
    creditNumber: credits.number,
    payment: { id: payments.id, status: payments.status, allocation: payments.allocation, ...splitColumns },
  },
  (select) =>
    select
      .from(paymentFileRows)
      .leftJoin(credits, eq(credits.id, paymentFileRows.creditId))
      .leftJoin(payments, and(eq(payments.fileId, paymentFileRows.fileId), eq(payments.fileLine, paymentFileRows.line))),
);

const fileRowCount = fixedCount((select) => select.from(paymentFileRows));

/** A file's rows in line order, each with its outcome and, once applied, its payment's split and waterfall. */
export async function paymentFileRowsPage(
  tx: Tx,
  fileId: string,
  query: { page: number; pageSize: number; group: 'todos' | 'aceptados' | 'rechazados' },
): Promise<Paged<PaymentFileRow>> {
  const file = await loadPaymentFile(tx, fileId);
  const group =
    query.group === 'aceptados'
      ? inArray(paymentFileRows.outcome, APPLIED_OUTCOMES)
      : query.group === 'rechazados'
        ? sql`${paymentFileRows.outcome} not in ${APPLIED}`
        : undefined;
  const where = and(eq(paymentFileRows.fileId, fileId), group);
  const page = await pagedList(
    query,
    fileRowList.in(tx).where(where).orderBy(asc(paymentFileRows.line)),
    fileRowCount.in(tx).where(where),
    ({ row, creditNumber, payment }) => ({
      line: row.line,
      raw: row.raw,
      creditRef: row.creditRef,
      employeeNumber: row.employeeNumber,
      curpRfc: row.curpRfc,
      amount: row.amount,
      period: row.period,
      reference: row.reference,
      outcome: row.outcome,
      message: row.message,
      creditId: row.creditId,
      creditFolio: creditNumber === null ? null : creditFolio(creditNumber),
      paymentId: payment?.id ?? null,
      paymentStatus: payment?.status ?? null,
      split: payment ? splitOf(payment) : null,
      allocation: payment ? linesOf(payment.allocation) : [],
      instructedAmount: null,
      amountDiffers: false,
    }),
  );
  // Against the standing cédula of the file's payday (the one a substitution left), the page's rows only.
  const instruction = await paydayInstruction(
    tx,
    file.agreementId,
    file.discountDate,
    page.items.flatMap((row) => (row.creditId ? [row.creditId] : [])),
  );
  return {
    ...page,
    items: page.items.map((row) =>
      isAppliedOutcome(row.outcome) ? { ...row, ...instructedAmountOf(instruction, row.creditId, row.amount) } : row,
    ),
  };
}

/** The agreement's deductions expected on the date (of credits still owing, or received), and which no accepted row pays. */
const EXPECTED_FROM = sql`from expected_deductions e join credits c on c.id = e.credit_id and c.company_id = e.company_id`;
/**
 * The agreement's deductions of the date, but a paid-off credit's unless it was received. Read from the index of the
 * date (company, date, credit and amount: expected_deductions_company_date_idx), which the agreement's company leads:
 * joined to the credits' company alone, the index could not be entered and the whole table was scanned. The state is
 * looked up only for a credit already liquidado, by its key (OFFSET keeps PostgreSQL from hashing every deduction
 * received of the company to answer the few paid-off credits).
 */
const expectedOn = (agreementId: string, discountDate: string) =>
  sql`e.company_id = (select a.company_id from agreements a where a.id = ${agreementId}) and c.agreement_id = ${agreementId}
      and e.discount_date = ${discountDate} and (c.status <> 'liquidado' or exists (
        select 1 from expected_deductions s where s.credit_id = e.credit_id and s.discount_date = e.discount_date and s.state = 'recibido' offset 0))`;
/**
 * The credits another applied file of the agreement and date paid (its accepted rows), and the file: their deduction
 * of the date was received there. What a file of the same date finds already paid, read from the files' rows rather
 * than the deductions' state, which no index holds (decision 0016).
 */
export const paidByOtherFiles = (fileId: string | null, agreementId: string, discountDate: string) => sql`
  select r.credit_id, f.file_name from payment_files f join payment_file_rows r on r.file_id = f.id
  where f.agreement_id = ${agreementId} and f.discount_date = ${discountDate} and f.status = 'aplicado'
    and r.credit_id is not null and r.outcome in ${APPLIED} ${fileId === null ? sql`` : sql`and f.id <> ${fileId}`}`;
/** Not paid by the file's accepted rows, nor by another applied file of its agreement and date. */
const unpaid = (fileId: string, agreementId: string, discountDate: string) =>
  sql`e.credit_id not in (select r.credit_id from payment_file_rows r where r.file_id = ${fileId} and r.credit_id is not null and r.outcome in ${APPLIED})
      and e.credit_id not in (select credit_id from (${paidByOtherFiles(fileId, agreementId, discountDate)}) paid)`;

/**
 * A file's row figures as the upload counts them from the rows it has just classified and written (summarize's `r`):
 * the rows, those accepted (válido or sobrepago), the sobrepagos, the accepted whose credit another applied file of
 * the date paid, and the amounts read whole and accepted (pesos, two decimals).
 */
export interface RowFigures {
  total: number;
  valid: number;
  overpaying: number;
  paidElsewhere: number;
  amount: string;
  amountValid: string;
}

/**
 * The file's totals from its rows, and what the agreement's credits expected on the date against what arrived. The
 * upload passes the row figures it counted (a second pass over the rows it has just written would read them all
 * again); the application counts them from the rows.
 */
export async function summarize(tx: Tx, fileId: string, agreementId: string, discountDate: string, counted?: RowFigures): Promise<void> {
  const rowFigures = counted
    ? sql`select ${counted.total}::int as total, ${counted.valid}::int as valid, ${counted.overpaying}::int as overpaying,
             ${counted.paidElsewhere}::int as paid_elsewhere, ${counted.amount}::numeric as amount, ${counted.amountValid}::numeric as amount_valid`
    : sql`select count(*)::int as total, (count(*) filter (where outcome in ${APPLIED}))::int as valid,
             (count(*) filter (where outcome = 'sobrepago'))::int as overpaying,
             (count(*) filter (where outcome in ${APPLIED} and credit_id in (select credit_id from (${paidByOtherFiles(fileId, agreementId, discountDate)}) paid)))::int as paid_elsewhere,
             coalesce(sum(amount), 0) as amount, coalesce(sum(amount) filter (where outcome in ${APPLIED}), 0) as amount_valid
      from ${paymentFileRows} where file_id = ${fileId}`;
  await tx.execute(sql`
    update ${paymentFiles} f set
      rows_total = r.total, rows_valid = r.valid, rows_rejected = r.total - r.valid, rows_overpaying = r.overpaying, rows_paid_elsewhere = r.paid_elsewhere,
      amount_total = r.amount, amount_valid = r.amount_valid, amount_rejected = r.amount - r.amount_valid,
      expected_amount = x.amount, expected_count = x.count, missing_count = x.missing
    from (${rowFigures}) r, (
      select count(*)::int as count, coalesce(sum(e.amount), 0) as amount, (count(*) filter (where ${unpaid(fileId, agreementId, discountDate)}))::int as missing
      ${EXPECTED_FROM} where ${expectedOn(agreementId, discountDate)}
    ) x
    where f.id = ${fileId}`);
}

/** Descuentos faltantes: the expected deductions on the file's date that no accepted row pays, of this file or another applied one. */
export async function missingDeductions(tx: Tx, fileId: string, query: { page: number; pageSize: number }) {
  const file = await loadPaymentFile(tx, fileId);
  const base = sql`${EXPECTED_FROM} join clients k on k.id = c.client_id where ${expectedOn(file.agreementId, file.discountDate)} and ${unpaid(fileId, file.agreementId, file.discountDate)}`;
  const items = rowsOf<{
    credit_id: string;
    number: string;
    client_name: string;
    employee_number: string;
    period: number;
    amount: string;
    state: string;
  }>(
    await tx.execute(sql`
      select c.id as credit_id, c.number, trim(concat_ws(' ', k.first_names, k.last_name_1, k.last_name_2)) as client_name, c.employee_number,
             e.period, e.amount::text as amount, e.state
      ${base}
      order by c.number limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`),
  );
  const [counted] = rowsOf<{ total: number }>(await tx.execute(countUpToSql(sql`select 1 ${base}`)));
  return {
    items: items.map((row) => ({
      creditId: row.credit_id,
      creditFolio: creditFolio(Number(row.number)),
      clientName: row.client_name,
      employeeNumber: row.employee_number,
      period: row.period,
      amount: row.amount,
      state: row.state,
    })),
    ...cappedTotal(counted?.total ?? 0),
  };
}

/** How far back a late file is still taken: the paydays of the last four months. */
export const LATE_FILE_DAYS = 120;

/**
 * The paydays a payment file of the agreement may be loaded for, newest first: each date up to the company's business
 * date (today's payday included before its day is closed) on which a credit of the agreement still has a deduction
 * expected, en tránsito or no aplicado — so after a close the paydays before stay on offer while a late file can still
 * pay them, and a payday wholly received is not. The upload form offers exactly these and the upload takes only these.
 * The dates are found by skipping through the company's date index (one probe per distinct date, not per deduction).
 */
export async function pendingPaydays(tx: Tx, agreement: { id: string; companyId: string }, businessDate: string): Promise<string[]> {
  const from = addDays(businessDate, -LATE_FILE_DAYS);
  const rows = rowsOf<{ date: string }>(
    await tx.execute(sql`
      with recursive dates(day) as (
        (select discount_date from expected_deductions
         where company_id = ${agreement.companyId} and discount_date between ${from}::date and ${businessDate}::date
         order by discount_date limit 1)
        union all
        select (select e.discount_date from expected_deductions e
                where e.company_id = ${agreement.companyId} and e.discount_date > dates.day and e.discount_date <= ${businessDate}::date
                order by e.discount_date limit 1)
        from dates where dates.day is not null
      )
      select to_char(day, 'YYYY-MM-DD') as date from dates
      where day is not null and ${owedOn(agreement, sql`dates.day`)}
      order by day desc`),
  );
  return rows.map((row) => row.date);
}

/** A credit of the agreement still has a deduction of `day` expected, en tránsito or no aplicado. */
const owedOn = (agreement: { id: string; companyId: string }, day: SQL): SQL => sql`exists (
  select 1 from expected_deductions e join credits c on c.id = e.credit_id
  where e.company_id = ${agreement.companyId} and e.discount_date = ${day} and c.agreement_id = ${agreement.id}
    and e.state in ('esperado', 'en tránsito', 'no aplicado'))`;

/**
 * Whether `date` is one of pendingPaydays: the upload's check, one date probed instead of every date of the window
 * (a wholly received payday is read to its end to find nothing owed: 3.4–4.3 s of a 90,000-row file's upload).
 */
export async function isPendingPayday(
  tx: Tx,
  agreement: { id: string; companyId: string },
  businessDate: string,
  date: string,
): Promise<boolean> {
  if (date < addDays(businessDate, -LATE_FILE_DAYS) || date > businessDate) return false;
  const [row] = rowsOf<{ pending: boolean }>(await tx.execute(sql`select ${owedOn(agreement, sql`${date}::date`)} as pending`));
  return row?.pending === true;
}

/**
 * The upload form's agreements (the user's company's; every company's for SA), with their layout's format and the
 * paydays a file may be loaded for (pendingPaydays), newest first.
 */
export async function uploadOptions(tx: Tx, today: string): Promise<UploadOption[]> {
  const rows = await tx
    .select({ agreement: agreements, company: companies.name })
    .from(agreements)
    .innerJoin(companies, eq(companies.id, agreements.companyId))
    .where(eq(agreements.active, true))
    .orderBy(asc(agreements.name));
  const dates = new Map<string, string>();
  const options: UploadOption[] = [];
  for (const { agreement, company } of rows) {
    // An agreement whose stored layout cannot be read takes no file (the upload says why); the others stay on offer.
    const layout = layoutSchema.safeParse(agreement.layout);
    if (!layout.success) continue;
    const businessDate = dates.get(agreement.companyId) ?? (await businessDateOf(tx, agreement.companyId, today));
    dates.set(agreement.companyId, businessDate);
    const discountDates = await pendingPaydays(tx, agreement, businessDate);
    options.push({
      agreementId: agreement.id,
      agreement: agreement.name,
      company,
      format: layout.data.format,
      discountDates,
      suggestedDate: discountDates[0] ?? null,
    });
  }
  return options;
}

// ---------------------------------------------------------------------------------------------- payments report

export type PaymentFilters = Omit<PaymentListQuery, 'page' | 'pageSize' | 'sort'>;

export function paymentFilters(query: PaymentFilters): SQL | undefined {
  const q = query.q?.trim();
  const folio = q ? creditNumberOf(q) : null;
  return and(
    query.agreementId ? eq(credits.agreementId, query.agreementId) : undefined,
    query.fileId ? eq(payments.fileId, query.fileId) : undefined,
    query.creditId ? eq(payments.creditId, query.creditId) : undefined,
    query.status ? eq(payments.status, query.status) : undefined,
    query.from ? gte(payments.valueDate, query.from) : undefined,
    query.to ? lte(payments.valueDate, query.to) : undefined,
    q
      ? folio !== null
        ? eq(credits.number, folio)
        : sql`(${clients.curp} = ${q.toUpperCase()} or concat_ws(' ', ${clients.firstNames}, ${clients.lastName1}, ${clients.lastName2}) ilike ${`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`})`
      : undefined,
  );
}

const PAYMENT_SORT = { valueDate: payments.valueDate, appliedAt: payments.appliedAt, amount: payments.amount, folio: credits.number };
export const paymentOrder = (sort: string | undefined) =>
  listOrder(PAYMENT_SORT, sort, { field: 'appliedAt', descending: true }, payments.sequence);

const paymentList = fixedSelect(
  {
    payment: payments,
    creditNumber: credits.number,
    agreementId: credits.agreementId,
    agreement: agreements.name,
    clientName: sql<string>`trim(concat_ws(' ', ${clients.firstNames}, ${clients.lastName1}, ${clients.lastName2}))`,
    fileName: paymentFiles.fileName,
  },
  (select) =>
    select
      .from(payments)
      .innerJoin(credits, eq(credits.id, payments.creditId))
      .innerJoin(clients, eq(clients.id, credits.clientId))
      .innerJoin(agreements, eq(agreements.id, credits.agreementId))
      .leftJoin(paymentFiles, eq(paymentFiles.id, payments.fileId)),
);
export const paymentListSelect = (tx: Tx) => paymentList.in(tx);

type PaymentRow = Awaited<ReturnType<typeof paymentListSelect>>[number];

export function toPayment(row: PaymentRow) {
  const { payment } = row;
  return {
    id: payment.id,
    creditId: payment.creditId,
    creditFolio: creditFolio(row.creditNumber),
    clientName: row.clientName,
    agreementId: row.agreementId,
    agreement: row.agreement,
    fileId: payment.fileId,
    fileName: row.fileName,
    fileLine: payment.fileLine,
    valueDate: payment.valueDate,
    amount: payment.amount,
    split: splitOf(payment),
    status: payment.status,
    appliedAt: payment.appliedAt.toISOString(),
  };
}

const matchingPayments = fixedCount((select) =>
  select.from(payments).innerJoin(credits, eq(credits.id, payments.creditId)).innerJoin(clients, eq(clients.id, credits.clientId)),
);
export const paymentCount = (tx: Tx, filters: PaymentFilters) => matchingPayments.in(tx).where(paymentFilters(filters));

/** The filtered payments' count and split; those that stand (aplicado) unless a status is asked for: money reverted was not collected. */
export async function paymentTotals(tx: Tx, filters: PaymentFilters): Promise<PaymentTotals> {
  const sum = (column: SQL | typeof payments.amount) => sql<string>`coalesce(sum(${column}), 0.00)::text`;
  const [row] = await tx
    .select({
      count: sql<number>`count(*)::int`,
      amount: sum(payments.amount),
      principal: sum(payments.principal),
      interest: sum(payments.interest),
      iva: sum(payments.iva),
      moratoryInterest: sum(payments.moratoryInterest),
      moratoryIva: sum(payments.moratoryIva),
      fees: sum(payments.fees),
      feesIva: sum(payments.feesIva),
      overpayment: sum(payments.overpayment),
    })
    .from(payments)
    .innerJoin(credits, eq(credits.id, payments.creditId))
    .innerJoin(clients, eq(clients.id, credits.clientId))
    .where(paymentFilters({ ...filters, status: filters.status ?? 'aplicado' }));
  const { count, amount, ...split } = row!;
  return { count, amount, split };
}

/** Every row of a file with its outcome and split, for the result workbook (line order, a batch at a time). */
export function resultRows(tx: Tx, fileId: string, offset: number, limit: number) {
  return tx
    .select({ row: paymentFileRows, creditNumber: credits.number, payment: splitColumns })
    .from(paymentFileRows)
    .leftJoin(credits, eq(credits.id, paymentFileRows.creditId))
    .leftJoin(payments, and(eq(payments.fileId, paymentFileRows.fileId), eq(payments.fileLine, paymentFileRows.line)))
    .where(eq(paymentFileRows.fileId, fileId))
    .orderBy(asc(paymentFileRows.line))
    .limit(limit)
    .offset(offset);
}
