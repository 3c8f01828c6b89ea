import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ageOn, assessEligibility, paymentCapacity, quoteLoan, type EligibilityInput } from './eligibility.ts';
import { buildSchedule } from './schedule.ts';

const base: EligibilityInput = {
  amount: '20000.00',
  annualRate: '0.36',
  ivaRate: '0.16',
  openingFeeRate: '0.02',
  openingFeeFinanced: false,
  term: 24,
  frequency: 'quincenal',
  firstDueDate: '2026-11-30',
  birthDate: '1980-01-01',
  contractDate: '2026-11-23',
  netSalary: '8000.00',
  otherDeductions: '500.00',
  maxDeductionRate: '0.30',
  product: { terms: [12, 24], minAmount: '3000.00', maxAmount: '150000.00', maxAgeAtEnd: 75 },
};

describe('quoteLoan', () => {
  it('deducts the opening fee from the disbursement, or finances it into the principal', () => {
    const deducted = quoteLoan(base);
    // Issue 13 #7: 2 % of 20,000.00 = 400.00, plus 16 % IVA = 64.00; deducted together: 20,000 − 464 = 19,536.00.
    expect(deducted).toMatchObject({
      amount: '20000.00',
      openingFee: '400.00',
      openingFeeIva: '64.00',
      principal: '20000.00',
      netDisbursement: '19536.00',
    });
    expect(deducted.schedule).toEqual(
      buildSchedule({
        principal: '20000.00',
        annualRate: '0.36',
        ivaRate: '0.16',
        term: 24,
        frequency: 'quincenal',
        firstDueDate: '2026-11-30',
      }),
    );
    const financed = quoteLoan({ ...base, openingFeeFinanced: true });
    // Financed: fee and its IVA are added to the principal, 20,000 + 464 = 20,464.00.
    expect(financed).toMatchObject({ principal: '20464.00', netDisbursement: '20000.00' });
    // Paying the fee up front makes the credit dearer than its nominal rate.
    expect(Number(deducted.cat)).toBeGreaterThan(Number(quoteLoan({ ...base, openingFeeRate: '0' }).cat));
  });

  it('refuses a fee that eats the whole amount', () => {
    expect(() => quoteLoan({ ...base, openingFeeRate: '1' })).toThrow('La comisión por apertura no puede ser igual o mayor que el monto.');
  });
});

