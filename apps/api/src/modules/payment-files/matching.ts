import { DEDUCTION_REASONS, type LayoutField, type RowOutcome } from '@portal/contract';
import { parseCents } from '@portal/lending';
import { creditFolio, creditNumberOf } from '../shared/folios';
import { longDate, pesos } from '../shared/es-mx';
import type { PaydayInstruction } from '../shared/payday-instruction';

/**
 * Which credit each row of a payment file pays, and why a row is refused (DOMAIN.md, "Payment file row"). Pure: the
 * caller looks the credits up (inside the user's company: another company's credit is simply not found) and this
 * decides, so the preview and the application classify rows by the same rules.
 */

export interface ReadRow {
  line: number;
  fields: Partial<Record<LayoutField, string>>;
  errors: string[];
  amountInvalid: boolean;
}

export interface CandidateCredit {
  id: string;
  number: number;
  agreementId: string;
  status: 'vigente' | 'vencido' | 'liquidado';
  employeeNumber: string;
  curp: string;
  rfc: string | null;
  disbursementDate: string;
  outstandingBalance: string;
  /** The deduction the employer loads: a row above it may pay the credit off. */
  installment: string;
}

export interface CreditLookup {
  /** The company's credits whose folio a row names, by folio number. */
  byNumber: ReadonlyMap<number, CandidateCredit>;
  /** The agreement's credits of each employee number a row names, oldest folio first. */
  byEmployee: ReadonlyMap<string, readonly CandidateCredit[]>;
}

export interface ClassifiedRow {
  line: number;
  outcome: RowOutcome;
  message: string | null;
  creditId: string | null;
}

/** "CR-00000123", "cr123" or "123": the folio's number; null when the text is no folio. */
export function folioNumber(text: string): number | null {
  const value = creditNumberOf(text);
  return value !== null && value > 0 ? value : null;
}

const rejected = (line: number, outcome: RowOutcome, message: string, creditId: string | null = null): ClassifiedRow => ({
  line,
  outcome,
  message,
  creditId,
});

/** A row for a credit the payday's cédula put in baja: refused, with the cédula's reason. */
function bajaRow(line: number, credit: CandidateCredit, instruction: PaydayInstruction): ClassifiedRow {
  const instructed = instruction.lines.get(credit.id);
  const reason = instructed?.reason;
  if (instructed?.replacedByFolio)
    return rejected(
      line,
      'crédito en baja',
      `El crédito ${creditFolio(credit.number)} fue renovado: la cédula del ${longDate(instruction.payday)} lo cambia por el ` +
        `${instructed.replacedByFolio}, y el patrón no debía descontarlo.`,
      credit.id,
    );
  return rejected(
    line,
    'crédito en baja',
    `El crédito ${creditFolio(credit.number)} está en baja en la cédula del ${longDate(instruction.payday)}` +
      `${reason ? ` (${DEDUCTION_REASONS[reason]})` : ''}: el patrón no debía descontarlo.`,
    credit.id,
  );
}

/** The folio and employee numbers the rows name: what the caller must look up. */
export function referencesOf(rows: readonly ReadRow[]): { numbers: number[]; employeeNumbers: string[] } {
  const numbers = new Set<number>();
  const employeeNumbers = new Set<string>();
  for (const row of rows) {
    const number = row.fields.creditId ? folioNumber(row.fields.creditId) : null;
    if (number !== null) numbers.add(number);
    else if (row.fields.employeeNumber) employeeNumbers.add(row.fields.employeeNumber);
  }
  return { numbers: [...numbers], employeeNumbers: [...employeeNumbers] };
}

/**
 * Every row's outcome, in file order. A credit is paid once per file: a later row naming a credit already paid by an
 * earlier one is "duplicado en archivo" (an employee with two credits appears once per credit, each row taking the
 * next of their credits). A row whose amount exceeds what the credit owes is accepted as a sobrepago: it pays the
 * credit off and the rest is kept as a credit balance.
 */
