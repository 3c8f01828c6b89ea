import { describe, expect, it } from 'vitest';
import {
  classifyRows,
  folioNumber,
  instructedAmountOf,
  noteInstructedAmounts,
  referencesOf,
  type CandidateCredit,
  type CreditLookup,
  type ReadRow,
} from './matching';

const AGREEMENT = 'agreement-a';
const credit = (overrides: Partial<CandidateCredit>): CandidateCredit => ({
  id: `credit-${overrides.number ?? 1}`,
  number: 1,
  agreementId: AGREEMENT,
  status: 'vigente',
  employeeNumber: 'E-1',
  curp: 'GODE561231HDFRRN09',
  rfc: 'GODE561231GR8',
  disbursementDate: '2026-01-10',
  outstandingBalance: '5000.00',
  installment: '500.00',
  ...overrides,
});
const row = (line: number, fields: ReadRow['fields'], errors: string[] = [], amountInvalid = false): ReadRow => ({
  line,
  fields,
  errors,
  amountInvalid,
});

function lookupOf(credits: CandidateCredit[]): CreditLookup {
  const byEmployee = new Map<string, CandidateCredit[]>();
  for (const c of [...credits].sort((a, b) => a.number - b.number).filter((c) => c.agreementId === AGREEMENT)) {
    byEmployee.set(c.employeeNumber, [...(byEmployee.get(c.employeeNumber) ?? []), c]);
  }
  return { byNumber: new Map(credits.map((c) => [c.number, c])), byEmployee };
}

const classify = (rows: ReadRow[], credits: CandidateCredit[]) =>
  classifyRows(rows, lookupOf(credits), { agreementId: AGREEMENT, discountDate: '2026-11-15' }).map((r) => [r.line, r.outcome, r.creditId]);

describe('folioNumber', () => {
  it('reads the folio as printed, as a bare number, or zero-padded as fixed-width files write it', () => {
    expect(['CR-00000123', 'cr-123', 'CR123', '123', '0000000123', ' 123 '].map(folioNumber)).toEqual([123, 123, 123, 123, 123, 123]);
    expect(['', 'CR-', 'ABC', '12.5', '-3', '0', 'CR-0000'].map(folioNumber)).toEqual([null, null, null, null, null, null, null]);
  });
});

