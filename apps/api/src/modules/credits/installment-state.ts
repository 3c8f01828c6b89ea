import type { InstallmentState } from '@portal/lending';
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
  return state;
}
