import { formatCents, parseCents, type ScheduleRow } from '@portal/lending';
import { builtRowColumns, type InstallmentRow } from '../modules/portfolio/schedule-rows';

/**
 * A row of a built schedule as the table holds it before anything was paid or charged late (credit 'c' of company
 * 'k'): owing its principal, interest and IVA. Tests spread what they need on top (paid amounts, late charges).
 */
export function unpaidRow(row: ScheduleRow): InstallmentRow {
  const owed = parseCents(row.principal, 'x') + parseCents(row.interest, 'x') + parseCents(row.iva, 'x');
  return {
    creditId: 'c',
    companyId: 'k',
    ...builtRowColumns(row),
    paidPrincipal: '0.00',
    paidInterest: '0.00',
    paidIva: '0.00',
    moratoryInterest: '0.00',
    moratoryIva: '0.00',
    fees: '0.00',
    feesIva: '0.00',
    paidMoratoryInterest: '0.00',
    paidMoratoryIva: '0.00',
    paidFees: '0.00',
    paidFeesIva: '0.00',
    outstanding: formatCents(owed),
    accruesFrom: null,
    accrualThrough: null,
    accrualCentDays: null,
  };
}
