import { eq, sql } from 'drizzle-orm';
import { layoutSchema, type PayFrequency } from '@portal/contract';
import type { Tx } from '../db/client';
import { agreements } from '../db/schema/agreements';
import { users } from '../db/schema/users';
import type { Actor } from '../modules/audit/audit';
import { applyPaymentFile } from '../modules/payment-files/apply';
import { uploadPaymentFile } from '../modules/payment-files/payment-files.service';
import { renderPaymentFile, type FileFields } from '../modules/payment-files/render-file';
import { revertPaymentFile } from '../modules/payment-files/revert';
import { generateDeductionOrder, issueDeductionOrder, sendDeductionOrder } from '../modules/deduction-orders/deduction-orders.service';

/** Cartera's demo user, as the actor the seed's file and cédula work is done by (null before the users exist). */
export async function seedClerk(tx: Tx): Promise<{ id: string; actor: Actor } | null> {
  const [clerk] = await tx.select().from(users).where(eq(users.email, 'cartera@demo.mx'));
  if (!clerk) return null;
  const actor = {
    id: 'seed',
    principal: {
      userId: clerk.id,
      email: clerk.email,
      name: clerk.name,
      companyId: clerk.companyId,
      profileId: clerk.profileId,
      role: 'CARTERA',
      permissions: new Set<string>(),
    },
  } as unknown as Actor;
  return { id: clerk.id, actor };
}

/** The longest gap between two paydays of each frequency (a payday moved off a holiday included). */
const LONGEST_PERIOD_DAYS: Record<PayFrequency, number> = { semanal: 7, catorcenal: 14, quincenal: 16, mensual: 31 };

/** Days before today whose payroll deductions the demo collects through payment files rather than as history. */
export const FILE_WINDOW_DAYS = 40;

/** A deduction the demo's payroll files pay: its credit and period. */
export interface FilePaid {
  creditId: string;
  period: number;
}

type Deduction = {
  agreement_id: string;
  discount_date: string;
  number: string;
  employee_number: string;
  curp: string;
  amount: string;
  period: number;
};

const EXTENSION = { csv: 'csv', xlsx: 'xlsx', fixed: 'txt' } as const;

/**
 * The demo's recent payroll, paid the way production is paid: for each agreement and discount date of the last weeks,
 * the employer's file in the agreement's own layout, uploaded and applied by Cartera through the same services as the
 * screens. Most files are applied; the latest of the first agreement also brings rows the upload rejects; one file is
 * applied, reverted (the employer sent last period's file again) and followed by its correction. Deductions missed on
 * purpose (seed-portfolio's collected history) stay out of every file: they show en tránsito or no aplicado. One
 * employer has not answered its last payday yet (its cédula sent, its deductions en tránsito): the agreement whose
 * remittance lag outlasts its payroll period (the federal one, catorcenal with 15 days), so on any day of the year its
 * last payday is still within the lag.
 */
