import type { LayoutField, RowOutcome } from '@portal/contract';
import { parseCents } from '@portal/lending';
import { creditFolio, creditNumberOf } from '../shared/folios';
import { longDate, pesos } from '../shared/es-mx';

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
  context: { agreementId: string; discountDate: string },
): ClassifiedRow[] {
  const claimedAt = new Map<string, number>();
  const employeeSeen = new Map<string, number>();
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
      const open = all.filter((candidate) => candidate.status !== 'liquidado');
      const seen = employeeSeen.get(employee) ?? 0;
      employeeSeen.set(employee, seen + 1);
      if (all.length === 0)
        return rejected(row.line, 'crédito no encontrado', `El empleado ${employee} no tiene créditos en este convenio.`);
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
