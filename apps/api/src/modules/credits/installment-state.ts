import { parseCents, type InstallmentState } from '@portal/lending';
import type { INSTALLMENT_STATUSES } from '@portal/contract';
import type { installments } from '../../db/schema/credits';

export type InstallmentRow = typeof installments.$inferSelect;

/**
 * A stored schedule row as packages/lending reads it (payoff, allocation). What a payoff or a prepayment waived is
 * not kept apart: the row's charge is lowered to what is still owed, so the row starts with nothing waived.
 */
export function toInstallmentState(i: InstallmentRow): InstallmentState {
  const state: InstallmentState = {
    number: i.number,
    dueDate: i.dueDate,
    principal: i.principal,
    interest: i.interest,
    iva: i.iva,
    fees: i.fees,
    feesIva: i.feesIva,
    moratoryInterest: i.moratoryInterest,
    moratoryIva: i.moratoryIva,
    paid: {
      principal: i.paidPrincipal,
      interest: i.paidInterest,
      iva: i.paidIva,
      fees: i.paidFees,
      feesIva: i.paidFeesIva,
      moratoryInterest: i.paidMoratoryInterest,
      moratoryIva: i.paidMoratoryIva,
    },
  };
  if (i.days !== null) state.days = i.days;
  if (i.accrualThrough !== null && i.accrualCentDays !== null) state.accrual = { through: i.accrualThrough, centDays: i.accrualCentDays };
  return state;
}

/**
 * An installment's status at the last closed day (the day before the business date): pagada when it owes nothing,
 * vencida once due by then, pendiente before. Derived, never stored: a payday would otherwise rewrite 600,000 rows.
 */
export function installmentStatus(row: { outstanding: string; dueDate: string }, closedDay: string): (typeof INSTALLMENT_STATUSES)[number] {
  if (parseCents(row.outstanding, 'outstanding') === 0n) return 'pagada';
  return row.dueDate <= closedDay ? 'vencida' : 'pendiente';
}