export async function seedPaymentFiles(tx: Tx, paid: readonly FilePaid[], today: string, now: Date): Promise<void> {
  if (paid.length === 0) return;
  const clerk = await seedClerk(tx);
  if (!clerk) return;
  const { actor } = clerk;
  const { rows } = (await tx.execute(sql`
    select c.agreement_id, e.discount_date::text as discount_date, c.number, c.employee_number, k.curp, e.amount::text as amount, e.period
    from json_to_recordset(${JSON.stringify(paid)}::json) as p("creditId" uuid, period int)
    join expected_deductions e on e.credit_id = p."creditId" and e.period = p.period
    join credits c on c.id = e.credit_id
    join clients k on k.id = c.client_id
    order by e.discount_date, c.number`)) as unknown as { rows: Deduction[] };
  const groups = new Map<string, Deduction[]>();
  for (const row of rows) {
    const key = `${row.discount_date}|${row.agreement_id}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const catalog = await tx.select().from(agreements);
  const lastDateOf = new Map<string, string>();
  for (const row of rows) lastDateOf.set(row.agreement_id, row.discount_date);
  // The employer whose file has not come yet: its last payday's cédula was sent, and its deductions are en tránsito
  // (its remittance lag is longer than its payroll period, so the seed's day never finds them overdue). The browser
  // journey of the cédulas uploads that answer.
  const awaiting = [...catalog]
    .sort((left, right) => left.code.localeCompare(right.code))
    .find((agreement) => lastDateOf.has(agreement.id) && agreement.remittanceLagDays >= LONGEST_PERIOD_DAYS[agreement.frequency]);
  const awaitingKey = awaiting ? `${lastDateOf.get(awaiting.id)}|${awaiting.id}` : null;
  // The last payday each employer answered: the latest file of the first agreement brings rejected rows, the second's
  // is reverted and corrected.
  lastDateOf.clear();
  for (const key of groups.keys()) {
    const [discountDate, agreementId] = key.split('|') as [string, string];
    if (key !== awaitingKey) lastDateOf.set(agreementId, discountDate);
  }
  const [withRejected, withRevert] = catalog.filter((agreement) => lastDateOf.has(agreement.id)).map((agreement) => agreement.id);

  let minute = 0;
  for (const [key, deductions] of groups) {
    const [discountDate, agreementId] = key.split('|') as [string, string];
    const agreement = catalog.find((candidate) => candidate.id === agreementId)!;
    const layout = layoutSchema.parse(agreement.layout);
    const fields = deductions.map((d): FileFields => ({
      creditId: String(d.number),
      employeeNumber: d.employee_number,
      curpRfc: d.curp,
      amount: String(d.amount),
      period: String(d.period),
      reference: `NOM${discountDate.replaceAll('-', '')}`,
    }));
    const isLast = lastDateOf.get(agreementId) === discountDate;
    const stamp = (offset: number) => new Date(Date.parse(`${discountDate}T17:00:00Z`) + (minute++ + offset) * 60_000);
    const upload = async (rowsToWrite: FileFields[], name: string) =>
      uploadPaymentFile(tx, actor, {
        agreementId,
        discountDate,
        fileName: name,
        contentType: 'application/octet-stream',
        content: await renderPaymentFile(layout, rowsToWrite),
        today,
        now: stamp(0) > now ? now : stamp(0),
      });
    const apply = (fileId: string) =>
      applyPaymentFile(tx, { fileId, companyId: agreement.companyId, appliedBy: clerk.id, now: stamp(5) > now ? now : stamp(5), today });
    const name = (suffix = '') => `${agreement.code.toLowerCase()}-${discountDate}${suffix}.${EXTENSION[layout.format]}`;

    // The instruction the file answers (issue 46): the payday's cédula, generated from the portfolio as the earlier
    // files left it, emitted and sent on its cut-off day. Its lines no file row pays show as missing in the statement.
    const order = await generateDeductionOrder(tx, actor, {
      agreementId,
      payday: discountDate,
      today,
      now: stamp(-60) > now ? now : stamp(-60),
    });
    await issueDeductionOrder(tx, actor, { id: order.id, pastCutOff: true, today, now: stamp(-55) > now ? now : stamp(-55) });
    await sendDeductionOrder(tx, actor, {
      id: order.id,
      body: {
        sentOn: order.cutOffDate < today ? order.cutOffDate : today,
        channel: 'correo',
        note: 'Enviada al área de nómina del patrón.',
      },
      today,
      now: stamp(-50) > now ? now : stamp(-50),
    });

    if (key === awaitingKey) continue;
    if (isLast && agreementId === withRevert) {
      // The employer first sent the file with every amount doubled; it was applied, reverted, and the right one applied.
      const wrong = await upload(
        fields.map((row) => ({ ...row, amount: (Number(row.amount) * 2).toFixed(2), reference: 'DUPLICADO' })),
        name('-duplicado'),
      );
      await apply(wrong.id);
      await revertPaymentFile(tx, actor, wrong.id, 'El patrón envió los importes al doble; se carga el archivo corregido.', today, now);
      const right = await upload(fields, name('-corregido'));
      await apply(right.id);
    } else if (isLast && agreementId === withRejected) {
      const broken: FileFields[] = [
        {
          creditId: '99999999',
          employeeNumber: 'E-00000',
          curpRfc: 'XAXX010101000',
          amount: '850.00',
          period: '1',
          reference: 'SIN-CREDITO',
        },
        { ...fields[0]!, amount: '0.00', reference: 'IMPORTE-CERO' },
      ];
      const file = await upload([...fields, ...broken], name());
      await apply(file.id);
    } else {
      const file = await upload(fields, name());
      await apply(file.id);
    }
  }
}
