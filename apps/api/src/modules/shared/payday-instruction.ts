import { sql, type SQL } from 'drizzle-orm';
import type { DeductionMovement, DeductionReason } from '@portal/contract';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { creditFolio } from './folios';

/**
 * The emitted instruction of a payday (issue 46; docs/domain.md "Cédulas de descuento"): what the employer was told to
 * deduct on an agreement's payday is the cédula standing for it — emitida or enviada; a sustituida one no longer
 * counts, its substitute does; a borrador was never sent. At most one stands per agreement and payday (the database's
 * deduction_orders_standing_key). Read by the payment files (matching a file against it) and by the employer's
 * statement; the cédulas' own module writes it.
 */

/** The standing cédula's id of an agreement's payday, as a scalar subquery (null when none was emitted). */
export const standingOrderId = (agreementId: string | SQL, payday: string | SQL): SQL =>
  sql`(select o.id from deduction_orders o where o.agreement_id = ${agreementId} and o.payday = ${payday}
        and o.status in ('emitida', 'enviada') limit 1)`;

export interface InstructedLine {
  movement: DeductionMovement;
  /** What the employer deducts on the payday: the amount after the movement (0.00 for a baja). */
  amount: string;
  /** What it deducted before (a baja's stopped amount). */
  amountBefore: string;
  reason: DeductionReason | null;
  /**
   * A renewed credit a cambio line replaced (the agreement's renewalAsChange): it has no line of its own, and the
   * instruction stops it like a baja (renovación); this is the folio of the new credit that took its place.
   */
  replacedByFolio: string | null;
}

export interface PaydayInstruction {
  orderId: string;
  payday: string;
  /** The instruction's lines of the credits asked for, by credit id (a credit absent: the cédula does not name it). */
  lines: ReadonlyMap<string, InstructedLine>;
}

/**
 * The standing cédula of the agreement's payday and its lines for the given credits (one JSON parameter, whatever
 * their number); null when no cédula was emitted for that payday (paydays before the cédulas, or not yet emitted).
 */
export async function paydayInstruction(
  tx: Tx,
  agreementId: string,
  payday: string,
  creditIds: readonly string[],
): Promise<PaydayInstruction | null> {
  const [order] = rowsOf<{ id: string | null }>(await tx.execute(sql`select ${standingOrderId(agreementId, payday)} as id`));
  if (!order?.id) return null;
  const unique = [...new Set(creditIds)];
  // Each credit's own line, and for a renewed credit a cambio replaced, that cambio (by its index), read as a baja.
  const rows =
    unique.length === 0
      ? []
      : rowsOf<{
          credit_id: string;
          movement: DeductionMovement;
          amount_after: string;
          amount_before: string;
          reason: DeductionReason | null;
          replaced_by: number | null;
        }>(
          await tx.execute(sql`
            with asked as (select value::uuid as id from json_array_elements_text(${JSON.stringify(unique)}::json))
            select l.credit_id, l.movement, l.amount_after::text as amount_after, l.amount_before::text as amount_before, l.reason,
                   null::int as replaced_by
            from deduction_order_lines l
            where l.order_id = ${order.id} and l.credit_id in (select id from asked)
            union all
            select l.replaces_credit_id, 'baja', '0.00', l.amount_before::text, 'renovacion', l.credit_number
            from deduction_order_lines l
            where l.order_id = ${order.id} and l.replaces_credit_id in (select id from asked)`),
        );
  return {
    orderId: order.id,
    payday,
    lines: new Map(
      rows.map((row) => [
        row.credit_id,
        {
          movement: row.movement,
          amount: row.amount_after,
          amountBefore: row.amount_before,
          reason: row.reason,
          replacedByFolio: row.replaced_by === null ? null : creditFolio(row.replaced_by),
        },
      ]),
    ),
  };
}