describe('classifyRows', () => {
  it('gives every row one outcome, in file order, with the reason the clerk reads', () => {
    const credits = [
      credit({ number: 1 }),
      credit({ number: 2, employeeNumber: 'E-2', status: 'liquidado' }),
      credit({ number: 3, employeeNumber: 'E-3', agreementId: 'agreement-b' }),
      credit({ number: 4, employeeNumber: 'E-4', disbursementDate: '2026-11-20' }),
    ];
    const rows = [
      row(2, { creditId: 'CR-00000001', amount: '700.00' }),
      row(3, { creditId: '1', amount: '700.00' }),
      row(4, { creditId: '99', amount: '700.00' }),
      row(5, { creditId: '2', amount: '700.00' }),
      row(6, { creditId: '3', amount: '700.00' }),
      row(7, { creditId: 'X-1', amount: '700.00' }),
      row(8, { creditId: '4', amount: '700.00' }),
      row(9, { creditId: '1', amount: 'abc' }, ['Importe no válido: "abc".'], true),
      row(10, { creditId: '1', reference: '=1+1', amount: '1.00' }, ['La referencia parece una fórmula.']),
    ];
    const result = classifyRows(rows, lookupOf(credits), { agreementId: AGREEMENT, discountDate: '2026-11-15' });
    expect(result.map((r) => r.outcome)).toEqual([
      'válido',
      'duplicado en archivo',
      'crédito no encontrado',
      'crédito liquidado',
      'crédito de otro convenio',
      'dato no válido',
      'dato no válido',
      'monto inválido',
      'dato no válido',
    ]);
    expect(result[1]!.message).toBe('El crédito CR-00000001 ya viene en la línea 2.');
    expect(result[2]!.message).toBe('No existe el crédito CR-00000099 en tu empresa.');
    expect(result[6]!.message).toContain('después de la fecha de descuento');
    expect(result[8]!.message).toBe('La referencia parece una fórmula.');
  });

  it('accepts more than the balance as a sobrepago, and exactly the balance as valid', () => {
    const credits = [
      credit({ number: 1, outstandingBalance: '1000.00' }),
      credit({ number: 2, employeeNumber: 'E-2', outstandingBalance: '1000.00' }),
    ];
    expect(classify([row(1, { creditId: '1', amount: '1000.01' }), row(2, { creditId: '2', amount: '1000.00' })], credits)).toEqual([
      [1, 'sobrepago', 'credit-1'],
      [2, 'válido', 'credit-2'],
    ]);
  });

  it('by employee number: each row takes the next open credit of that employee in the agreement, oldest folio first', () => {
    const credits = [
      credit({ number: 7, employeeNumber: 'E-9' }),
      credit({ number: 5, employeeNumber: 'E-9' }),
      credit({ number: 6, employeeNumber: 'E-9', status: 'liquidado' }),
      credit({ number: 8, employeeNumber: 'E-8', status: 'liquidado' }),
    ];
    const rows = [
      row(1, { employeeNumber: 'E-9', amount: '1.00' }),
      row(2, { employeeNumber: 'E-9', amount: '2.00' }),
      row(3, { employeeNumber: 'E-9', amount: '3.00' }),
      row(4, { employeeNumber: 'E-8', amount: '1.00' }),
      row(5, { employeeNumber: 'E-0', amount: '1.00' }),
    ];
    expect(classify(rows, credits)).toEqual([
      [1, 'válido', 'credit-5'],
      [2, 'válido', 'credit-7'],
      [3, 'duplicado en archivo', null],
      [4, 'crédito liquidado', 'credit-8'],
      [5, 'crédito no encontrado', null],
    ]);
  });

  it('checks the CURP or RFC and the employee number a row brings against the credit', () => {
    const credits = [credit({ number: 1 })];
    expect(classify([row(1, { creditId: '1', curpRfc: 'gode561231gr8', amount: '1.00' })], credits)[0]![1]).toBe('válido');
    expect(classify([row(1, { creditId: '1', curpRfc: 'XAXX010101000', amount: '1.00' })], credits)[0]![1]).toBe('dato no válido');
    expect(classify([row(1, { creditId: '1', employeeNumber: 'E-7', amount: '1.00' })], credits)[0]![1]).toBe('dato no válido');
  });

  it('asks the database only for the folios and employee numbers the rows name', () => {
    expect(
      referencesOf([
        row(1, { creditId: 'CR-00000004' }),
        row(2, { creditId: '4' }),
        row(3, { employeeNumber: 'E-1' }),
        row(4, { creditId: 'nada', employeeNumber: 'E-2' }),
      ]),
    ).toEqual({
      numbers: [4],
      employeeNumbers: ['E-1', 'E-2'],
    });
  });
});

