import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allocatePayment, buildSchedule, formatCents, parseCents } from '@portal/lending';
import { storedAfter, toInstallmentState, type InstallmentRow } from '../portfolio/schedule-rows';
import { allocationSplit } from '../shared/payment-split';
import { unpaidRow } from '../../test/schedule-fixtures';

/**
 * The write-back of an application: whatever packages/lending allocates, what is stored must neither create nor lose a
 * centavo. Checked for random credits, partial histories and amounts from a centavo to far beyond the balance.
 */

const OWED = ['principal', 'interest', 'iva', 'moratoryInterest', 'moratoryIva', 'fees', 'feesIva'] as const;
const PAID = {
  principal: 'paidPrincipal',
  interest: 'paidInterest',
  iva: 'paidIva',
  moratoryInterest: 'paidMoratoryInterest',
  moratoryIva: 'paidMoratoryIva',
  fees: 'paidFees',
  feesIva: 'paidFeesIva',
} as const;
const STORED = {
  principal: ['principal', 'paid_principal'],
  interest: ['interest', 'paid_interest'],
  iva: ['iva', 'paid_iva'],
  moratoryInterest: ['moratory_interest', 'paid_moratory_interest'],
  moratoryIva: ['moratory_iva', 'paid_moratory_iva'],
  fees: ['fees', 'paid_fees'],
  feesIva: ['fees_iva', 'paid_fees_iva'],
} as const;
const c = (value: string) => parseCents(value, 'x');

function rowsFor(principal: number, term: number, paidRows: number, lateCharge: number): InstallmentRow[] {
  const schedule = buildSchedule({
    principal: (principal / 100).toFixed(2),
    annualRate: '0.36',
    ivaRate: '0.16',
    term,
    frequency: 'quincenal',
    firstDueDate: '2026-01-15',
  });
  return schedule.rows.map((row, index) => {
    const paid = index < paidRows;
    const late = index === paidRows && lateCharge > 0 ? formatCents(BigInt(lateCharge)) : '0.00';
    return {
      ...unpaidRow(row),
      paidPrincipal: paid ? row.principal : '0.00',
      paidInterest: paid ? row.interest : '0.00',
      paidIva: paid ? row.iva : '0.00',
      moratoryInterest: late,
      moratoryIva: late === '0.00' ? '0.00' : formatCents((c(late) * 16n + 50n) / 100n),
      outstanding: '0',
    };
  });
}

describe('storedAfter (the schedule written back after a payment)', () => {
  it('keeps every row at paid ≤ charged, adds to what was paid exactly what the split says, and the split adds up to the amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 300_000, max: 20_000_000 }),
        fc.integer({ min: 3, max: 36 }),
        fc.integer({ min: 0, max: 35 }),
        fc.integer({ min: 0, max: 50_000 }),
        fc.integer({ min: 1, max: 40_000_000 }),
        fc.integer({ min: 0, max: 420 }),
        (principal, term, paidRows, lateCharge, amount, daysAfterStart) => {
          const rows = rowsFor(principal, term, Math.min(paidRows, term - 1), lateCharge);
          const valueDate = new Date(Date.parse('2026-01-01T12:00:00Z') + daysAfterStart * 86_400_000).toISOString().slice(0, 10);
          const result = allocatePayment({
            amount: formatCents(BigInt(amount)),
            valueDate,
            disbursementDate: '2026-01-01',
            ivaRate: '0.16',
            annualRate: '0.36',
            frequency: 'quincenal',
            installment: rows[0]!.payment,
            installments: rows.map(toInstallmentState),
          });
          const after = storedAfter(rows, result.installments);
          const split = allocationSplit(result);
          expect(Object.values(split).reduce((sum, value) => sum + c(value), 0n)).toBe(BigInt(amount));
          for (const component of OWED) {
            const [chargedColumn, paidColumn] = STORED[component];
            let paidBefore = 0n;
            let paidAfter = 0n;
            for (let k = 0; k < rows.length; k++) {
              const next = after[k]!;
              expect(c(next[paidColumn])).toBeLessThanOrEqual(c(next[chargedColumn]));
              // A payment never lowers what was already paid, nor the late charges (they are the day close's).
              expect(c(next[paidColumn])).toBeGreaterThanOrEqual(c(rows[k]![PAID[component]]));
              paidBefore += c(rows[k]![PAID[component]]);
              paidAfter += c(next[paidColumn]);
            }
            expect(paidAfter - paidBefore).toBe(c(split[component]));
          }
          // Principal charged over the schedule stays the principal lent; a payoff leaves nothing owed.
          expect(after.reduce((sum, row) => sum + c(row.principal), 0n)).toBe(BigInt(principal));
          const owed = after.reduce(
            (sum, row) => sum + OWED.reduce((s, component) => s + c(row[STORED[component][0]]) - c(row[STORED[component][1]]), 0n),
            0n,
          );
          if (result.paidOff) expect(owed).toBe(0n);
          else expect(c(split.overpayment)).toBe(0n);
          expect(after.at(-1)!.balance).toBe('0.00');
        },
      ),
      { numRuns: 400 },
    );
  });
});
