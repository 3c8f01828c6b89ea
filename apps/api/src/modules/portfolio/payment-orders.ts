import { sql } from 'drizzle-orm';
import type { PaymentOrderKind } from '@portal/contract';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { paymentOrders } from '../../db/schema/treasury';

/**
 * Payment orders are born here, where money leaving the company starts: a disbursement (origination's Dispersar, and a
 * renewal for its net amount) and an approved refund. Tesorería (modules/treasury) batches, sends and settles them.
 */

/** The transfer's concept as the bank file carries it: ≤ 40 characters, no accents (docs/domain.md, "Tesorería"). */
export function orderConcept(kind: PaymentOrderKind, creditNumber: number): string {
  const folio = String(creditNumber).padStart(8, '0');
  return kind === 'dispersión' ? `DISPERSION CREDITO ${folio}` : `DEVOLUCION SALDO A FAVOR ${folio}`;
}

/** SPEI's numeric reference (7 digits): the credit's number, its last seven digits. */
export const orderReference = (creditNumber: number): string => String(creditNumber % 10_000_000).padStart(7, '0');

interface CreditPayee {
  company_id: string;
  number: number;
  clabe: string;
  beneficiary: string;
  beneficiary_id: string | null;
}

/** The credit's holder as a transfer names them, and where its disbursement went. */
export async function creditPayee(tx: Tx, creditId: string): Promise<CreditPayee | null> {
  const [row] = rowsOf<CreditPayee>(
    await tx.execute(sql`
      select c.company_id, c.number::int as number, c.clabe,
             trim(cl.first_names || ' ' || cl.last_name_1 || ' ' || coalesce(cl.last_name_2, '')) as beneficiary,
             coalesce(cl.rfc, cl.curp) as beneficiary_id
      from credits c join clients cl on cl.id = c.client_id
      where c.id = ${creditId}`),
  );
  return row ?? null;
}

export interface DisbursementOrderInput {
  creditId: string;
  /**
   * What the client receives by transfer: a new credit's net disbursement (the amount less a fee not financed); a
   * renewal's net amount (what is left after paying off the credits it renews). Explicit, so each caller says it.
   */
  amount: string;
  createdBy: string | null;
  now: Date;
}

/**
 * The credit's disbursement as a pending payment order (por enviar), to the CLABE on the credit and the client's
 * name. One per credit (a unique index): a credit is disbursed once. Nothing is created for an amount of zero (a
 * renewal that leaves nothing to transfer). Call it in the transaction that creates the credit.
 */
export async function createDisbursementOrder(tx: Tx, input: DisbursementOrderInput): Promise<string | null> {
  if (!/^\d+(\.\d{1,2})?$/.test(input.amount)) throw new Error(`Importe de dispersión no válido: ${input.amount}`);
  if (Number(input.amount) === 0) return null;
  const payee = await creditPayee(tx, input.creditId);
  if (!payee) throw new Error(`Crédito ${input.creditId} no encontrado para su orden de pago`);
  const [order] = await tx
    .insert(paymentOrders)
    .values({
      companyId: payee.company_id,
      kind: 'dispersión',
      creditId: input.creditId,
      beneficiary: payee.beneficiary,
      beneficiaryId: payee.beneficiary_id,
      clabe: payee.clabe,
      amount: input.amount,
      concept: orderConcept('dispersión', payee.number),
      reference: orderReference(payee.number),
      createdBy: input.createdBy,
      createdAt: input.now,
    })
    .returning({ id: paymentOrders.id });
  return order!.id;
}