describe('classifyRows against the payday emitted cédula', () => {
  const instruction = (lines: Record<string, { movement: 'alta' | 'baja' | 'cambio' | 'continúa'; amount: string }>) => ({
    orderId: 'order-1',
    payday: '2026-11-15',
    lines: new Map(
      Object.entries(lines).map(([id, line]) => [
        id,
        { ...line, amountBefore: '500.00', reason: line.movement === 'baja' ? ('plazo-cumplido' as const) : null, replacedByFolio: null },
      ]),
    ),
  });

  it('refuses a row for a credit in baja, by folio or by employee number, and an employee row takes their credit still instructed', () => {
    // E-1 has credits 1 (baja) and 2 (continúa); E-3 only credit 3, in baja.
    const credits = [credit({ number: 1 }), credit({ number: 2 }), credit({ number: 3, employeeNumber: 'E-3' })];
    const told = instruction({
      'credit-1': { movement: 'baja', amount: '0.00' },
      'credit-2': { movement: 'continúa', amount: '500.00' },
      'credit-3': { movement: 'baja', amount: '0.00' },
    });
    const rows = [
      row(2, { creditId: '1', amount: '500.00' }),
      row(3, { employeeNumber: 'E-1', amount: '500.00' }),
      row(4, { employeeNumber: 'E-3', amount: '500.00' }),
    ];
    const classified = classifyRows(rows, lookupOf(credits), { agreementId: AGREEMENT, discountDate: '2026-11-15', instruction: told });
    expect(classified.map((r) => [r.line, r.outcome, r.creditId])).toEqual([
      [2, 'crédito en baja', 'credit-1'],
      [3, 'válido', 'credit-2'],
      [4, 'crédito en baja', 'credit-3'],
    ]);
    expect(classified[0]!.message).toBe(
      'El crédito CR-00000001 está en baja en la cédula del 15 de noviembre de 2026 (El crédito ya no tiene cuotas por descontar): el patrón no debía descontarlo.',
    );
    // Without a cédula the same rows pay as before: E-1's row takes their oldest credit, already paid by line 2.
    expect(classify(rows, credits).map(([, outcome]) => outcome)).toEqual(['válido', 'duplicado en archivo', 'válido']);
  });

  it("takes a renewal's cambio line for the new credit: the renewed credit it replaced is refused as stopped, by folio or by employee number", () => {
    // E-1 renewed credit 1 (still vigente: money en tránsito) into credit 5; the cédula has one cambio line, credit 5's,
    // replacing credit 1, which has no line of its own (payday-instruction reads it as a baja, replaced by CR-00000005).
    const credits = [credit({ number: 1 }), credit({ number: 5, disbursementDate: '2026-11-01' })];
    const told = {
      orderId: 'order-1',
      payday: '2026-11-15',
      lines: new Map([
        [
          'credit-5',
          {
            movement: 'cambio' as const,
            amount: '700.00',
            amountBefore: '500.00',
            reason: 'renovacion-cambio' as const,
            replacedByFolio: null,
          },
        ],
        [
          'credit-1',
          {
            movement: 'baja' as const,
            amount: '0.00',
            amountBefore: '500.00',
            reason: 'renovacion' as const,
            replacedByFolio: 'CR-00000005',
          },
        ],
      ]),
    };
    const context = { agreementId: AGREEMENT, discountDate: '2026-11-15', instruction: told };
    const byEmployee = classifyRows([row(2, { employeeNumber: 'E-1', amount: '700.00' })], lookupOf(credits), context);
    expect(byEmployee.map((r) => [r.outcome, r.creditId])).toEqual([['válido', 'credit-5']]);
    expect(instructedAmountOf(told, 'credit-5', '700.00')).toEqual({ instructedAmount: '700.00', amountDiffers: false });
    const byFolio = classifyRows([row(2, { creditId: '1', amount: '500.00' })], lookupOf(credits), context);
    expect(byFolio.map((r) => [r.outcome, r.creditId])).toEqual([['crédito en baja', 'credit-1']]);
    expect(byFolio[0]!.message).toBe(
      'El crédito CR-00000001 fue renovado: la cédula del 15 de noviembre de 2026 lo cambia por el CR-00000005, y el patrón no debía descontarlo.',
    );
  });

  it('notes an accepted amount other than the instructed one, and a credit the cédula does not name, to the centavo', () => {
    const told = instruction({ 'credit-1': { movement: 'cambio', amount: '450.50' } });
    expect(instructedAmountOf(told, 'credit-1', '450.50')).toEqual({ instructedAmount: '450.50', amountDiffers: false });
    expect(instructedAmountOf(told, 'credit-1', '450.5')).toEqual({ instructedAmount: '450.50', amountDiffers: false });
    expect(instructedAmountOf(told, 'credit-1', '450.49')).toEqual({ instructedAmount: '450.50', amountDiffers: true });
    expect(instructedAmountOf(told, 'credit-9', '10.00')).toEqual({ instructedAmount: '0.00', amountDiffers: true });
    expect(instructedAmountOf(null, 'credit-1', '1.00')).toEqual({ instructedAmount: null, amountDiffers: false });
    const rows = [row(2, { creditId: '1', amount: '450.49' }), row(3, { creditId: '9', amount: '10.00' })];
    const classified = [
      { line: 2, outcome: 'válido' as const, message: null, creditId: 'credit-1' },
      { line: 3, outcome: 'válido' as const, message: 'Antes.', creditId: 'credit-9' },
    ];
    noteInstructedAmounts(classified, rows, told);
    expect(classified.map((r) => r.message)).toEqual([
      'Importe distinto del instruido en la cédula del 15 de noviembre de 2026 ($450.50).',
      'Antes. La cédula del 15 de noviembre de 2026 no instruía este descuento.',
    ]);
  });
});
