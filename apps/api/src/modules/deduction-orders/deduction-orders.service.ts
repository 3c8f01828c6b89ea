import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { addDays, payrollCalendar, type PayrollCalendar } from '@portal/lending';
import type { DeductionOrder, DeductionOrderOption, SendDeductionOrderBody } from '@portal/contract';
import type { Tx } from '../../db/client';
import { agreements } from '../../db/schema/agreements';
import { deductionOrders } from '../../db/schema/deduction-orders';
import { companies } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { recordAudit, type AuditActor } from '../audit/audit';
import { payrollCalendarOf } from '../shared/products';
import { businessDateOf } from '../shared/business-date';
import { longDate } from '../shared/es-mx';
import { differencesBetween, loadDeductionOrder } from './deduction-orders.queries';

/**
 * Cédulas de descuento (issue 46; docs/domain.md "Cédulas de descuento"). A cédula tells the employer, before a
 * payday's cut-off, what to deduct on that payday compared with what it was told before:
 *
 * - what it deducts now (the baseline): the lines of the latest standing cédula (emitida or enviada) of an earlier
 *   payday; before the agreement's first cédula, the installments of the previous payday;
 * - what the portfolio owes on the payday at the fecha flujo: each credit not liquidado with an installment due that
 *   day, for that installment's amount (after a prepayment or a restructure, the rebuilt one);
 * - alta: owed and not in the baseline; baja: in the baseline and no longer owed; cambio: both, another amount;
 *   continúa: both, the same amount;
 * - with the agreement's renewalAsChange, a renewal's baja and alta of one employee are one cambio: the new credit's
 *   line takes the renewed credit's installment as its amount before, and the renewed credit has no line (when one
 *   credit renews several, the one with the lowest folio is replaced and the others stay bajas).
 *
 * The lines are one INSERT … SELECT, so the portfolio is read in one snapshot and a 300,000-line cédula is written
 * without passing through Node. Whether a cambio is the credit's last installment (its reason) is probed for the
 * cambios alone: per line it was half of Generar's reads at scale (docs/measurements.md).
 */

/** The advisory-lock class of an agreement's cédulas: Generar, Emitir and Sustituir of one agreement take turns. */
const DEDUCTION_ORDER_LOCK_CLASS = 15_046;

const STANDING = ['emitida', 'enviada'] as const;

interface AgreementRow {
  id: string;
  companyId: string;
  name: string;
  company: string;
  calendar: PayrollCalendar;
  leadDays: number;
  renewalAsChange: boolean;
}

async function loadAgreement(tx: Tx, agreementId: string): Promise<AgreementRow> {
  const [row] = await tx
    .select({
      id: agreements.id,
      companyId: agreements.companyId,
      name: agreements.name,
      company: companies.name,
      frequency: agreements.frequency,
      payDay: agreements.payDay,
      paydayWeekday: agreements.paydayWeekday,
      cutOffLeadDays: agreements.cutOffLeadDays,
      nonWorkingDays: agreements.nonWorkingDays,
      renewalAsChange: agreements.renewalAsChange,
    })
    .from(agreements)
    .innerJoin(companies, eq(companies.id, agreements.companyId))
    .where(eq(agreements.id, agreementId));
  if (!row) throw new HttpProblem(404, 'Convenio no encontrado', 'El convenio no existe o no es de tu empresa.');
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    company: row.company,
    calendar: payrollCalendarOf(row),
    leadDays: row.cutOffLeadDays,
    renewalAsChange: row.renewalAsChange,
  };
}

/**
 * The last day a payday's cédula can reach the employer: the payday less the agreement's cut-off lead days, and at
 * least the day before (the same rule that gives a new credit its first payday, packages/lending firstPayday: a
 * credit disbursed on the fecha flujo starts in the first cédula still open that day).
 */
export const cutOffOf = (payday: string, leadDays: number) => addDays(payday, -Math.max(leadDays, 1));

/** The agreement's paydays whose cut-off has not passed at the business date, nearest first. */
function openPaydays(agreement: AgreementRow, businessDate: string, count: number): string[] {
  return payrollCalendar(agreement.calendar, addDays(businessDate, -1), count + 4)
    .filter((payday) => cutOffOf(payday, agreement.leadDays) >= businessDate)
    .slice(0, count);
}

/** The payday before `payday` in the agreement's calendar (as paid, moved off non-working days). */
function previousPayday(agreement: AgreementRow, payday: string): string {
  const before = payrollCalendar(agreement.calendar, addDays(payday, -70), 12).filter((day) => day < payday);
  return before[before.length - 1]!;
}

