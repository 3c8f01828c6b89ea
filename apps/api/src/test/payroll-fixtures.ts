import { and, asc, eq, gt, type SQL } from 'drizzle-orm';
import { agreements } from '../db/schema/agreements';
import { credits } from '../db/schema/credits';
import { clients } from '../db/schema/origination';
import type { Principal } from '../http/auth';
import { uploadPaymentFile } from '../modules/payment-files/payment-files.service';
import type { TestContext } from './test-app';

/**
 * The demo's Jalisco credits (agreement GOB-JAL) a payroll file can name, with what its row needs (employee number,
 * CURP) and what each pays and owes, narrowed by `where`, in folio order unless `order` says otherwise.
 */
export const jaliscoCredits = (ctx: TestContext, where?: SQL, order: SQL = asc(credits.number)) =>
  ctx.system((tx) =>
    tx
      .select({
        id: credits.id,
        companyId: credits.companyId,
        agreementId: credits.agreementId,
        employeeNumber: credits.employeeNumber,
        curp: clients.curp,
        installment: credits.installment,
        balance: credits.outstandingBalance,
        nextDiscountDate: credits.nextDiscountDate,
      })
      .from(credits)
      .innerJoin(clients, eq(clients.id, credits.clientId))
      .innerJoin(agreements, eq(agreements.id, credits.agreementId))
      .where(and(eq(agreements.code, 'GOB-JAL'), where))
      .orderBy(order),
  );

/** Late Jalisco credits whose late charges run: more than 20 days past due, at a moratory rate. */
export const LATE_WITH_CHARGES = and(gt(credits.daysPastDue, 20), gt(credits.moratoryRatePct, '0'));

/**
 * Uploads a Jalisco payroll file (`empleado,curp,importe,periodo,referencia`, one line per row) as `principal` would,
 * through the service the route calls.
 */
export const uploadJaliscoFile = (
  ctx: TestContext,
  principal: Principal,
  file: { agreementId: string; discountDate: string; lines: readonly string[]; today: string; now: Date },
) =>
  ctx.system((tx) =>
    uploadPaymentFile(
      tx,
      { id: 'test', identity: null, principal },
      {
        agreementId: file.agreementId,
        discountDate: file.discountDate,
        fileName: 'jalisco.csv',
        contentType: 'text/csv',
        content: Buffer.from(['empleado,curp,importe,periodo,referencia', ...file.lines].join('\r\n')),
        today: file.today,
        now: file.now,
      },
    ),
  );