describe('assessEligibility', () => {
  it('pre-approves within capacity, product limits and age', () => {
    const result = assessEligibility(base);
    expect(result).toMatchObject({
      capacity: '1900.00',
      approved: true,
      reasons: [],
      lastDueDate: '2027-11-15',
      ageAtEnd: 47,
      ageAtContract: 46,
    });
  });

  it('issue 13 #10: capacity is rounded DOWN: 1,000.05 × 30 % = 300.015 gives 300.01, not 300.02', () => {
    expect(paymentCapacity('1000.05', '0.30', '0.00')).toBe(30001n);
    expect(assessEligibility({ ...base, netSalary: '1000.05', otherDeductions: '0.00' }).capacity).toBe('300.01');
  });

  it('issue 13 #10: the last payment must fit the capacity too', () => {
    // Disbursed 2025-01-14, first discount 2025-01-31: 17 days charged by days (340.00 instead of 300.00), so
    // the last row repays more principal than a regular one and its payment exceeds the 1,026.53 installment.
    const longFirst = { ...base, firstDueDate: '2025-01-31', disbursementDate: '2025-01-14', contractDate: '2025-01-14' };
    // Capacity exactly the installment: 3,421.77 × 0.30 = 1,026.531 → 1,026.53.
    const result = assessEligibility({ ...longFirst, netSalary: '3421.77', otherDeductions: '0.00' });
    const last = result.quote.schedule.rows.at(-1)!;
    expect(result.quote.schedule.installment).toBe('1026.53');
    expect(result.capacity).toBe('1026.53');
    expect(Number(last.payment)).toBeGreaterThan(1026.53);
    expect(result.reasons.map((r) => r.code)).toEqual(['capacity']);
    expect(result.reasons[0]!.message).toContain('El último descuento');
  });

  it('issue 13 #6: at least 18 on the contracting date, and a birth date in the future is invalid', () => {
    // Born 2012-05-01: 14 on 2026-11-23.
    const child = assessEligibility({ ...base, birthDate: '2012-05-01' });
    expect(child.approved).toBe(false);
    expect(child.reasons.map((r) => r.code)).toEqual(['minimum-age']);
    // 18th birthday on 2026-11-23 itself: eligible; one day later: not yet.
    expect(assessEligibility({ ...base, birthDate: '2008-11-23' }).reasons).toEqual([]);
    expect(assessEligibility({ ...base, birthDate: '2008-11-24' }).reasons.map((r) => r.code)).toEqual(['minimum-age']);
    expect(assessEligibility({ ...base, birthDate: '2099-09-09' }).reasons.map((r) => r.code)).toEqual(['birth-date']);
  });

  it('the pay left after all deductions must not fall below the period minimum wage (daily figure as configuration)', () => {
    // 278.80 a day (CONASAMI, general zone, 2025) × 15 days = 4,182.00 a quincena. Salary 5,000.00 less the
    // largest deduction (about 1,026.53) leaves under 3,974: below the floor.
    const result = assessEligibility({ ...base, netSalary: '5000.00', otherDeductions: '0.00', dailyMinimumWage: '278.80' });
    expect(result.minimumWage).toBe('4182.00');
    expect(Number(result.payLeft)).toBeCloseTo(5000 - Number(result.quote.maxPayment), 2);
    expect(result.reasons.map((r) => r.code)).toEqual(['minimum-wage']);
    expect(assessEligibility({ ...base, netSalary: '5300.00', otherDeductions: '0.00', dailyMinimumWage: '278.80' }).approved).toBe(true);
  });

  it('gives every reason at once, in Spanish', () => {
    const result = assessEligibility({
      ...base,
      amount: '2500.00',
      term: 30,
      birthDate: '1955-06-01',
      netSalary: '1000.00',
      otherDeductions: '200.00',
      product: { ...base.product, maxAgeAtEnd: 70 },
    });
    expect(result.approved).toBe(false);
    expect(result.capacity).toBe('100.00');
    expect(result.reasons.map((reason) => reason.code)).toEqual(['capacity', 'amount', 'term', 'age']);
    expect(result.reasons[0]!.message).toBe(
      `El descuento de $${result.quote.schedule.installment} supera la capacidad de pago de $100.00 por periodo.`,
    );
    expect(result.reasons[1]!.message).toBe('El monto de $2,500.00 está fuera del producto (de $3,000.00 a $150,000.00).');
    expect(result.reasons[2]!.message).toBe('El plazo de 30 pagos no está permitido; el producto acepta 12, 24.');
    expect(result.reasons[3]!.message).toBe(`Al terminar el plazo (${result.lastDueDate}) tendría 72 años; el producto permite hasta 70.`);
  });

  it('says so when other deductions already take the whole cap', () => {
    const result = assessEligibility({ ...base, otherDeductions: '3000.00' });
    expect(result.capacity).toBe('-600.00');
    expect(result.reasons[0]!.message).toBe('Sin capacidad de pago: los otros descuentos ($3,000.00) ya alcanzan el tope del convenio.');
  });

  it('counts age in whole years, birthday included', () => {
    expect(ageOn('1980-11-15', '2027-11-14')).toBe(46);
    expect(ageOn('1980-11-15', '2027-11-15')).toBe(47);
    expect(ageOn('2000-02-29', '2027-02-28')).toBe(26);
  });

  it('property: the capacity reason appears exactly when the installment exceeds salary × cap − other deductions', () => {
    const cents = (min: number, max: number) =>
      fc.integer({ min, max }).map((value) => `${Math.floor(value / 100)}.${String(value % 100).padStart(2, '0')}`);
    fc.assert(
      fc.property(
        cents(100_000, 5_000_000),
        cents(0, 1_000_000),
        cents(300_000, 20_000_000),
        fc.constantFrom(12, 24, 48),
        (salary, other, amount, term) => {
          const result = assessEligibility({ ...base, netSalary: salary, otherDeductions: other, amount, term });
          const salaryCents = BigInt(salary.replace('.', ''));
          // Rounded down (DOMAIN §5): integer division truncates for non-negative numbers.
          const capacity = (salaryCents * 30n) / 100n - BigInt(other.replace('.', ''));
          const installment = BigInt(result.quote.maxPayment.replace('.', ''));
          expect(BigInt(result.capacity.replace('.', ''))).toBe(capacity);
          expect(result.reasons.some((reason) => reason.code === 'capacity')).toBe(installment > capacity);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
