import { LendingInputError } from './errors.ts';

/** How often the employer pays, and so how often a deduction is taken. */
export type Frequency = 'semanal' | 'catorcenal' | 'quincenal' | 'mensual';

export const FREQUENCIES: readonly Frequency[] = ['semanal', 'catorcenal', 'quincenal', 'mensual'];

/** Periods per year used to turn the nominal annual rate into the periodic rate (and for the CAT). */
export const PERIODS_PER_YEAR: Readonly<Record<Frequency, number>> = {
  semanal: 52,
  catorcenal: 26,
  quincenal: 24,
  mensual: 12,
};

export function isFrequency(value: unknown): value is Frequency {
  return value === 'semanal' || value === 'catorcenal' || value === 'quincenal' || value === 'mensual';
}

export function assertFrequency(value: unknown, field = 'frequency'): Frequency {
  if (!isFrequency(value)) {
    throw new LendingInputError(
      'INVALID_FREQUENCY',
      field,
      `La periodicidad "${String(value)}" no existe: use semanal, catorcenal, quincenal o mensual.`,
    );
  }
  return value;
}