async function standingPaydays(tx: Tx, agreementId: string, from: string): Promise<Set<string>> {
  const rows = await tx
    .select({ payday: deductionOrders.payday })
    .from(deductionOrders)
    .where(
      and(
        eq(deductionOrders.agreementId, agreementId),
        inArray(deductionOrders.status, STANDING),
        sql`${deductionOrders.payday} >= ${from}`,
      ),
    );
  return new Set(rows.map((row) => row.payday));
}

/** The payday Generar works on: the nearest one still before its cut-off and without an emitted cédula. */
async function nextPayday(tx: Tx, agreement: AgreementRow, businessDate: string): Promise<{ payday: string; frozen: string[] }> {
  const standing = await standingPaydays(tx, agreement.id, businessDate);
  const payday = openPaydays(agreement, businessDate, 60).find((day) => !standing.has(day));
  if (!payday) throw new HttpProblem(409, 'Sin día de pago abierto', 'Los próximos días de pago ya tienen su cédula emitida.');
  return { payday, frozen: [...standing].filter((day) => day < payday).sort() };
}

/** Generar's target for each agreement the user sees (active ones). */
export async function deductionOrderOptions(tx: Tx, today: string): Promise<DeductionOrderOption[]> {
  const visible = await tx.select({ id: agreements.id }).from(agreements).where(eq(agreements.active, true)).orderBy(asc(agreements.name));
  const options: DeductionOrderOption[] = [];
  for (const { id } of visible) {
    const agreement = await loadAgreement(tx, id);
    const businessDate = await businessDateOf(tx, agreement.companyId, today);
    const { payday, frozen } = await nextPayday(tx, agreement, businessDate);
    options.push({
      agreementId: agreement.id,
      agreement: agreement.name,
      company: agreement.company,
      businessDate,
      nextPayday: payday,
      cutOffDate: cutOffOf(payday, agreement.leadDays),
      frozenPaydays: frozen,
    });
  }
  return options;
}