export function classifyRows(
  rows: readonly ReadRow[],
  lookup: CreditLookup,
  context: { agreementId: string; discountDate: string; instruction?: PaydayInstruction | null },
): ClassifiedRow[] {
  const claimedAt = new Map<string, number>();
  const employeeSeen = new Map<string, number>();
  const inBaja = (candidate: CandidateCredit) => context.instruction?.lines.get(candidate.id)?.movement === 'baja';
  return rows.map((row): ClassifiedRow => {
    if (row.amountInvalid) return rejected(row.line, 'monto inválido', row.errors.join(' '));
    if (row.errors.length > 0) return rejected(row.line, 'dato no válido', row.errors.join(' '));
    const { creditId: folioText, employeeNumber, curpRfc } = row.fields;
    let credit: CandidateCredit | undefined;
    if (folioText) {
      const number = folioNumber(folioText);
      if (number === null) return rejected(row.line, 'dato no válido', `"${folioText}" no es un folio de crédito (p. ej. CR-00000123).`);
      credit = lookup.byNumber.get(number);
      if (!credit) return rejected(row.line, 'crédito no encontrado', `No existe el crédito ${creditFolio(number)} en tu empresa.`);
      if (credit.agreementId !== context.agreementId)
        return rejected(
          row.line,
          'crédito de otro convenio',
          `El crédito ${creditFolio(credit.number)} pertenece a otro convenio.`,
          credit.id,
        );
      if (employeeNumber && employeeNumber !== credit.employeeNumber) {
        return rejected(
          row.line,
          'dato no válido',
          `El número de empleado ${employeeNumber} no es el del crédito ${creditFolio(credit.number)}.`,
          credit.id,
        );
      }
    } else {
      const employee = employeeNumber ?? '';
      const all = lookup.byEmployee.get(employee) ?? [];
      // An employee's row pays the credits the cédula still instructs: one in baja is not taken by a row without folio.
      const open = all.filter((candidate) => candidate.status !== 'liquidado' && !inBaja(candidate));
      const seen = employeeSeen.get(employee) ?? 0;
      employeeSeen.set(employee, seen + 1);
      if (all.length === 0)
        return rejected(row.line, 'crédito no encontrado', `El empleado ${employee} no tiene créditos en este convenio.`);
      const stopped = all.find(inBaja);
      if (open.length === 0 && stopped) return bajaRow(row.line, stopped, context.instruction!);
      if (open.length === 0)
        return rejected(row.line, 'crédito liquidado', `Los créditos del empleado ${employee} ya están liquidados.`, all[0]!.id);
      credit = open[seen];
      if (!credit) {
        const first = claimedAt.get(open[0]!.id);
        return rejected(
          row.line,
          'duplicado en archivo',
          `El empleado ${employee} ya viene en la línea ${first ?? '?'} y no tiene otro crédito vigente.`,
        );
      }
    }
    if (curpRfc && ![credit.curp, credit.rfc].some((value) => value !== null && value.toUpperCase() === curpRfc.toUpperCase())) {
      return rejected(
        row.line,
        'dato no válido',
        `El CURP o RFC ${curpRfc} no es el del acreditado del crédito ${creditFolio(credit.number)}.`,
        credit.id,
      );
    }
    const earlier = claimedAt.get(credit.id);
    if (earlier !== undefined)
      return rejected(
        row.line,
        'duplicado en archivo',
        `El crédito ${creditFolio(credit.number)} ya viene en la línea ${earlier}.`,
        credit.id,
      );
    claimedAt.set(credit.id, row.line);
    if (inBaja(credit)) return bajaRow(row.line, credit, context.instruction!);
    if (credit.status === 'liquidado')
      return rejected(row.line, 'crédito liquidado', `El crédito ${creditFolio(credit.number)} ya está liquidado.`, credit.id);
    if (credit.disbursementDate > context.discountDate) {
      return rejected(
        row.line,
        'dato no válido',
        `El crédito ${creditFolio(credit.number)} se dispuso el ${longDate(credit.disbursementDate)}, después de la fecha de descuento.`,
        credit.id,
      );
    }
    const amount = parseCents(row.fields.amount ?? '0', 'amount');
    if (amount > parseCents(credit.outstandingBalance, 'saldo')) {
      return {
        line: row.line,
        outcome: 'sobrepago',
        message: `El importe excede el saldo del crédito (${pesos(credit.outstandingBalance)}): lo que sobre queda como saldo a favor.`,
        creditId: credit.id,
      };
    }
    return { line: row.line, outcome: 'válido', message: null, creditId: credit.id };
  });
}

/**
 * What the payday's emitted cédula instructed for each accepted row's credit, and whether the row's amount differs
 * from it (null: no cédula for the date, or the row pays no credit). A credit the cédula does not name was instructed
 * 0.00. A warning, not a refusal: the money arrived and is applied.
 */
export function instructedAmountOf(
  instruction: PaydayInstruction | null,
  creditId: string | null,
  amount: string | null,
): { instructedAmount: string | null; amountDiffers: boolean } {
  if (instruction === null || creditId === null) return { instructedAmount: null, amountDiffers: false };
  const instructedAmount = instruction.lines.get(creditId)?.amount ?? '0.00';
  const differs = amount !== null && parseCents(amount, 'importe') !== parseCents(instructedAmount, 'instruido');
  return { instructedAmount, amountDiffers: differs };
}

/** The accepted rows whose amount differs from the cédula's, each with a note saying so (after the other notes). */
export function noteInstructedAmounts(classified: ClassifiedRow[], rows: readonly ReadRow[], instruction: PaydayInstruction | null): void {
  if (instruction === null) return;
  classified.forEach((row, index) => {
    if (row.outcome !== 'válido' && row.outcome !== 'sobrepago') return;
    const amount = rows[index]!.fields.amount ?? null;
    const { instructedAmount, amountDiffers } = instructedAmountOf(instruction, row.creditId, amount);
    if (!amountDiffers) return;
    const note = instruction.lines.has(row.creditId!)
      ? `Importe distinto del instruido en la cédula del ${longDate(instruction.payday)} (${pesos(instructedAmount!)}).`
      : `La cédula del ${longDate(instruction.payday)} no instruía este descuento.`;
    classified[index] = { ...row, message: row.message === null ? note : `${row.message} ${note}` };
  });
}
