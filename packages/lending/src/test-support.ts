// Shared fast-check generators for the property tests (not exported from the package).
import fc from 'fast-check';
import { daysInMonth, formatCivil, formatDay, parseDay } from './dates.ts';
import { installmentsFromSchedule, type InstallmentState } from './ledger.ts';
import { formatCents } from './money.ts';
import { buildSchedule, type Frequency, type Schedule, type ScheduleInput } from './schedule.ts';

export const frequencyArb: fc.Arbitrary<Frequency> = fc.constantFrom('semanal', 'catorcenal', 'quincenal', 'mensual');

/** A decimal rate string with up to four decimals, 0 to 1.2 (0 % to 120 % a year). */
export const annualRateArb: fc.Arbitrary<string> = fc
  .integer({ min: 0, max: 12000 })
  .map((n) => `${Math.floor(n / 10000)}.${String(n % 10000).padStart(4, '0')}`);

export const ivaRateArb: fc.Arbitrary<string> = fc.constantFrom('0', '0.08', '0.16');

/** Pesos from 0.01 to 1,000,000.00, biased towards small amounts where rounding matters most. */
export const principalArb: fc.Arbitrary<string> = fc
  .oneof(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 100_000_000 }))
  .map((c) => formatCents(BigInt(c)));

/** A valid first due date for the frequency (quincenal: a 15th or a month end). */
export function firstDueDateArb(frequency: Frequency): fc.Arbitrary<string> {
  return fc
    .record({
      year: fc.integer({ min: 2020, max: 2035 }),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 31 }),
      end: fc.boolean(),
    })
    .map(({ year, month, day, end }) => {
      const last = daysInMonth(year, month);
      if (frequency === 'quincenal') return formatCivil(year, month, end ? last : 15);
      return formatCivil(year, month, Math.min(day, last));
    });
}

export const scheduleInputArb = (maxTerm = 120): fc.Arbitrary<ScheduleInput> =>
  frequencyArb.chain((frequency) =>
    fc.record({
      principal: principalArb,
      annualRate: annualRateArb,
      ivaRate: ivaRateArb,
      term: fc.integer({ min: 1, max: maxTerm }),
      frequency: fc.constant(frequency),
      firstDueDate: firstDueDateArb(frequency),
    }),
  );

/** Parses a two-decimal amount into centavos for assertions (exact, no floats). */
export function cents(value: string): bigint {
  const negative = value.startsWith('-');
  const [whole = '0', frac = '00'] = (negative ? value.slice(1) : value).split('.');
  const c = BigInt(whole) * 100n + BigInt(frac);
  return negative ? -c : c;
}

export interface CreditState {
  schedule: Schedule;
  annualRate: string;
  frequency: Frequency;
  disbursementDate: string;
  ivaRate: string;
  installments: InstallmentState[];
  /** A date between the disbursement and 60 days after the last due date. */
  date: string;
}

/**
 * A credit partway through its life: a schedule, the first `paidCount` installments fully paid, the next
 * one possibly paid in part (interest first), and a date anywhere from the disbursement to after the end.
 */
export const creditStateArb = (maxTerm = 36): fc.Arbitrary<CreditState> =>
  scheduleInputArb(maxTerm).chain((input) => {
    const schedule = buildSchedule(input);
    const firstDue = parseDay(input.firstDueDate, 'firstDueDate');
    const lastDue = parseDay(schedule.rows.at(-1)?.dueDate ?? input.firstDueDate, 'lastDue');
    return fc
      .record({
        lead: fc.integer({ min: 1, max: 40 }),
        paidCount: fc.integer({ min: 0, max: input.term }),
        partial: fc.integer({ min: 0, max: 1_000_000 }),
        offset: fc.integer({ min: 0, max: 1_000_000 }),
      })
      .map(({ lead, paidCount, partial, offset }) => {
        const disbursementDay = firstDue - lead;
        const installments = installmentsFromSchedule(schedule).map((inst, k): InstallmentState => {
          if (k < paidCount) return { ...inst, paid: { principal: inst.principal, interest: inst.interest, iva: inst.iva } };
          if (k === paidCount) {
            // Pay part of it in waterfall order: interest, IVA, principal.
            let left = BigInt(partial) % (cents(inst.interest) + cents(inst.iva) + cents(inst.principal) + 1n);
            const paid: Record<string, string> = {};
            for (const c of ['interest', 'iva', 'principal'] as const) {
              const take = left < cents(inst[c]) ? left : cents(inst[c]);
              left -= take;
              if (take > 0n) paid[c] = formatCents(take);
            }
            return { ...inst, paid };
          }
          return inst;
        });
        const span = lastDue + 60 - disbursementDay;
        return {
          schedule,
          annualRate: input.annualRate,
          frequency: input.frequency,
          disbursementDate: formatDay(disbursementDay),
          ivaRate: input.ivaRate,
          installments,
          date: formatDay(disbursementDay + (offset % (span + 1))),
        };
      });
  });

/** Sum of what is still owed on every installment. */
export function owedTotal(installments: readonly InstallmentState[]): bigint {
  let total = 0n;
  for (const inst of installments) {
    for (const c of ['principal', 'interest', 'iva', 'fees', 'feesIva', 'moratoryInterest', 'moratoryIva'] as const) {
      total += cents(inst[c] ?? '0.00') - cents(inst.paid?.[c] ?? '0.00') - cents(inst.waived?.[c] ?? '0.00');
    }
  }
  return total;
}