const lockAgreement = (tx: Tx, agreementId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(${DEDUCTION_ORDER_LOCK_CLASS}::int, hashtext(${agreementId}))`);

/** The standing cédula the employer works from before `payday`: the latest emitted one of an earlier payday. */
async function baselineOf(tx: Tx, agreementId: string, payday: string): Promise<string | null> {
  const [row] = await tx
    .select({ id: deductionOrders.id })
    .from(deductionOrders)
    .where(and(eq(deductionOrders.agreementId, agreementId), inArray(deductionOrders.status, STANDING), lt(deductionOrders.payday, payday)))
    .orderBy(desc(deductionOrders.payday))
    .limit(1);
  return row?.id ?? null;
}

/**
 * Writes a cédula's lines from the portfolio as it stands, then its counts and amounts. `baselineId` null: the
 * baseline is the installments of `previousPayday`. `renewalAsChange`: a renewal's baja and alta of one employee are
 * written as one cambio (the agreement's setting).
 */
async function writeLines(
  tx: Tx,
  order: {
    id: string;
    companyId: string;
    agreementId: string;
    payday: string;
    baselineId: string | null;
    previousPayday: string;
    renewalAsChange: boolean;
  },
): Promise<void> {
  const { id, companyId, agreementId, payday, baselineId, previousPayday: before, renewalAsChange } = order;
  const baseline = baselineId
    ? sql`select credit_id, amount_after as amount from deduction_order_lines
          where order_id = ${baselineId} and company_id = ${companyId} and movement <> 'baja'`
    : sql`select i.credit_id, i.payment as amount from installments i join credits c on c.id = i.credit_id and c.company_id = i.company_id
          where i.company_id = ${companyId} and i.due_date = ${before}::date and c.agreement_id = ${agreementId} and i.payment > 0`;
  await tx.execute(sql`
    with owed as (
      select i.credit_id, i.number, i.payment as amount
      from installments i join credits c on c.id = i.credit_id and c.company_id = i.company_id
      where i.company_id = ${companyId} and i.due_date = ${payday}::date and c.agreement_id = ${agreementId}
        and c.status <> 'liquidado' and c.renewed_by_credit_id is null and i.payment > 0
    ),
    baseline as (${baseline}),
    joined as (
      select coalesce(o.credit_id, b.credit_id) as credit_id, b.amount as before, o.amount as after, o.number
      from owed o full join baseline b on b.credit_id = o.credit_id
    ),
    -- A renewal as one cambio: each new credit in alta with the renewed credit of the same employee in baja (renewed
    -- credits are never owed, so a renewed one in the baseline is a baja), the lowest folio when it renewed several.
    replaced as (
      select distinct on (n.credit_id) n.credit_id as new_id, r.id as old_id, r.number as old_number, o.before as old_before
      from joined n
      join credits nc on nc.id = n.credit_id
      join credits r on r.renewed_by_credit_id = n.credit_id and r.employee_number = nc.employee_number
      join joined o on o.credit_id = r.id and o.after is null
      where ${renewalAsChange}::boolean and n.before is null
      order by n.credit_id, r.number
    ),
    lines as (
      select j.credit_id, coalesce(p.old_before, j.before) as before, j.after, j.number, p.old_id, p.old_number
      from joined j left join replaced p on p.new_id = j.credit_id
      where not exists (select 1 from replaced q where q.old_id = j.credit_id)
    )
    insert into deduction_order_lines (order_id, credit_id, company_id, line, credit_number, employee_number, curp, name,
                                       movement, amount_before, amount_after, reason, replaces_credit_id, replaces_credit_number)
    select ${id}, j.credit_id, ${companyId}, row_number() over (order by c.employee_number, c.number), c.number, c.employee_number,
           cl.curp, trim(cl.first_names || ' ' || cl.last_name_1 || ' ' || coalesce(cl.last_name_2, '')),
           -- A replacing line is a cambio even at the same amount: the employer changes the folio it deducts for.
           case when j.old_id is not null then 'cambio'
                when j.before is null then 'alta' when j.after is null then 'baja' when j.before = j.after then 'continúa' else 'cambio' end,
           coalesce(j.before, 0), coalesce(j.after, 0),
           case when j.old_id is not null then 'renovacion-cambio'
                when j.before is null then case when c.first_due_date = ${payday}::date then 'credito-nuevo' else 'no-instruido' end
                when j.after is null then case when c.renewed_by_credit_id is not null then 'renovacion'
                                               when c.status = 'liquidado' and c.last_due_date >= ${payday}::date then 'liquidado' else 'plazo-cumplido' end
                when j.before = j.after then null
                -- Asked of a cambio only (a CASE arm runs only when reached): one probe per changed line, not per line.
                when not exists (select 1 from installments l where l.credit_id = j.credit_id and l.number > j.number and l.payment > 0)
                  then 'ultima-cuota'
                else 'cuota-recalculada' end,
           j.old_id, j.old_number
    from lines j join credits c on c.id = j.credit_id join clients cl on cl.id = c.client_id`);
  await tx.execute(sql`
    update deduction_orders o set
      altas_count = s.altas_count, altas_amount = s.altas_amount, bajas_count = s.bajas_count, bajas_amount = s.bajas_amount,
      cambios_count = s.cambios_count, cambios_amount = s.cambios_amount,
      continuing_count = s.continuing_count, continuing_amount = s.continuing_amount
    from (
      select count(*) filter (where movement = 'alta') as altas_count, coalesce(sum(amount_after) filter (where movement = 'alta'), 0) as altas_amount,
             count(*) filter (where movement = 'baja') as bajas_count, coalesce(sum(amount_before) filter (where movement = 'baja'), 0) as bajas_amount,
             count(*) filter (where movement = 'cambio') as cambios_count, coalesce(sum(amount_after) filter (where movement = 'cambio'), 0) as cambios_amount,
             count(*) filter (where movement = 'continúa') as continuing_count,
             coalesce(sum(amount_after) filter (where movement = 'continúa'), 0) as continuing_amount
      from deduction_order_lines where order_id = ${id} and company_id = ${companyId}
    ) s
    where o.id = ${id}`);
}

interface Clocked {
  now: Date;
  today: string;
}

/**
 * Generar: the draft of the agreement's next payday still before its cut-off, from the portfolio at the fecha flujo.
 * Generating again for the same payday recomputes the same draft (same id; the same lines while the portfolio has not
 * changed). `payday` is given only by the seed, writing the history of paydays already past.
 */
export async function generateDeductionOrder(
  tx: Tx,
  actor: AuditActor,
  input: Clocked & { agreementId: string; payday?: string },
): Promise<DeductionOrder> {
  const agreement = await loadAgreement(tx, input.agreementId);
  await lockAgreement(tx, agreement.id);
  const businessDate = await businessDateOf(tx, agreement.companyId, input.today);
  const payday = input.payday ?? (await nextPayday(tx, agreement, businessDate)).payday;
  const baselineId = await baselineOf(tx, agreement.id, payday);
  const [draft] = await tx
    .select({ id: deductionOrders.id })
    .from(deductionOrders)
    .where(and(eq(deductionOrders.agreementId, agreement.id), eq(deductionOrders.payday, payday), eq(deductionOrders.status, 'borrador')))
    .for('update');
  const values = {
    companyId: agreement.companyId,
    agreementId: agreement.id,
    payday,
    cutOffDate: cutOffOf(payday, agreement.leadDays),
    businessDate,
    baselineId,
    generatedBy: actor.principal?.userId ?? null,
    generatedAt: input.now,
  };
  let id: string;
  if (draft) {
    id = draft.id;
    await tx.execute(sql`delete from deduction_order_lines where order_id = ${id} and company_id = ${agreement.companyId}`);
    await tx.update(deductionOrders).set(values).where(eq(deductionOrders.id, id));
  } else {
    const [created] = await tx.insert(deductionOrders).values(values).returning({ id: deductionOrders.id });
    id = created!.id;
  }
  await writeLines(tx, {
    id,
    ...values,
    previousPayday: previousPayday(agreement, payday),
    renewalAsChange: agreement.renewalAsChange,
  });
  const order = await loadDeductionOrder(tx, id);
  await recordAudit(tx, actor, {
    action: draft ? 'deduction-order.regenerate' : 'deduction-order.generate',
    entity: 'deduction_order',
    entityId: id,
    after: { ...summaryOf(order), renewalAsChange: agreement.renewalAsChange },
    occurredAt: input.now,
  });
  return order;
}

const summaryOf = (order: DeductionOrder) => ({
  agreementId: order.agreementId,
  payday: order.payday,
  status: order.status,
  businessDate: order.businessDate,
  altas: order.altas,
  bajas: order.bajas,
  cambios: order.cambios,
  continuing: order.continuing,
});

/** The order locked for a change, after the agreement's turn; 404 outside the user's company. */
async function lockedOrder(tx: Tx, id: string) {
  const [seen] = await tx.select({ agreementId: deductionOrders.agreementId }).from(deductionOrders).where(eq(deductionOrders.id, id));
  if (!seen) throw new HttpProblem(404, 'Cédula no encontrada', 'La cédula no existe o no es de tu empresa.');
  await lockAgreement(tx, seen.agreementId);
  const [order] = await tx.select().from(deductionOrders).where(eq(deductionOrders.id, id)).for('update');
  return order!;
}

/** A payday whose cut-off has passed takes no new instruction: what changed goes to the next payday's cédula. */
async function assertBeforeCutOff(tx: Tx, order: typeof deductionOrders.$inferSelect, businessDate: string, action: string) {
  if (businessDate <= order.cutOffDate) return;
  const agreement = await loadAgreement(tx, order.agreementId);
  const next = await nextPayday(tx, agreement, businessDate);
  throw new HttpProblem(
    409,
    'Corte de nómina vencido',
    `No se puede ${action}: el corte de la nómina del ${longDate(order.payday)} fue el ${longDate(order.cutOffDate)}. ` +
      `Los cambios de la cartera van en la cédula del ${longDate(next.payday)}.`,
  );
}

/** Emitir: freezes the draft. Refused twice, for a draft of an earlier fecha flujo, and after the payday's cut-off. */
export async function issueDeductionOrder(
  tx: Tx,
  actor: AuditActor,
  input: Clocked & { id: string; pastCutOff?: true },
): Promise<DeductionOrder> {
  const order = await lockedOrder(tx, input.id);
  if (order.status !== 'borrador')
    throw new HttpProblem(409, 'La cédula ya fue emitida', `La cédula del ${longDate(order.payday)} ya está ${order.status}.`);
  const businessDate = await businessDateOf(tx, order.companyId, input.today);
  if (!input.pastCutOff) {
    await assertBeforeCutOff(tx, order, businessDate, 'emitir');
    if (order.businessDate !== businessDate)
      throw new HttpProblem(
        409,
        'Borrador desactualizado',
        `El borrador se calculó con la fecha flujo ${longDate(order.businessDate)}; la fecha flujo es ${longDate(businessDate)}. Genera la cédula de nuevo antes de emitirla.`,
      );
  }
  await tx
    .update(deductionOrders)
    .set({ status: 'emitida', issuedBy: actor.principal?.userId ?? null, issuedAt: input.now })
    .where(eq(deductionOrders.id, order.id));
  const issued = await loadDeductionOrder(tx, order.id);
  await recordAudit(tx, actor, {
    action: 'deduction-order.issue',
    entity: 'deduction_order',
    entityId: order.id,
    before: { status: order.status },
    after: summaryOf(issued),
    occurredAt: input.now,
  });
  return issued;
}

/** Marcar enviada: the day, the channel and a note; only an emitted cédula, once. */
export async function sendDeductionOrder(
  tx: Tx,
  actor: AuditActor,
  input: Clocked & { id: string; body: SendDeductionOrderBody },
): Promise<DeductionOrder> {
  const order = await lockedOrder(tx, input.id);
  if (order.status === 'borrador')
    throw new HttpProblem(409, 'La cédula no está emitida', 'Emite la cédula antes de marcarla como enviada.');
  if (order.status !== 'emitida')
    throw new HttpProblem(409, 'La cédula no se puede marcar', `La cédula del ${longDate(order.payday)} ya está ${order.status}.`);
  if (input.body.sentOn > input.today)
    throw new HttpProblem(400, 'Fecha de envío no válida', `La fecha de envío no puede ser posterior a hoy (${longDate(input.today)}).`, [
      { field: 'sentOn', message: 'La fecha de envío no puede ser posterior a hoy.' },
    ]);
  const values = {
    status: 'enviada' as const,
    sentOn: input.body.sentOn,
    sentChannel: input.body.channel,
    sentNote: input.body.note === '' ? null : input.body.note,
    sentBy: actor.principal?.userId ?? null,
    sentAt: input.now,
  };
  await tx.update(deductionOrders).set(values).where(eq(deductionOrders.id, order.id));
  await recordAudit(tx, actor, {
    action: 'deduction-order.send',
    entity: 'deduction_order',
    entityId: order.id,
    before: { status: order.status },
    after: { status: values.status, sentOn: values.sentOn, channel: values.sentChannel, note: values.sentNote },
    occurredAt: input.now,
  });
  return loadDeductionOrder(tx, order.id);
}

/**
 * Sustituir: when the portfolio changed after emission and the payday's cut-off has not passed, a new cédula for the
 * same payday, computed now against the same baseline, is emitted in place of the old one, which becomes sustituida.
 * Refused when nothing changed.
 */
export async function substituteDeductionOrder(
  tx: Tx,
  actor: AuditActor,
  input: Clocked & { id: string; pastCutOff?: true },
): Promise<DeductionOrder> {
  const old = await lockedOrder(tx, input.id);
  if (!(STANDING as readonly string[]).includes(old.status))
    throw new HttpProblem(
      409,
      'La cédula no se puede sustituir',
      old.status === 'borrador'
        ? 'Un borrador no se sustituye: genéralo de nuevo.'
        : `La cédula del ${longDate(old.payday)} ya fue sustituida.`,
    );
  const businessDate = await businessDateOf(tx, old.companyId, input.today);
  if (!input.pastCutOff) await assertBeforeCutOff(tx, old, businessDate, 'sustituir la cédula');
  const agreement = await loadAgreement(tx, old.agreementId);
  // The old one leaves the standing place first: the database keeps one standing cédula per payday.
  await tx.update(deductionOrders).set({ status: 'sustituida' }).where(eq(deductionOrders.id, old.id));
  const [created] = await tx
    .insert(deductionOrders)
    .values({
      companyId: old.companyId,
      agreementId: old.agreementId,
      payday: old.payday,
      cutOffDate: old.cutOffDate,
      businessDate,
      status: 'emitida',
      baselineId: old.baselineId,
      supersedesId: old.id,
      generatedBy: actor.principal?.userId ?? null,
      generatedAt: input.now,
      issuedBy: actor.principal?.userId ?? null,
      issuedAt: input.now,
    })
    .returning({ id: deductionOrders.id });
  const id = created!.id;
  await writeLines(tx, {
    id,
    companyId: old.companyId,
    agreementId: old.agreementId,
    payday: old.payday,
    baselineId: old.baselineId,
    previousPayday: previousPayday(agreement, old.payday),
    renewalAsChange: agreement.renewalAsChange,
  });
  const differences = await differencesBetween(tx, id, old.id);
  if (differences.length === 0)
    throw new HttpProblem(
      409,
      'Sin cambios que sustituir',
      `La cartera no cambió desde la emisión de la cédula del ${longDate(old.payday)}: sigue vigente.`,
    );
  const substitute = await loadDeductionOrder(tx, id);
  await recordAudit(
    tx,
    actor,
    {
      action: 'deduction-order.superseded',
      entity: 'deduction_order',
      entityId: old.id,
      before: { status: old.status },
      after: { status: 'sustituida', supersededBy: id },
      occurredAt: input.now,
    },
    {
      action: 'deduction-order.substitute',
      entity: 'deduction_order',
      entityId: id,
      after: { ...summaryOf(substitute), supersedes: old.id, differences: differences.length, renewalAsChange: agreement.renewalAsChange },
      occurredAt: input.now,
    },
  );
  return substitute;
}
