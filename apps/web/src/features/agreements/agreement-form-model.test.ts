import { describe, expect, it } from 'vitest';
import { emptyAgreement, formatNonWorkingDays, parseNonWorkingDays, toInput, validateAgreement } from './agreement-form-model';

describe('the agreement form\'s non-working days', () => {
  it('reads dd/mm/aaaa dates separated by commas, semicolons or spaces, and writes them back the same way', () => {
    expect(parseNonWorkingDays('16/09/2026, 25/12/2026;1/1/2027  ')).toEqual(['2026-09-16', '2026-12-25', '2027-01-01']);
    expect(parseNonWorkingDays('  ')).toEqual([]);
    expect(formatNonWorkingDays(['2026-09-16', '2027-01-01'])).toBe('16/09/2026, 01/01/2027');
  });

  it('sends them to the contract, which refuses a date that does not exist or a repeated one on the field itself', () => {
    const form = { ...emptyAgreement('2026-11-23'), nonWorkingDays: '16/09/2026, 25/12/2026' };
    expect(toInput(form).nonWorkingDays).toEqual(['2026-09-16', '2026-12-25']);
    const problems = (text: string) => validateAgreement({ ...form, nonWorkingDays: text }).filter((problem) => problem.field === 'nonWorkingDays');
    expect(problems('30/02/2026')).toEqual([{ field: 'nonWorkingDays', message: 'Días inhábiles de nómina: cada fecha debe ser válida (dd/mm/aaaa).' }]);
    expect(problems('mañana')).toEqual([{ field: 'nonWorkingDays', message: 'Días inhábiles de nómina: cada fecha debe ser válida (dd/mm/aaaa).' }]);
    expect(problems('16/09/2026, 16/09/2026')).toEqual([{ field: 'nonWorkingDays', message: 'Días inhábiles de nómina: hay fechas repetidas.' }]);
    expect(problems('16/09/2026')).toEqual([]);
  });
});
