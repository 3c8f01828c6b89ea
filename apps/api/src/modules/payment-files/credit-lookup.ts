import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { arrayParam } from '../../db/array-param';
import { rowsOf } from '../../db/rows';
import type { CandidateCredit, CreditLookup, ReadRow } from './matching';
import { referencesOf } from './matching';

type LookupRow = {
  id: string;
  number: string | number;
  agreement_id: string;
  status: CandidateCredit['status'];
  employee_number: string;
  curp: string;
  rfc: string | null;
  disbursement_date: string;
  outstanding_balance: string;
  installment: string;
};

const toCandidate = (row: LookupRow): CandidateCredit => ({
  id: row.id,
  number: Number(row.number),
  agreementId: row.agreement_id,
  status: row.status,
  employeeNumber: row.employee_number,
  curp: row.curp,
  rfc: row.rfc,
  disbursementDate: String(row.disbursement_date).slice(0, 10),
  outstandingBalance: row.outstanding_balance,
  installment: row.installment,
});

/**
 * The credits a file's rows name, within the company (and row-level security): by folio, any agreement (a folio of
 * another agreement is reported as such); by employee number, the agreement's credits only. Each list goes to the
 * database as one array parameter, whatever the number of rows: `= any` of an array is planned for its length (a
 * payroll's 90,000 employees: the agreement's credits read once and the array hashed), where the rows of a JSON
 * list were taken for a hundred and looked up one by one through the index (0.7-1.1 s of a 90,000-row upload).
 */
export async function lookupCredits(tx: Tx, companyId: string, agreementId: string, rows: readonly ReadRow[]): Promise<CreditLookup> {
  const { numbers, employeeNumbers } = referencesOf(rows);
  const columns = sql.raw(
    'c.id, c.number, c.agreement_id, c.status, c.employee_number, k.curp, k.rfc, c.disbursement_date::text as disbursement_date, c.outstanding_balance::text as outstanding_balance, c.installment::text as installment',
  );
  const byNumber =
    numbers.length === 0
      ? []
      : rowsOf<LookupRow>(
          await tx.execute(sql`select ${columns} from credits c join clients k on k.id = c.client_id
             where c.company_id = ${companyId} and c.number = any(${arrayParam('bigint', numbers)})`),
        );
  const byEmployee =
    employeeNumbers.length === 0
      ? []
      : rowsOf<LookupRow>(
          await tx.execute(sql`select ${columns} from credits c join clients k on k.id = c.client_id
             where c.company_id = ${companyId} and c.agreement_id = ${agreementId}
               and c.employee_number = any(${arrayParam('text', employeeNumbers)})`),
        );
  const employees = new Map<string, CandidateCredit[]>();
  for (const row of byEmployee) {
    const candidate = toCandidate(row);
    const list = employees.get(candidate.employeeNumber);
    if (list) list.push(candidate);
    else employees.set(candidate.employeeNumber, [candidate]);
  }
  // Each employee's credits oldest folio first, sorted here: the database would sort all of them, spilling to disk.
  for (const list of employees.values()) if (list.length > 1) list.sort((a, b) => a.number - b.number);
  return { byNumber: new Map(byNumber.map((row) => [Number(row.number), toCandidate(row)])), byEmployee: employees };
}
